#include "src/analysis/tools/tf_data_bottleneck.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace stepscope::analysis {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kUs = 1'000'000;  // ps

// Builds PipelineEvents by hand: Open/Close nest events on the current thread.
class EventsBuilder {
 public:
  void Thread(const std::string& name) {
    events_.threads.push_back(name);
    open_.clear();
  }
  int Iterator(const std::string& name, int64_t begin_us, int64_t end_us, int64_t id, std::optional<int64_t> parent) {
    PipelineEvent e = Base(name, PipelineEventKind::kIterator, begin_us, end_us);
    PipelineIteratorStats stats;
    stats.id = id;
    e.flags |= PipelineEvent::kHasId;
    if (parent) {
      stats.parent_id = *parent;
      e.flags |= PipelineEvent::kHasParentId;
    }
    // One entry per event: the table need not be shared to be read right.
    e.stats = static_cast<uint32_t>(events_.iterator_stats.size());
    events_.iterator_stats.push_back(stats);
    return Push(e);
  }
  int Element(const std::string& name, PipelineEventKind kind, int64_t begin_us, int64_t end_us, int64_t element) {
    PipelineEvent e = Base(name, kind, begin_us, end_us);
    e.element_id = element;
    e.flags |= PipelineEvent::kHasElementId;
    return Push(e);
  }
  PipelineEvents& events() { return events_; }

 private:
  PipelineEvent Base(const std::string& name, PipelineEventKind kind, int64_t begin_us, int64_t end_us) {
    PipelineEvent e;
    e.kind = kind;
    e.begin_ps = begin_us * kUs;
    e.end_ps = end_us * kUs;
    e.thread = static_cast<uint32_t>(events_.threads.size() - 1);
    uint32_t index = 0;
    while (index < events_.names.size() && events_.names[index] != name) ++index;
    if (index == events_.names.size()) events_.names.push_back(name);
    e.name = index;
    return e;
  }
  // Events must be pushed in time order per thread; the enclosing event is the innermost
  // open one that contains this one.
  int Push(PipelineEvent e) {
    while (!open_.empty() && events_.events[open_.back()].end_ps <= e.begin_ps) open_.pop_back();
    e.enclosing = open_.empty() ? -1 : open_.back();
    events_.events.push_back(e);
    open_.push_back(static_cast<int32_t>(events_.events.size() - 1));
    return open_.back();
  }
  PipelineEvents events_;
  std::vector<int32_t> open_;
};

const PipelineStageStats& StageNamed(const TfDataBottleneckResult& r, const std::string& name) {
  for (const PipelineStageStats& s : r.stages) {
    if (s.long_name == name) return s;
  }
  static const PipelineStageStats kNone;
  ADD_FAILURE() << "no stage " << name;
  return kNone;
}

// Batch (root) -> Map -> TFRecord, 10 calls; each Map call spends 80 µs of its own.
PipelineEvents SlowMapPipeline() {
  EventsBuilder b;
  b.Thread("train");
  for (int call = 0; call < 10; ++call) {
    const int64_t t = call * 1000;
    b.Iterator("Iterator::Batch", t, t + 400, 1, std::nullopt);
    for (int row = 0; row < 4; ++row) {
      const int64_t m = t + row * 100;
      b.Iterator("Iterator::Batch::Map", m, m + 100, 2, 1);
      b.Iterator("Iterator::Batch::Map::TFRecord", m, m + 20, 3, 2);
    }
  }
  return std::move(b.events());
}

