#include "src/importers/json/trace_json_reader.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <string>
#include <vector>

#include "src/base/gzip.h"
#include "src/importers/json/json_text.h"

namespace stepscope::importers {
namespace {

// Records every callback as one line of text, so runs can be compared exactly.
class RecordingSink : public TraceJsonSink {
 public:
  void OnEvent(const RawTraceEvent& event) override {
    std::string scratch;
    std::string line = "event@" + std::to_string(event.byte_offset) + " ph=" + std::string(event.ph.text()) +
                       " name=" + std::string(UnescapeJsonStringLenient(event.name.text(), &scratch)) +
                       " ts=" + std::string(event.ts.text()) + " pid=" + std::string(event.pid.text()) +
                       " args=" + std::to_string(event.args.size());
    for (const JsonArg& arg : event.args) {
      line += " " + std::string(arg.key) + ":" + std::to_string(static_cast<int>(arg.value.kind)) + "=" +
              std::string(arg.value.text());
    }
    lines.push_back(line);
  }
  void OnNonObjectEvent(uint64_t offset) override { lines.push_back("non-object@" + std::to_string(offset)); }
  void OnTopLevelField(std::string_view key, std::string_view raw) override {
    lines.push_back("top " + std::string(key) + "=" + std::string(raw));
  }
  std::vector<std::string> lines;
};

struct ReadOutcome {
  Status status;
  TraceJsonReadResult result;
  std::vector<std::string> lines;
};

ReadOutcome ReadWith(std::string_view json, size_t window, bool allow_truncated, bool own_thread) {
  ReadOutcome outcome;
  std::unique_ptr<ByteSource> source = MakeTraceByteSource(json, 1 << 30);
  TraceJsonReadOptions options;
  options.window_bytes = window;
  options.allow_truncated = allow_truncated;
  options.tokenize_on_own_thread = own_thread;
  RecordingSink sink;
  outcome.status = ReadTraceJson(*source, options, sink, &outcome.result);
  outcome.lines = std::move(sink.lines);
  return outcome;
}

// Reads on the caller's thread, and checks that tokenizing on a thread of its own hands
// the sink exactly the same.
ReadOutcome Read(std::string_view json, size_t window, bool allow_truncated = false) {
  ReadOutcome outcome = ReadWith(json, window, allow_truncated, /*own_thread=*/false);
  ReadOutcome threaded = ReadWith(json, window, allow_truncated, /*own_thread=*/true);
  EXPECT_EQ(threaded.status.ToString(), outcome.status.ToString());
  EXPECT_EQ(threaded.lines, outcome.lines);
  EXPECT_EQ(threaded.result.elements, outcome.result.elements);
  EXPECT_EQ(threaded.result.json_bytes, outcome.result.json_bytes);
  EXPECT_EQ(threaded.result.truncated, outcome.result.truncated);
  EXPECT_EQ(threaded.result.invalid_utf8_bytes, outcome.result.invalid_utf8_bytes);
  EXPECT_EQ(threaded.result.trailing_commas, outcome.result.trailing_commas);
  return outcome;
}

constexpr char kObjectTrace[] = R"({
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "GPU \"zero\""}, {"id": 1}],
  "traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 10, "tid": 11, "ts": 100.5, "dur": 3,
     "args": {"External id": 7, "Input Dims": [[2, 3], []], "flag": true, "none": null, "obj": {"a": {"b": 1}}}},
    {"ph": "i", "name": "odd \x1b \u00e9 \"q\"", "pid": "Spans", "ts": "17", "s": "g"},
    {"name": "nested } , { braces ]", "ph": "X", "ts": 1712195495501688.523, "dur": 1, "args": {"v": NaN}},
    {"ph": "s", "id": "0x402", "bp": "e", "ts": 3, "cat": "ipc", "name": "IPC", "tid": 1, "pid": 2},
    5,
    {}
  ],
  "displayTimeUnit": "ns",
  "distributedInfo": {"rank": 3, "world_size": 8}
})";

