// Generic Chrome trace JSON: flow binding (Perfetto's diff-test file), phase coverage
// (XProf's demo trace), and the quirks real writers produce.
#include "src/importers/chrome_json/chrome_json_importer.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "src/base/gzip.h"
#include "src/importers/importer_registry.h"
#include "src/importers/testing/trace_facts.h"
#include "src/xspace/schema.h"

namespace stepscope::importers {
namespace {

using testing::ImportedEvent;

struct Result {
  Status status;
  ImportStats stats;
  xspace::XSpace space;
  std::vector<ImportedEvent> events;
};

Result ImportText(std::string_view json, ImportOptions options = {}, std::string_view format = "chrome_json") {
  Result result;
  result.status = ImportTraceBytes(json, options, &result.space, &result.stats, format);
  result.events = testing::ImportedEvents(result.space);
  return result;
}

const ImportedEvent* Find(const Result& result, std::string_view name) {
  for (const ImportedEvent& event : result.events) {
    if (event.name == name) return &event;
  }
  return nullptr;
}

uint64_t FlowValue(const ImportedEvent& event) { return std::stoull(event.stats.at("flow")); }

// Map fields serialize in hash order unless asked not to.
std::string DeterministicBytes(const xspace::XSpace& space) {
  std::string bytes;
  google::protobuf::io::StringOutputStream stream(&bytes);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  space.SerializeToCodedStream(&coded);
  coded.Trim();
  return bytes;
}

TEST(ChromeJsonImporterTest, PerfettoFlowEventsBindAsPerfettoDoes) {
  Result result;
  result.status = ImportTraceFile(testing::TraceTestFile("perfetto_flow_events_json_v1.json"), {}, &result.space,
                                  &result.stats);
  ASSERT_TRUE(result.status.ok()) << result.status.ToString();
  result.events = testing::ImportedEvents(result.space);
  EXPECT_EQ(result.stats.format, "chrome_json");
  EXPECT_EQ(result.stats.events_read, 10u);  // README: 10 events
  EXPECT_EQ(result.stats.events_imported, 5u);
  EXPECT_EQ(result.stats.flow_events, 5u);
  EXPECT_EQ(result.stats.DroppedTotal(), 0u);
  // Rebuild the flows as edges: per flow id, the points ordered by time, each edge from
  // an out (or in/out) point to the next in (or in/out) point.
  std::map<uint64_t, std::vector<std::pair<int64_t, const ImportedEvent*>>> points;
  for (const ImportedEvent& event : result.events) {
    if (!event.stats.count("flow")) continue;
    uint64_t value = FlowValue(event);
    points[(value >> 2) & ((uint64_t{1} << 56) - 1)].emplace_back(event.offset_ps, &event);
  }
  std::set<std::pair<std::string, std::string>> edges;
  for (auto& [id, chain] : points) {
    std::sort(chain.begin(), chain.end());
    for (size_t i = 0; i + 1 < chain.size(); ++i) {
      uint64_t from = FlowValue(*chain[i].second) & 3;
      uint64_t to = FlowValue(*chain[i + 1].second) & 3;
      EXPECT_TRUE(from == 2 || from == 3);
      EXPECT_TRUE(to == 1 || to == 3);
      edges.emplace(chain[i].second->name, chain[i + 1].second->name);
    }
  }
  std::set<std::pair<std::string, std::string>> expected = {
      {"SenderB", "Blergh"}, {"SenderA", "OtherSlice"}, {"OtherSlice", "SomeSlice"}};
  EXPECT_EQ(edges, expected);
}

TEST(ChromeJsonImporterTest, XprofDemoTraceCoversEveryPhase) {
  std::string path = testing::TraceTestFile("xprof_tf_trace_viewer_demo_trace.json");
  std::string error;
  testing::FileFacts facts = testing::ReadFileFacts(testing::ReadInflated(path), &error);
  Result result;
  result.status = ImportTraceFile(path, {}, &result.space, &result.stats);
  ASSERT_TRUE(result.status.ok()) << result.status.ToString();
  result.events = testing::ImportedEvents(result.space);
  const ImportStats& stats = result.stats;
  EXPECT_EQ(stats.events_read, 37u);  // README: 37 events
  EXPECT_EQ(stats.events_read, stats.events_imported + stats.metadata_events + stats.flow_events + stats.DroppedTotal());
  EXPECT_EQ(stats.metadata_events, static_cast<uint64_t>(facts.count_by_ph["M"]));
  EXPECT_EQ(stats.dropped.at("unsupported phase 'P'"), static_cast<uint64_t>(facts.count_by_ph["P"]));
  int b = facts.count_by_ph["B"], e = facts.count_by_ph["E"];
  ASSERT_EQ(b, e);
  int instants = facts.count_by_ph["I"] + facts.count_by_ph["i"];
  int expected_events = b + facts.count_by_ph["X"] + instants + facts.count_by_ph["C"];
  EXPECT_EQ(static_cast<int>(result.events.size()), expected_events);
  // B/E pairs become slices with the E time as their end: "Asub" [829, 832].
  int asubs = 0;
  for (const ImportedEvent& event : result.events) {
    if (event.name == "Asub" && event.duration_ps == 3'000'000) ++asubs;
  }
  EXPECT_EQ(asubs, 1);
  // Counters land on the _counters_ line with their value.
  int counters = 0;
  for (const ImportedEvent& event : result.events) {
    if (event.line == "_counters_") {
      ++counters;
      EXPECT_TRUE(event.stats.count("value"));
    }
  }
  EXPECT_EQ(counters, facts.count_by_ph["C"]);
  // Thread names come from the M events; the args became stats (bools as 0/1).
  const ImportedEvent* long_name = Find(result, "A long name that doesnt fit but is exceedingly informative");
  ASSERT_NE(long_name, nullptr);
  EXPECT_EQ(long_name->line, "threadA");
  EXPECT_EQ(long_name->stats.at("name_false"), "0");
  EXPECT_EQ(long_name->stats.at("value_true"), "1");
  const ImportedEvent* global = Find(result, "GlobalEvent1");
  ASSERT_NE(global, nullptr);
  EXPECT_EQ(global->line, "Global instants");
}

TEST(ChromeJsonImporterTest, BeginEndPairsMatchInTimeOrderWithEndArgs) {
  Result result = ImportText(R"({"traceEvents": [
    {"ph": "E", "ts": 30, "pid": 1, "tid": 1, "args": {"result": "ok"}},
    {"ph": "B", "name": "outer", "ts": 10, "pid": 1, "tid": 1, "args": {"a": 1}},
    {"ph": "B", "name": "inner", "ts": 12, "pid": 1, "tid": 1},
    {"ph": "E", "ts": 20, "pid": 1, "tid": 1},
    {"ph": "E", "ts": 5, "pid": 1, "tid": 1},
    {"ph": "B", "name": "never closed", "ts": 40, "pid": 1, "tid": 1}
  ]})");
  ASSERT_TRUE(result.status.ok()) << result.status.ToString();
  const ImportedEvent* outer = Find(result, "outer");
  const ImportedEvent* inner = Find(result, "inner");
  ASSERT_TRUE(outer && inner);
  EXPECT_EQ(outer->duration_ps, 20'000'000);
  EXPECT_EQ(inner->duration_ps, 8'000'000);
  EXPECT_EQ(outer->stats.at("a"), "1");
  EXPECT_EQ(outer->stats.at("result"), "ok");
  EXPECT_EQ(Find(result, "never closed"), nullptr);
  EXPECT_EQ(result.stats.dropped.at("'E' without a matching 'B'"), 1u);
  EXPECT_EQ(result.stats.dropped.at("'B' without a matching 'E' (still open at the end of the trace)"), 1u);
  EXPECT_EQ(result.stats.events_imported, 4u);
  EXPECT_EQ(result.stats.events_read, 6u);
}