TEST(TfDataBottleneckTest, SynchronousPipelineNamesTheStageWithTheMostBlockingSelfTime) {
  TfDataBottleneckResult r = AnalyzePipelineEvents(SlowMapPipeline(), /*total_step_time_ps=*/10 * 1000 * kUs);
  ASSERT_EQ(r.pipelines.size(), 1u);
  const PipelineStats& p = r.pipelines[0];
  EXPECT_EQ(p.name, "Host:0");
  EXPECT_EQ(p.calls, 10);
  EXPECT_EQ(p.max_latency_ps, 400 * kUs);
  EXPECT_EQ(p.slow_calls, 10);
  ASSERT_TRUE(p.step_time_percent.has_value());
  EXPECT_NEAR(*p.step_time_percent, 40.0, 1e-9);
  EXPECT_TRUE(r.iterator_bound);
  ASSERT_TRUE(r.bottleneck_stage.has_value());
  EXPECT_EQ(r.stages[*r.bottleneck_stage].long_name, "Iterator::Batch::Map");
  EXPECT_NEAR(p.bottleneck_share_percent, 80.0, 1e-9) << "Map self 80 of 100 per row; the read 20";
  const PipelineStageStats& map = StageNamed(r, "Iterator::Batch::Map");
  EXPECT_EQ(map.calls, 40);
  EXPECT_EQ(map.self_ps, 40 * 80 * kUs);
  EXPECT_EQ(map.kind, BottleneckKind::kSequentialMap);
  EXPECT_THAT(p.suggestion, AllOf(HasSubstr("parallelise this map"), HasSubstr("80%"), HasSubstr("add one")));
  EXPECT_THAT(r.statement, HasSubstr("the bottleneck is stage Iterator::Batch::Map"));
  // Critical path: root, then the first Map (longest wait; ties keep the first), then its read.
  ASSERT_EQ(r.critical_path.size(), 3u);
  EXPECT_EQ(r.stages[r.critical_path[1].stage].long_name, "Iterator::Batch::Map");
  EXPECT_EQ(r.critical_path[1].wait_ps, 100 * kUs);
  EXPECT_TRUE(r.diagnostics.empty()) << r.diagnostics[0];
  // Tables render.
  EXPECT_EQ(output::RecordTables(TfDataBottleneckReportOf(r)).size(), 3u);
}

// A host summary keeps the analysis without the step time and the reduce applies the run's
// (ApplyStepTime): that must give what the analysis with that step time gives, whatever
// step time the result held before. 0 (no steps), 4 % of the steps (not bound), 40 %.
TEST(TfDataBottleneckTest, AStepTimeAppliedLaterGivesTheAnalysisWithThatStepTime) {
  const TfDataBottleneckResult events_only = AnalyzePipelineEvents(SlowMapPipeline());
  ASSERT_EQ(events_only.pipelines.size(), 1u);
  EXPECT_FALSE(events_only.pipelines[0].step_time_percent.has_value());
  std::vector<bool> verdicts;
  for (int64_t total : {int64_t{0}, 100 * 1000 * kUs, 10 * 1000 * kUs}) {
    SCOPED_TRACE(total);
    const TfDataBottleneckResult direct = AnalyzePipelineEvents(SlowMapPipeline(), total);
    for (int64_t before : {int64_t{0}, 100 * 1000 * kUs, 10 * 1000 * kUs}) {
      TfDataBottleneckResult later = AnalyzePipelineEvents(SlowMapPipeline(), before);
      ApplyStepTime(total, &later);
      EXPECT_EQ(later.statement, direct.statement);
      EXPECT_EQ(later.iterator_bound, direct.iterator_bound);
      EXPECT_EQ(later.bottleneck_stage, direct.bottleneck_stage);
      EXPECT_EQ(later.pipelines[0].step_time_percent, direct.pipelines[0].step_time_percent);
      EXPECT_EQ(later.pipelines[0].iterator_bound, direct.pipelines[0].iterator_bound);
      EXPECT_EQ(later.pipelines[0].suggestion, direct.pipelines[0].suggestion);
    }
    verdicts.push_back(direct.iterator_bound);
  }
  EXPECT_EQ(verdicts, (std::vector<bool>{true, false, true})) << "400 µs calls; 4 ms of 100 ms; 4 ms of 10 ms";
}

