#include "stepscope/pipeline.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/collect/record_for_test.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xplane_visitor.h"
#include "stepscope/session.h"

namespace stepscope {
namespace {

using ::testing::HasSubstr;
using xspace::StatType;
using xspace::XEventVisitor;
using xspace::XLineVisitor;
using xspace::XPlaneVisitor;

xspace::XSpace Record(const std::function<void()>& body, int level = 2) { return test_support::RecordForTest(body, level); }

// Every event of the host plane: name, line id, stats by name, times.
struct Seen {
  std::string name;
  int64_t line_id = 0;
  int64_t begin_ps = 0, end_ps = 0;
  std::optional<int64_t> id, parent_id, element_id, parallelism, buffer_limit;
};
std::vector<Seen> HostEvents(const xspace::XSpace& space) {
  std::vector<Seen> seen;
  const xspace::XPlane* plane = xspace::FindPlaneWithName(space, xspace::kHostThreadsPlaneName);
  if (plane == nullptr) return seen;
  XPlaneVisitor visitor(plane);
  visitor.ForEachLine([&](const XLineVisitor& line) {
    line.ForEachEvent([&](const XEventVisitor& event) {
      Seen s{std::string(event.name()), line.id(), event.timestamp_ps(), event.end_timestamp_ps()};
      event.ForEachStat([&](const xspace::XStatVisitor& stat) {
        if (stat.name() == "id") s.id = stat.IntValue();
        if (stat.name() == "parent_id") s.parent_id = stat.IntValue();
        if (stat.name() == "element_id") s.element_id = stat.IntValue();
        if (stat.name() == "parallelism") s.parallelism = stat.IntValue();
        if (stat.name() == "buffer_limit") s.buffer_limit = stat.IntValue();
      });
      seen.push_back(std::move(s));
    });
  });
  return seen;
}
const Seen* Find(const std::vector<Seen>& events, std::string_view name) {
  for (const Seen& s : events) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

struct Chain {
  Pipeline pipeline;
  int read, decode, batch, prefetch;
};
Chain BuildChain() {
  PipelineBuilder builder;
  int read = builder.Source("TFRecord");
  int decode = builder.ParallelMap(read, 4);
  int batch = builder.Batch(decode);
  int prefetch = builder.Prefetch(batch, 2);
  StatusOr<Pipeline> pipeline = std::move(builder).Build();
  EXPECT_TRUE(pipeline.ok()) << pipeline.status().ToString();
  return {std::move(*pipeline), read, decode, batch, prefetch};
}

TEST(PipelineApiTest, LongNamesIdsAndParentsFollowTfData) {
  Chain c = BuildChain();
  const Pipeline& p = c.pipeline;
  EXPECT_EQ(p.root_ref(), c.prefetch);
  EXPECT_STREQ(p.stage(c.prefetch).long_name(), "Iterator::Prefetch");
  EXPECT_STREQ(p.stage(c.batch).long_name(), "Iterator::Prefetch::Batch");
  EXPECT_STREQ(p.stage(c.decode).long_name(), "Iterator::Prefetch::Batch::ParallelMap");
  EXPECT_STREQ(p.stage(c.read).long_name(), "Iterator::Prefetch::Batch::ParallelMap::TFRecord");
  EXPECT_EQ(p.stage(c.read).dataset_name(), "TFRecord");
  EXPECT_EQ(p.stage(c.prefetch).parent_id(), PipelineStage::kNoId);
  EXPECT_EQ(p.stage(c.batch).parent_id(), p.stage(c.prefetch).id());
  EXPECT_EQ(p.stage(c.read).parent_id(), p.stage(c.decode).id());
  EXPECT_EQ(p.stage(c.decode).input_ids(), std::vector<int64_t>{p.stage(c.read).id()});
  EXPECT_STREQ(p.stage(c.prefetch).produce_name(), "PrefetchProduce");
  EXPECT_STREQ(p.stage(c.decode).consume_name(), "ParallelMapConsume");
  EXPECT_FALSE(p.stage(c.batch).is_asynchronous());

  // A second pipeline never shares ids with the first; names are shared.
  Chain other = BuildChain();
  EXPECT_NE(other.pipeline.root().id(), p.root().id());
  EXPECT_EQ(other.pipeline.root().long_name(), p.root().long_name());
}

TEST(PipelineApiTest, BuildRejectsMalformedPipelines) {
  EXPECT_THAT(PipelineBuilder().Build().status().message(), HasSubstr("at least one stage"));
  {
    PipelineBuilder b;
    int read = b.Source("TFRecord");
    b.Map(read);
    b.Batch(read);
    EXPECT_THAT(std::move(b).Build().status().message(), HasSubstr("read by two stages"));
  }
  {
    PipelineBuilder b;
    b.Source("A");
    b.Source("B");
    EXPECT_THAT(std::move(b).Build().status().message(), HasSubstr("one root"));
  }
  {
    PipelineBuilder b;
    b.Map(5);
    EXPECT_THAT(std::move(b).Build().status().message(), HasSubstr("not a stage declared before it"));
  }
  {
    PipelineBuilder b;
    b.Source("Bad::Name");
    EXPECT_THAT(std::move(b).Build().status().message(), HasSubstr("contains one of"));
  }
  {
    PipelineBuilder b;
    b.Source("");
    EXPECT_THAT(std::move(b).Build().status().message(), HasSubstr("is empty"));
  }
}

TEST(PipelineApiTest, RecordsIteratorCallsAndProduceConsumePairsAsTensorFlowDoes) {
  Chain c = BuildChain();
  const Pipeline& p = c.pipeline;
  xspace::XSpace space = Record([&] {
    std::thread producer([&] {
      ScopedProduce produce(p.stage(c.prefetch), 42);
      ScopedStageCall batch(p.stage(c.batch));
      ScopedStageCall decode(p.stage(c.decode));
    });
    producer.join();
    ScopedStageCall root(p.stage(c.prefetch));
    ScopedConsume consume(p.stage(c.prefetch), 42);
    ScopedConsume ignored(p.stage(c.batch), 1);  // synchronous stage: records nothing
  });
  std::vector<Seen> events = HostEvents(space);
  const Seen* root = Find(events, "Iterator::Prefetch");
  const Seen* consume = Find(events, "PrefetchConsume");
  const Seen* produce = Find(events, "PrefetchProduce");
  const Seen* batch = Find(events, "Iterator::Prefetch::Batch");
  const Seen* decode = Find(events, "Iterator::Prefetch::Batch::ParallelMap");
  ASSERT_TRUE(root && consume && produce && batch && decode);
  EXPECT_EQ(root->id, p.root().id());
  EXPECT_FALSE(root->parent_id.has_value()) << "the root has no parent";
  EXPECT_EQ(root->buffer_limit, 2);
  EXPECT_EQ(consume->element_id, 42);
  EXPECT_EQ(produce->element_id, 42);
  // The link TensorFlow's profiler makes: the produce's iterator names its consumer.
  EXPECT_EQ(batch->parent_id, root->id);
  EXPECT_EQ(decode->parallelism, 4);
  EXPECT_EQ(decode->parent_id, batch->id);
  EXPECT_NE(produce->line_id, consume->line_id);
  EXPECT_LE(root->begin_ps, consume->begin_ps);
  EXPECT_GE(root->end_ps, consume->end_ps);
  EXPECT_LE(produce->begin_ps, batch->begin_ps);
  EXPECT_EQ(events.size(), 5u) << "a synchronous stage records no consume";
}

TEST(PipelineApiTest, RecordsNothingBelowLevelTwoOrWhenOff) {
  Chain c = BuildChain();
  // Off: no session. Must not crash or record.
  { ScopedStageCall call(c.pipeline.root()); ScopedProduce produce(c.pipeline.root(), 1); }
  xspace::XSpace space = Record(
      [&] {
        ScopedStageCall call(c.pipeline.root());
        ScopedConsume consume(c.pipeline.root(), 1);
      },
      /*level=*/1);
  EXPECT_TRUE(HostEvents(space).empty());
}

TEST(PipelineApiTest, NamesOutliveThePipeline) {
  xspace::XSpace space = Record([] {
    PipelineBuilder b;
    b.Shuffle(b.Cache(b.Map(b.Source("Range"))));
    StatusOr<Pipeline> pipeline = std::move(b).Build();
    ASSERT_TRUE(pipeline.ok());
    ScopedStageCall call(pipeline->root());
  });  // the pipeline is gone before the session collects
  std::vector<Seen> events = HostEvents(space);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].name, "Iterator::Shuffle");
}

}  // namespace
}  // namespace stepscope