TEST(ChromeJsonImporterTest, QuirksAreToleratedAndCounted) {
  // A bare array; ts as a string; an X without dur; odd escapes; an unknown phase; a
  // non-object element; a trailing {} and a trailing comma; NaN in args.
  Result result = ImportText(R"([
    {"ph": "X", "name": "str ts", "ts": "100.5", "dur": 2, "pid": 1, "tid": 1},
    {"ph": "X", "name": "no dur", "ts": 101, "pid": 1, "tid": 1},
    {"ph": "X", "name": "esc \x41 \u00e9", "ts": 103, "dur": 1, "pid": 1, "tid": 1, "args": {"v": NaN}},
    {"ph": "Z", "name": "what", "ts": 1},
    {"ph": "X", "name": "no ts", "pid": 1},
    42,
    {},
  ])");
  ASSERT_TRUE(result.status.ok()) << result.status.ToString();
  const ImportStats& stats = result.stats;
  EXPECT_EQ(stats.events_read, 7u);
  EXPECT_EQ(stats.events_imported, 3u);
  EXPECT_EQ(stats.DroppedTotal(), 4u);
  EXPECT_EQ(stats.fixed.at("\"ts\" written as a string"), 1u);
  EXPECT_EQ(stats.fixed.at("'X' event without a usable \"dur\": imported as an instant"), 1u);
  EXPECT_EQ(stats.fixed.at("trailing comma before the end of the event array"), 1u);
  EXPECT_NE(Find(result, "esc \\x41 \xc3\xa9"), nullptr);
  EXPECT_EQ(Find(result, "str ts")->offset_ps, 0);  // the earliest event is the origin
  EXPECT_EQ(Find(result, "no dur")->offset_ps, 500'000);
  EXPECT_EQ(Find(result, "no dur")->duration_ps, 0);
  EXPECT_EQ(Find(result, "esc \\x41 \xc3\xa9")->stats.at("v"), "nan");
  // Every problem is a warning in the XSpace.
  EXPECT_GE(result.space.warnings_size(), 6);
}