// The report names the stages the analysis indexes; its JSON writes the tables' rows (ids
// as decimal strings, a stage no pipeline reaches or without a parent as null).
TEST(TfDataBottleneckTest, ReportNamesStagesAndWritesTheTablesInItsJson) {
  TfDataBottleneckReport report =
      TfDataBottleneckReportOf(AnalyzePipelineEvents(SlowMapPipeline(), /*total_step_time_ps=*/10 * 1000 * kUs));
  ASSERT_TRUE(report.bottleneck.has_value());
  EXPECT_EQ(report.bottleneck->stage, "Iterator::Batch::Map");
  EXPECT_EQ(report.bottleneck->kind, "sequential_map");
  ASSERT_EQ(report.pipelines.size(), 1u);
  EXPECT_EQ(report.pipelines[0].root, "Iterator::Batch");
  EXPECT_EQ(report.pipelines[0].bottleneck, "Iterator::Batch::Map");
  ASSERT_EQ(report.stages.size(), 3u);
  std::string json;
  output::JsonWriter w(&json, output::JsonWriter::Style::kCompact);
  output::WriteRecordJson(report, &w);
  EXPECT_THAT(json, HasSubstr("\"bottleneck\":{\"pipeline\":\"Host:0\",\"stage\":\"Iterator::Batch::Map\","
                              "\"dataset\":\"Map\",\"kind\":\"sequential_map\",\"share_percent\":80"));
  EXPECT_THAT(json, HasSubstr("\"stage\":\"Iterator::Batch\",\"dataset\":\"Batch\",\"kind\":\"sequential_transform\","
                              "\"id\":\"1\",\"parent_id\":null,\"setting\":null"));
  const std::vector<output::Table> tables = output::RecordTables(report);
  ASSERT_EQ(tables.size(), 3u);
  EXPECT_EQ(tables[1].name, "stages");
  std::vector<std::string> columns;
  for (const output::Column& c : tables[1].columns) columns.push_back(c.id);
  EXPECT_EQ(columns, (std::vector<std::string>{"pipeline", "stage", "dataset", "kind", "id", "parent_id", "setting",
                                               "calls", "avg_latency_us", "self_ms", "blocking_self_ms",
                                               "blocking_calls", "slow_blocking_self_ms", "bottleneck"}));
}

// Prefetch (root, consumer thread) <- PrefetchConsume/Produce -> Batch on a producer thread.
PipelineEvents PrefetchPipeline(bool producer_overlaps) {
  EventsBuilder b;
  b.Thread("train");
  for (int call = 0; call < 5; ++call) {
    const int64_t t = call * 1000 + 500;
    b.Iterator("Iterator::Prefetch", t, t + 300, 10, std::nullopt);
    b.Element("PrefetchConsume", PipelineEventKind::kConsume, t + 1, t + 299, call);
  }
  b.Thread("input_prefetch");
  for (int call = 0; call < 5; ++call) {
    // Built while the consumer waits (overlap), or well before it asks.
    const int64_t t = producer_overlaps ? call * 1000 + 400 : call * 1000;
    b.Element("PrefetchProduce", PipelineEventKind::kProduce, t, t + 350, call);
    b.Iterator("Iterator::Prefetch::Batch", t, t + 350, 11, 10);
    b.Iterator("Iterator::Prefetch::Batch::Range", t, t + 10, 12, 11);
  }
  return std::move(b.events());
}

TEST(TfDataBottleneckTest, AsynchronousStagesLinkThroughElementIds) {
  TfDataBottleneckResult r = AnalyzePipelineEvents(PrefetchPipeline(true), 5 * 1000 * kUs);
  EXPECT_EQ(r.counts.linked_producers, 5);
  ASSERT_EQ(r.pipelines.size(), 1u);
  ASSERT_TRUE(r.bottleneck_stage.has_value());
  EXPECT_EQ(r.stages[*r.bottleneck_stage].long_name, "Iterator::Prefetch::Batch");
  const PipelineStageStats& batch = StageNamed(r, "Iterator::Prefetch::Batch");
  EXPECT_EQ(batch.calls, 5);
  EXPECT_EQ(batch.blocking_calls, 5);
  EXPECT_EQ(StageNamed(r, "Iterator::Prefetch").self_ps, 5 * 50 * kUs) << "300 waited, 250 of it on the batch";
  EXPECT_EQ(r.critical_path.size(), 3u);
  EXPECT_EQ(r.critical_path[1].thread, "input_prefetch");
}