// Tokens hold 32-bit sizes: options that would allow larger windows are refused.
TEST(TraceJsonReaderTest, WindowsOf2GiBOrMoreAreRefused) {
  std::unique_ptr<ByteSource> source = MakeTraceByteSource(kObjectTrace, 1 << 30);
  TraceJsonReadOptions options;
  options.max_element_bytes = size_t{4} << 30;
  RecordingSink sink;
  TraceJsonReadResult result;
  Status status = ReadTraceJson(*source, options, sink, &result);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.ToString().find("under 2 GiB"), std::string::npos) << status.ToString();
  EXPECT_TRUE(sink.lines.empty());
}

// The tokenizer and the sink keep to different halves of the CPUs while they read
// (base::CoreHalves); the caller's thread gets its whole mask back afterwards.
TEST(TraceJsonReaderTest, OwnThreadReadGivesTheCallerItsCpusBack) {
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof(before), &before), 0);
  ReadOutcome outcome = ReadWith(kObjectTrace, 64, /*allow_truncated=*/false, /*own_thread=*/true);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.ToString();
  EXPECT_FALSE(outcome.lines.empty());
  cpu_set_t after;
  ASSERT_EQ(sched_getaffinity(0, sizeof(after), &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&before, &after));
}

TEST(TraceJsonReaderTest, ReadsObjectFormWithTopLevelFieldsAroundTheEvents) {
  ReadOutcome outcome = Read(kObjectTrace, 4 << 20);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.ToString();
  EXPECT_EQ(outcome.result.elements, 6u);
  EXPECT_TRUE(outcome.result.found_event_array);
  EXPECT_FALSE(outcome.result.truncated);
  ASSERT_EQ(outcome.lines.size(), 10u);
  EXPECT_EQ(outcome.lines[0], "top schemaVersion=1");
  EXPECT_EQ(outcome.lines[1], R"(top deviceProperties=[{"id": 0, "name": "GPU \"zero\""}, {"id": 1}])");
  EXPECT_NE(outcome.lines[2].find("ph=X name=aten::add ts=100.5 pid=10 args=5"), std::string::npos);
  EXPECT_NE(outcome.lines[2].find("Input Dims:5=[[2, 3], []]"), std::string::npos);
  EXPECT_NE(outcome.lines[2].find("obj:6={\"a\": {\"b\": 1}}"), std::string::npos);
  EXPECT_NE(outcome.lines[3].find("name=odd \\x1b \xc3\xa9 \"q\" ts=17 pid=Spans"), std::string::npos);
  EXPECT_NE(outcome.lines[4].find("name=nested } , { braces ] ts=1712195495501688.523"), std::string::npos);
  EXPECT_NE(outcome.lines[4].find("v:7=NaN"), std::string::npos);
  EXPECT_EQ(outcome.lines[6].rfind("non-object@", 0), 0u);
  EXPECT_NE(outcome.lines[7].find("ph= name= ts= pid= args=0"), std::string::npos);  // the trailing {}
  EXPECT_EQ(outcome.lines[8], R"(top displayTimeUnit="ns")");
  EXPECT_EQ(outcome.lines[9], R"(top distributedInfo={"rank": 3, "world_size": 8})");
}

TEST(TraceJsonReaderTest, EveryWindowSizeGivesTheSameEvents) {
  ReadOutcome reference = Read(kObjectTrace, 4 << 20);
  ASSERT_TRUE(reference.status.ok());
  for (size_t window : {64, 65, 70, 80, 97, 128, 200, 333, 512}) {
    ReadOutcome outcome = Read(kObjectTrace, window);
    ASSERT_TRUE(outcome.status.ok()) << "window " << window << ": " << outcome.status.ToString();
    EXPECT_EQ(outcome.lines, reference.lines) << "window " << window;
  }
}

