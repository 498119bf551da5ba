// RecordAllocation / RecordDeallocation: the events a session writes carry TensorFlow's
// names and stats, nothing is recorded below host_tracer_level 2, and a full buffer drops
// the event (counted), never a part of it.
#include "stepscope/memory.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/collect/record_for_test.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xplane_visitor.h"
#include "stepscope/stepscope.h"

namespace stepscope {
namespace {

struct MemoryEventSeen {
  std::string name;
  int64_t start_ps = 0;
  int64_t duration_ps = 0;
  std::map<std::string, std::string> stats;  // name -> value as text
};

std::vector<MemoryEventSeen> Record(int host_tracer_level, const std::function<void()>& body) {
  const xspace::XSpace space = test_support::RecordForTest(body, host_tracer_level);
  std::vector<MemoryEventSeen> out;
  const xspace::XPlane* raw = xspace::FindPlaneWithName(space, xspace::kHostThreadsPlaneName);
  if (raw == nullptr) return out;
  xspace::XPlaneVisitor plane(raw);
  plane.ForEachLine([&](const xspace::XLineVisitor& line) {
    line.ForEachEvent([&](const xspace::XEventVisitor& event) {
      if (event.name() != "MemoryAllocation" && event.name() != "MemoryDeallocation") return;
      MemoryEventSeen seen{std::string(event.name()), event.timestamp_ps(), event.duration_ps(), {}};
      event.ForEachStat([&](const xspace::XStatVisitor& stat) { seen.stats[std::string(stat.name())] = stat.ToString(); });
      out.push_back(std::move(seen));
    });
  });
  return out;
}

TEST(MemoryRecordingTest, EventsCarryTensorFlowsStatNames) {
  std::vector<MemoryEventSeen> events = Record(2, [] {
    AllocatorState after_alloc{4096, 8192, 0, 1 << 20, 0.25};
    RecordAllocation({.allocator_name = "arena",
                      .address = 0xdeadbeef000,
                      .requested_bytes = 4000,
                      .allocation_bytes = 4096,
                      .op_name = "dense/MatMul",
                      .region_type = "output",
                      .data_type = 1,
                      .shape = "[32,32]"},
                     after_alloc);
    RecordDeallocation("arena", 0xdeadbeef000, 4096, {0, 8192, 0, (1 << 20) + 4096, 0.0});
  });
  ASSERT_EQ(events.size(), 2u);
  const MemoryEventSeen& a = events[0];
  EXPECT_EQ(a.name, "MemoryAllocation");
  EXPECT_EQ(a.duration_ps, 0);
  EXPECT_EQ(a.stats.at("allocator_name"), "arena");
  EXPECT_EQ(a.stats.at("tf_op"), "dense/MatMul");
  EXPECT_EQ(a.stats.at("region_type"), "output");
  EXPECT_EQ(a.stats.at("shape"), "[32,32]");
  EXPECT_EQ(a.stats.at("bytes_allocated"), "4096");
  EXPECT_EQ(a.stats.at("peak_bytes_in_use"), "8192");
  EXPECT_EQ(a.stats.at("bytes_reserved"), "0");
  EXPECT_EQ(a.stats.at("bytes_available"), std::to_string(1 << 20));
  EXPECT_EQ(a.stats.at("requested_bytes"), "4000");
  EXPECT_EQ(a.stats.at("allocation_bytes"), "4096");
  EXPECT_EQ(a.stats.at("addr"), std::to_string(0xdeadbeef000));
  EXPECT_EQ(a.stats.at("data_type"), "1");
  EXPECT_EQ(a.stats.at("fragmentation"), "0.25");
  EXPECT_EQ(a.stats.count("group_id"), 0u);  // the step comes from the Step around the call
  const MemoryEventSeen& d = events[1];
  EXPECT_EQ(d.name, "MemoryDeallocation");
  EXPECT_EQ(d.stats.at("allocator_name"), "arena");
  EXPECT_EQ(d.stats.at("allocation_bytes"), "4096");
  EXPECT_EQ(d.stats.at("bytes_allocated"), "0");
  EXPECT_EQ(d.stats.count("tf_op"), 0u);
  EXPECT_LE(a.start_ps, d.start_ps);
}

TEST(MemoryRecordingTest, NothingBelowLevelTwo) {
  EXPECT_TRUE(Record(1, [] { RecordAllocation({.allocator_name = "arena", .address = 1}, {}); }).empty());
}

TEST(MemoryRecordingTest, ManyEventsFromOneOpInternTheirNameOnce) {
  std::vector<MemoryEventSeen> events = Record(2, [] {
    for (int i = 0; i < 1000; ++i) {
      RecordAllocation({.allocator_name = "arena", .address = static_cast<uint64_t>(i), .allocation_bytes = 8,
                        .op_name = "loop"},
                       {.bytes_in_use = 8 * (i + 1)});
    }
  });
  ASSERT_EQ(events.size(), 1000u);
  EXPECT_EQ(events.back().stats.at("bytes_allocated"), "8000");
  EXPECT_EQ(events.back().stats.at("addr"), "999");
}

}  // namespace
}  // namespace stepscope