TEST(ChromeJsonImporterTest, NsFractionsAndDisplayTimeUnitDoNotScaleTimes) {
  Result result = ImportText(R"({"displayTimeUnit": "ns", "traceEvents": [
    {"ph": "X", "name": "a", "ts": 1712195495501688.523, "dur": 0.001, "pid": 1, "tid": 1},
    {"ph": "X", "name": "b", "ts": 1712195495501689.001, "dur": 1.5, "pid": 1, "tid": 1}
  ]})");
  ASSERT_TRUE(result.status.ok()) << result.status.ToString();
  EXPECT_EQ(Find(result, "a")->duration_ps, 1'000);
  EXPECT_EQ(Find(result, "b")->offset_ps - Find(result, "a")->offset_ps, 478'000);
  EXPECT_EQ(Find(result, "a")->wall_ns, 1712195495501688523);  // Unix-epoch microseconds
}

TEST(ChromeJsonImporterTest, ThreadsOfSeveralProcessesKeepDistinctLines) {
  Result result = ImportText(R"({"traceEvents": [
    {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "trainer"}},
    {"ph": "M", "name": "thread_name", "pid": 1, "tid": 7, "args": {"name": "main"}},
    {"ph": "X", "name": "a", "ts": 1, "dur": 1, "pid": 1, "tid": 7},
    {"ph": "X", "name": "b", "ts": 1, "dur": 1, "pid": 2, "tid": 7},
    {"ph": "X", "name": "c", "ts": 1, "dur": 1, "pid": 2, "tid": 8},
    {"ph": "C", "name": "mem", "ts": 2, "pid": 1, "args": {"used": 10, "free": 2.5}},
    {"ph": "i", "name": "proc", "ts": 3, "pid": 2, "s": "p"}
  ]})");
  ASSERT_TRUE(result.status.ok()) << result.status.ToString();
  std::set<std::string> lines;
  for (const xspace::XLine& line : result.space.planes(0).lines()) lines.insert(line.display_name().empty() ? line.name() : line.display_name());
  EXPECT_EQ(lines, (std::set<std::string>{"trainer / main", "pid 2 / Thread 7", "pid 2 / Thread 8", "_counters_",
                                          "pid 2 instants"}));
  const ImportedEvent* counter = Find(result, "mem");
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ(counter->stats.at("used"), "10");
  EXPECT_EQ(counter->stats.at("free"), "2.5");
  std::set<int64_t> ids;
  for (const xspace::XLine& line : result.space.planes(0).lines()) ids.insert(line.id());
  EXPECT_EQ(ids.size(), 5u);
}