TEST(TraceJsonReaderTest, GzipInputGivesTheSameEvents) {
  StatusOr<std::string> gz = base::Gzip(kObjectTrace);
  ASSERT_TRUE(gz.ok());
  ReadOutcome plain = Read(kObjectTrace, 128);
  ReadOutcome zipped = Read(*gz, 128);
  ASSERT_TRUE(zipped.status.ok()) << zipped.status.ToString();
  EXPECT_EQ(zipped.lines, plain.lines);
  EXPECT_EQ(zipped.result.json_bytes, std::string_view(kObjectTrace).size());
}

TEST(TraceJsonReaderTest, BareArrayAndTrailingComma) {
  ReadOutcome outcome = Read(R"([{"ph":"X","name":"a","ts":1}, {"ph":"X","name":"b","ts":2},])", 64);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.ToString();
  EXPECT_EQ(outcome.result.elements, 2u);
  EXPECT_EQ(outcome.result.trailing_commas, 1u);
  ASSERT_EQ(outcome.lines.size(), 2u);
  EXPECT_NE(outcome.lines[1].find("name=b"), std::string::npos);
}

TEST(TraceJsonReaderTest, BoundaryLookAlikesInsideStringsAreNotCuts) {
  std::string json = R"([{"name":"x},{y}]","ts":1},{"name":"b},  {","ts":2},{"name":"c"}])";
  for (size_t window : {16, 24, 32, 40, 64, 4096}) {
    ReadOutcome outcome = Read(json, window);
    ASSERT_TRUE(outcome.status.ok()) << "window " << window << ": " << outcome.status.ToString();
    ASSERT_EQ(outcome.lines.size(), 3u) << "window " << window;
    EXPECT_NE(outcome.lines[0].find("name=x},{y}]"), std::string::npos) << outcome.lines[0];
    EXPECT_NE(outcome.lines[1].find("name=b},  {"), std::string::npos) << outcome.lines[1];
  }
}

TEST(TraceJsonReaderTest, InvalidUtf8IsReplacedAndCounted) {
  std::string json = "[{\"ph\":\"X\",\"name\":\"bad\xff\xfe\",\"ts\":1}]";
  ReadOutcome outcome = Read(json, 4096);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.ToString();
  EXPECT_EQ(outcome.result.invalid_utf8_bytes, 2u);
  ASSERT_EQ(outcome.lines.size(), 1u);
  EXPECT_NE(outcome.lines[0].find("name=bad??"), std::string::npos);
}

TEST(TraceJsonReaderTest, AnElementLargerThanTheWindowGrowsIt) {
  std::string big_name(5000, 'x');
  std::string json = "[{\"name\":\"a\",\"ts\":1},{\"name\":\"" + big_name + "\",\"ts\":2},{\"name\":\"c\",\"ts\":3}]";
  ReadOutcome outcome = Read(json, 64);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.ToString();
  ASSERT_EQ(outcome.lines.size(), 3u);
  EXPECT_NE(outcome.lines[1].find(big_name), std::string::npos);
}

TEST(TraceJsonReaderTest, TruncationAtEveryByteIsAnErrorOrAPrefix) {
  ReadOutcome full = Read(kObjectTrace, 4096);
  ASSERT_TRUE(full.status.ok());
  std::vector<std::string> full_events;
  for (const std::string& line : full.lines) {
    if (line.rfind("top ", 0) != 0) full_events.push_back(line);
  }
  std::string_view text = kObjectTrace;
  size_t array_end = text.find("  ],");
  for (size_t cut = 1; cut < text.size(); ++cut) {
    std::string prefix(text.substr(0, cut));
    ReadOutcome strict = Read(prefix, 64, /*allow_truncated=*/false);
    ReadOutcome lenient = Read(prefix, 64, /*allow_truncated=*/true);
    if (cut <= array_end) {
      // Cut inside (or before) the event array: strict mode fails with a clear error.
      ASSERT_FALSE(strict.status.ok()) << "cut " << cut;
      EXPECT_TRUE(strict.status.code() == StatusCode::kDataLoss ||
                  strict.status.code() == StatusCode::kInvalidArgument)
          << strict.status.ToString();
    }
    if (!lenient.status.ok()) continue;  // cut before the event array started
    std::vector<std::string> events;
    for (const std::string& line : lenient.lines) {
      if (line.rfind("top ", 0) != 0) events.push_back(line);
    }
    ASSERT_LE(events.size(), full_events.size()) << "cut " << cut;
    for (size_t i = 0; i < events.size(); ++i) EXPECT_EQ(events[i], full_events[i]) << "cut " << cut;
  }
}