TEST(TfDataBottleneckTest, ProducersThatFinishedEarlyDoNotBlock) {
  TfDataBottleneckResult r = AnalyzePipelineEvents(PrefetchPipeline(false), 5 * 1000 * kUs);
  const PipelineStageStats& batch = StageNamed(r, "Iterator::Prefetch::Batch");
  EXPECT_EQ(batch.calls, 5);
  EXPECT_EQ(batch.blocking_calls, 0);
  ASSERT_TRUE(r.pipelines[0].bottleneck_stage.has_value());
  EXPECT_EQ(r.stages[*r.pipelines[0].bottleneck_stage].long_name, "Iterator::Prefetch");
  EXPECT_EQ(r.stages[*r.pipelines[0].bottleneck_stage].kind, BottleneckKind::kPrefetch);
}

TEST(TfDataBottleneckTest, WithoutStepsTheVerdictUsesTheSlowCallRule) {
  TfDataBottleneckResult r = AnalyzePipelineEvents(SlowMapPipeline(), 0);
  EXPECT_FALSE(r.pipelines[0].step_time_percent.has_value());
  EXPECT_TRUE(r.iterator_bound) << "400 µs > 50 µs";
}

TEST(TfDataBottleneckTest, NoEventsGiveAnEmptyResult) {
  TfDataBottleneckResult r = AnalyzePipelineEvents({}, 0);
  EXPECT_TRUE(r.pipelines.empty());
  EXPECT_FALSE(r.iterator_bound);
  EXPECT_THAT(r.statement, HasSubstr("No input pipeline events"));
}

TEST(TfDataBottleneckTest, HostileEventsAreCountedNotFatal) {
  EventsBuilder b;
  b.Thread("a");
  const int64_t huge = std::numeric_limits<int64_t>::max();
  // Parent ids in a cycle: 20 -> 21 -> 22 -> 20, plus a parent that does not exist.
  b.Iterator("Iterator::Root", 0, 100, 19, std::nullopt);
  b.Iterator("Iterator::Root::A", 0, 10, 20, 22);
  b.Iterator("Iterator::Root::A::B", 10, 20, 21, 20);
  b.Iterator("Iterator::Root::A::B::C", 20, 30, 22, 21);
  b.Iterator("Iterator::Root::D", 30, 40, huge, std::numeric_limits<int64_t>::min());
  // A consume inside the root whose producer is the root's own child (a link cycle).
  b.Element("PrefetchConsume", PipelineEventKind::kConsume, 40, 90, 7);
  b.Element("PrefetchProduce", PipelineEventKind::kProduce, 41, 89, 7);
  b.Iterator("Iterator::Root::P", 42, 88, 30, 19);
  // Produce without consume, consume without produce, and one produce with no iterator.
  b.Thread("b");
  b.Element("PrefetchProduce", PipelineEventKind::kProduce, 0, 10, 99);
  b.Iterator("Iterator::X::Y", 0, 10, 40, 41);
  b.Element("PrefetchProduce", PipelineEventKind::kProduce, 20, 30, 98);
  b.Element("PrefetchConsume", PipelineEventKind::kConsume, 40, 50, 97);
  // An element consumed twice.
  b.Thread("c");
  b.Iterator("Iterator::Root", 200, 300, 19, std::nullopt);
  b.Element("PrefetchConsume", PipelineEventKind::kConsume, 200, 300, 7);
  PipelineEvents events = std::move(b.events());
  // A malformed enclosing index (pointing forward) must not be followed.
  events.events[1].enclosing = 5000;

  TfDataBottleneckResult r = AnalyzePipelineEvents(events, 1000 * kUs);
  EXPECT_EQ(r.counts.parent_cycles, 3);
  EXPECT_GE(r.counts.missing_parents, 2) << "41 and INT64_MIN name no stage";
  EXPECT_EQ(r.counts.produce_unconsumed, 1);
  EXPECT_EQ(r.counts.produce_without_element, 1);
  EXPECT_EQ(r.counts.consume_outside_iterator, 1);
  EXPECT_EQ(r.counts.duplicate_consumes, 1);
  EXPECT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.pipelines.size(), 1u);
  for (const PipelineStageStats& stage : r.stages) {
    if (stage.id == 20 || stage.id == 21 || stage.id == 22) {
      EXPECT_FALSE(stage.parent_known) << stage.long_name;
    }
  }
  EXPECT_FALSE(output::RecordTables(TfDataBottleneckReportOf(r)).empty());
}