TEST(ChromeJsonImporterTest, FlowV2BindIdsLinkSlices) {
  Result result = ImportText(R"({"traceEvents": [
    {"ph": "X", "name": "send", "ts": 1, "dur": 1, "pid": 1, "tid": 1, "bind_id": "0x1", "flow_out": true},
    {"ph": "X", "name": "recv", "ts": 5, "dur": 1, "pid": 1, "tid": 2, "bind_id": "0x1", "flow_in": true}
  ]})");
  ASSERT_TRUE(result.status.ok());
  uint64_t out = FlowValue(*Find(result, "send"));
  uint64_t in = FlowValue(*Find(result, "recv"));
  EXPECT_EQ(out & 3, 2u);
  EXPECT_EQ(in & 3, 1u);
  EXPECT_EQ(out >> 2, in >> 2);
}

// A flow is its points with the same category and the same id text: a number and the
// string of the same digits are one id; "07" is not "7"; one id in two categories is two
// flows; v2 bind ids are flows of their own whatever the categories are called.
TEST(ChromeJsonImporterTest, FlowsAreJoinedByCategoryAndIdText) {
  Result result = ImportText(R"({"traceEvents": [
    {"ph": "X", "name": "a_out", "ts": 1, "dur": 2, "pid": 1, "tid": 1},
    {"ph": "s", "cat": "c", "name": "f", "id": 7, "ts": 2, "pid": 1, "tid": 1},
    {"ph": "X", "name": "a_in", "ts": 10, "dur": 2, "pid": 1, "tid": 2},
    {"ph": "f", "cat": "c", "name": "f", "id": "7", "bp": "e", "ts": 11, "pid": 1, "tid": 2},
    {"ph": "X", "name": "b_out", "ts": 20, "dur": 2, "pid": 1, "tid": 1},
    {"ph": "s", "cat": "c", "name": "f", "id": "07", "ts": 21, "pid": 1, "tid": 1},
    {"ph": "X", "name": "c_out", "ts": 30, "dur": 2, "pid": 1, "tid": 1},
    {"ph": "s", "cat": "other", "name": "f", "id": 7, "ts": 31, "pid": 1, "tid": 1},
    {"ph": "X", "name": "d_out", "ts": 40, "dur": 2, "pid": 1, "tid": 1},
    {"ph": "s", "cat": "c", "name": "f", "id": "0x7", "ts": 41, "pid": 1, "tid": 1},
    {"ph": "X", "name": "v2_out", "ts": 50, "dur": 1, "pid": 1, "tid": 1, "bind_id": 7, "flow_out": true},
    {"ph": "X", "name": "v2_in", "ts": 60, "dur": 1, "pid": 1, "tid": 2, "bind_id": 7, "flow_in": true}
  ]})");
  ASSERT_TRUE(result.status.ok()) << result.status.ToString();
  EXPECT_EQ(result.stats.flow_events, 5u);  // the s/f points; v2 flows are stats of their slices
  auto flow_of = [&](std::string_view name) {
    const ImportedEvent* event = Find(result, name);
    EXPECT_NE(event, nullptr) << name;
    return event != nullptr && event->stats.count("flow") ? FlowValue(*event) >> 2 : 0;
  };
  const uint64_t seven = flow_of("a_out");
  ASSERT_NE(seven, 0u);
  EXPECT_EQ(flow_of("a_in"), seven);  // 7 and "7"
  std::set<uint64_t> distinct = {seven, flow_of("b_out"), flow_of("c_out"), flow_of("d_out"), flow_of("v2_out")};
  EXPECT_EQ(distinct.size(), 5u);  // "07", another category, "0x7", v2: each its own flow
  EXPECT_EQ(distinct.count(0), 0u);
  EXPECT_EQ(flow_of("v2_in"), flow_of("v2_out"));
}