TEST(TraceJsonReaderTest, MalformedJsonInTheMiddleIsAnErrorWithAnOffset) {
  ReadOutcome outcome = Read(R"([{"ph":"X","ts":1}, {"ph" "X"}, {"ph":"X","ts":2}])", 64);
  ASSERT_FALSE(outcome.status.ok());
  EXPECT_EQ(outcome.status.code(), StatusCode::kDataLoss);
  EXPECT_NE(outcome.status.message().find("malformed JSON"), std::string::npos) << outcome.status.message();
  EXPECT_NE(outcome.status.message().find("byte 20"), std::string::npos) << outcome.status.message();
}

// Array and object values are their JSON text up to the next ',' or '}', trailing
// whitespace included (what simdjson On-Demand's raw_json() gave, which imported stat
// values depend on); strings are their escaped content; scalars their trimmed text.
TEST(TraceJsonReaderTest, ArgValuesAreTheirJsonText) {
  ReadOutcome outcome = Read("[{\"ph\": \"X\", \"args\": {\"dims\": [[1, 2], []] , \"s\": \"a\\\"b\" ,\n"
                             "\"n\": -1.5e3\t, \"o\": {\"k\": [true]}\n  }}]",
                             4 << 20);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.ToString();
  ASSERT_EQ(outcome.lines.size(), 1u);
  EXPECT_NE(outcome.lines[0].find("dims:5=[[1, 2], []]  s:1=a\\\"b n:2=-1.5e3 o:6={\"k\": [true]}\n  "),
            std::string::npos)
      << outcome.lines[0];
}

// A broken value nested in an event is malformed JSON, not a value to keep.
TEST(TraceJsonReaderTest, MalformedNestedValuesAreErrors) {
  for (std::string_view broken : {R"([{"ph":"X","args":{"a":[1 2]}}])", R"([{"ph":"X","args":{"a":[:1]}}])",
                                  R"([{"ph":"X","args":{"a":{"b" 1}}}])", R"([{"ph":"X","args":{"a":[1,]}}])",
                                  R"([{"ph":"X","args":{"a":[1}}}])", R"([{"ph":"X","args":"x" 1}])"}) {
    ReadOutcome outcome = Read(broken, 4 << 20);
    EXPECT_EQ(outcome.status.code(), StatusCode::kDataLoss) << broken;
    EXPECT_NE(outcome.status.message().find("malformed JSON"), std::string::npos) << outcome.status.message();
  }
}

TEST(TraceJsonReaderTest, NotJsonOrNoEventsIsInvalidArgument) {
  EXPECT_EQ(Read("", 64).status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Read("\x89PNG garbage", 64).status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Read(R"({"foo": 1})", 64).status.code(), StatusCode::kInvalidArgument);
}

TEST(TraceJsonReaderTest, UnclosedTopLevelObjectAfterCompleteEventsIsTolerated) {
  ReadOutcome outcome = Read(R"({"traceEvents": [{"ph":"X","ts":1}], "displayTimeUnit": "ms")", 64);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.ToString();
  EXPECT_TRUE(outcome.result.unclosed_top_level);
  EXPECT_EQ(outcome.result.elements, 1u);
}

}  // namespace
}  // namespace stepscope::importers