// Random events with random nesting, ids from a tiny range (so links and cycles abound):
// must finish, and every call is walked at most once.
TEST(TfDataBottleneckTest, RandomHostileEventsFinish) {
  std::mt19937_64 rng(7);
  PipelineEvents events;
  events.threads = {"t0", "t1", "t2"};
  events.names = {"Iterator::A", "Iterator::A::B", "Iterator::A::B::C", "PrefetchProduce", "PrefetchConsume"};
  for (int i = 0; i < 64; ++i) {
    events.iterator_stats.push_back({static_cast<int64_t>(rng() % 8), static_cast<int64_t>(rng() % 8), 0});
  }
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    PipelineEvent e;
    e.name = static_cast<uint32_t>(rng() % 5);
    e.kind = e.name < 3 ? PipelineEventKind::kIterator
                        : (e.name == 3 ? PipelineEventKind::kProduce : PipelineEventKind::kConsume);
    e.begin_ps = static_cast<int64_t>(rng() % 1000000);
    e.end_ps = e.begin_ps + static_cast<int64_t>(rng() % 1000);
    // Some indices past the table's end: read as no stats.
    e.stats = static_cast<uint32_t>(rng() % 80);
    e.element_id = static_cast<int64_t>(rng() % 4);
    e.flags = static_cast<uint8_t>(rng() % 8);
    e.enclosing = i == 0 ? -1 : static_cast<int32_t>(rng() % i) - 1;
    e.thread = static_cast<uint32_t>(rng() % 3);
    events.events.push_back(e);
  }
  TfDataBottleneckResult r = AnalyzePipelineEvents(events, 1);
  int64_t walked = 0;
  for (const PipelineStageStats& stage : r.stages) walked += stage.calls;
  EXPECT_LE(walked, r.counts.iterator_events);
  EXPECT_EQ(walked + r.counts.unreached_calls + r.counts.iterators_without_id, r.counts.iterator_events);
}

TEST(TfDataBottleneckTest, HugeDurationsSaturateInsteadOfOverflowing) {
  PipelineEvents events;
  events.threads = {"t"};
  events.names = {"Iterator::Range"};
  events.iterator_stats.push_back({.id = 1});
  const int64_t huge = int64_t{1} << 61;  // the model's clamp
  for (int i = 0; i < 8; ++i) {
    PipelineEvent e;
    e.begin_ps = -huge;
    e.end_ps = huge;
    e.stats = 1;
    e.flags = PipelineEvent::kHasId;
    events.events.push_back(e);
  }
  TfDataBottleneckResult r = AnalyzePipelineEvents(events, 1);
  ASSERT_EQ(r.pipelines.size(), 1u);
  EXPECT_EQ(r.pipelines[0].total_latency_ps, std::numeric_limits<int64_t>::max());
  EXPECT_EQ(r.stages[0].self_ps, std::numeric_limits<int64_t>::max());
}

TEST(TfDataBottleneckTest, KindsFollowDatasetNames) {
  EXPECT_EQ(BottleneckKindOf("TFRecord"), BottleneckKind::kFileSource);
  EXPECT_EQ(BottleneckKindOf("FixedLengthRecord"), BottleneckKind::kFileSource);
  EXPECT_EQ(BottleneckKindOf("Generator"), BottleneckKind::kMemorySource);
  EXPECT_EQ(BottleneckKindOf("Map"), BottleneckKind::kSequentialMap);
  EXPECT_EQ(BottleneckKindOf("ParallelMapV2"), BottleneckKind::kParallelMap);
  EXPECT_EQ(BottleneckKindOf("Batch"), BottleneckKind::kSequentialTransform);
  EXPECT_EQ(BottleneckKindOf("Prefetch"), BottleneckKind::kPrefetch);
  EXPECT_EQ(BottleneckKindOf("Cache"), BottleneckKind::kCache);
  EXPECT_EQ(BottleneckKindOf("Whatever"), BottleneckKind::kOther);
}

}  // namespace
}  // namespace stepscope::analysis