TEST(ChromeJsonImporterTest, TruncatedFilesFailClearlyOrImportThePrefix) {
  std::string json = R"({"traceEvents": [
    {"ph": "X", "name": "a", "ts": 1, "dur": 1, "pid": 1, "tid": 1},
    {"ph": "X", "name": "b", "ts": 2, "dur": 1, "pid": 1, "tid": 1},
    {"ph": "X", "name": "c", "ts": 3, "du)";
  Result strict = ImportText(json);
  ASSERT_FALSE(strict.status.ok());
  EXPECT_EQ(strict.status.code(), StatusCode::kDataLoss);
  EXPECT_NE(strict.status.message().find("truncated"), std::string::npos) << strict.status.message();
  EXPECT_NE(strict.status.message().find("after 2 events"), std::string::npos) << strict.status.message();
  ImportOptions lenient;
  lenient.allow_truncated = true;
  Result prefix = ImportText(json, lenient);
  ASSERT_TRUE(prefix.status.ok()) << prefix.status.ToString();
  EXPECT_EQ(prefix.events.size(), 2u);
  EXPECT_TRUE(prefix.stats.truncated);
  bool warned = false;
  for (const std::string& warning : prefix.space.warnings()) warned = warned || warning.find("truncated") != std::string::npos;
  EXPECT_TRUE(warned);
  // A truncated .gz (the compressed stream cut) is the same kind of error.
  StatusOr<std::string> gz = base::Gzip(std::string(json) + "\": 1}]}");
  ASSERT_TRUE(gz.ok());
  Result cut_gz = ImportText(gz->substr(0, gz->size() / 2));
  EXPECT_EQ(cut_gz.status.code(), StatusCode::kDataLoss) << cut_gz.status.ToString();
}

TEST(ChromeJsonImporterTest, HostileInputsGiveErrorsNotCrashes) {
  std::string deep(100000, '[');
  EXPECT_FALSE(ImportText("{\"traceEvents\": [" + deep).status.ok());
  Result big_ts = ImportText(R"([{"ph": "X", "name": "x", "ts": 99999999999999999999999, "dur": 1},
                                  {"ph": "X", "name": "y", "ts": 1, "dur": 1}])");
  ASSERT_TRUE(big_ts.status.ok()) << big_ts.status.ToString();
  EXPECT_EQ(big_ts.stats.DroppedTotal(), 1u);
  // When every event is dropped there is nothing to import: an error naming why.
  Result all_dropped = ImportText(R"([{"ph": "X", "name": "x", "ts": 99999999999999999999999, "dur": 1}])");
  ASSERT_FALSE(all_dropped.status.ok());
  EXPECT_NE(all_dropped.status.message().find("nothing to import"), std::string::npos)
      << all_dropped.status.message();
  EXPECT_NE(all_dropped.status.message().find("dropped: 1 x"), std::string::npos) << all_dropped.status.message();
  EXPECT_FALSE(ImportText("not json at all").status.ok());
  EXPECT_FALSE(ImportText("").status.ok());
  // A gzip bomb stops at the inflation limit.
  StatusOr<std::string> bomb = base::Gzip("[" + std::string(1 << 20, ' ') + "]");
  ASSERT_TRUE(bomb.ok());
  ImportOptions small;
  small.max_inflated_bytes = 4096;
  EXPECT_EQ(ImportText(*bomb, small).status.code(), StatusCode::kResourceExhausted);
}

TEST(ChromeJsonImporterTest, WindowSizeAndThreadsDoNotChangeTheResult) {
  for (const char* file : {"hta_sampled_rank-0.json.gz", "perfetto_flow_events_json_v1.json",
                           "xprof_tf_trace_viewer_demo_trace.json"}) {
    std::string path = testing::TraceTestFile(file);
    ImportOptions one_thread;
    one_thread.threads = 1;
    xspace::XSpace reference;
    ImportStats reference_stats;
    ASSERT_TRUE(ImportTraceFile(path, one_thread, &reference, &reference_stats).ok()) << file;
    for (int threads : {1, 2, 4}) {
      for (size_t window : {size_t{4096}, size_t{4} << 20}) {
        ImportOptions options;
        options.threads = threads;
        options.window_bytes = window;
        xspace::XSpace space;
        ImportStats stats;
        ASSERT_TRUE(ImportTraceFile(path, options, &space, &stats).ok()) << file;
        EXPECT_TRUE(DeterministicBytes(space) == DeterministicBytes(reference))
            << file << ": the XSpaces differ with " << threads << " threads, window " << window;
        EXPECT_EQ(stats.Warnings(), reference_stats.Warnings()) << file;
        EXPECT_EQ(stats.events_read, reference_stats.events_read) << file;
        EXPECT_EQ(stats.flow_events, reference_stats.flow_events) << file;
      }
    }
  }
}

}  // namespace
}  // namespace stepscope::importers
