// tf_data_bottleneck_analysis on TensorFlow's 8-GPU multi-worker file, held to figures this
// test computes from the raw XSpace on its own: the iterator events and their id /
// parent_id / element_id stats read with the protobuf decoder, nested by time per line,
// produce/consume pairs joined by (parent iterator id, element id), self times and the
// blocking stage of each root call computed by a plain recursive walk (no model).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/model/combine_hosts.h"
#include "src/analysis/tools/tf_data_bottleneck.h"
#include "src/xspace/schema.h"
#include "src/xspace/xspace_io.h"

namespace stepscope {
namespace {

struct RawEvent {
  std::string name;
  int64_t line = 0;
  int64_t begin_ps = 0, end_ps = 0;
  std::map<std::string, int64_t> stats;
  std::vector<int> children;  // raw indices: nesting on the line, plus produce links
};

bool Encloses(const RawEvent& outer, const RawEvent& inner) {
  return outer.line == inner.line && outer.begin_ps <= inner.begin_ps && inner.end_ps <= outer.end_ps &&
         (outer.begin_ps != inner.begin_ps || outer.end_ps != inner.end_ps);
}

// The innermost raw event enclosing `i` (quadratic: the file has a handful).
int Parent(const std::vector<RawEvent>& events, int i) {
  int best = -1;
  for (int j = 0; j < static_cast<int>(events.size()); ++j) {
    if (j == i || !Encloses(events[j], events[i])) continue;
    if (best == -1 || Encloses(events[best], events[j])) best = j;
  }
  return best;
}

bool IsIterator(const RawEvent& e) { return e.name.rfind("Iterator::", 0) == 0; }

struct StageTotals {
  int64_t self_ps = 0;
  bool blocking = false;
};

void Walk(const std::vector<RawEvent>& events, int e, bool blocking, std::map<int64_t, StageTotals>* stages) {
  const RawEvent& call = events[e];
  int64_t self = call.end_ps - call.begin_ps;
  for (int c : call.children) {
    const RawEvent& child = events[c];
    const int64_t overlap = std::max<int64_t>(0, std::min(child.end_ps, call.end_ps) -
                                                     std::max(child.begin_ps, call.begin_ps));
    self -= overlap;
    Walk(events, c, blocking && overlap > 0, stages);
  }
  StageTotals& totals = (*stages)[call.stats.at("id")];
  totals.self_ps += std::max<int64_t>(0, self);
  totals.blocking = totals.blocking || blocking;
}

TEST(TfDataBottleneckRealTest, TensorFlowEightGpuFileMatchesItsRawIteratorEvents) {
  const std::string path = std::string(STEPSCOPE_SHARED_DIR) +
                           "/testdata/xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb";
  StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromFile(path);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const analysis::TfDataBottleneckResult r = analysis::ComputeTfDataBottleneck(*model);

  StatusOr<xspace::XSpace> space = xspace::ReadXSpaceFile(path);
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  std::vector<RawEvent> events;
  for (const xspace::XPlane& plane : space->planes()) {
    if (plane.name() != xspace::kHostThreadsPlaneName) continue;
    for (const xspace::XLine& line : plane.lines()) {
      for (const xspace::XEvent& e : line.events()) {
        const std::string& name = plane.event_metadata().at(e.metadata_id()).name();
        const bool produce = name.size() > 7 && name.substr(name.size() - 7) == "Produce";
        const bool consume = name.size() > 7 && name.substr(name.size() - 7) == "Consume";
        if (name.rfind("Iterator::", 0) != 0 && !produce && !consume) continue;
        RawEvent raw{name, line.id(), line.timestamp_ns() * 1000 + e.offset_ps(), 0, {}, {}};
        raw.end_ps = raw.begin_ps + e.duration_ps();
        for (const xspace::XStat& s : e.stats()) {
          const std::string& stat = plane.stat_metadata().at(s.metadata_id()).name();
          if (stat == "id" || stat == "parent_id" || stat == "element_id") {
            raw.stats[stat] = s.has_int64_value() ? s.int64_value() : static_cast<int64_t>(s.uint64_value());
          }
        }
        events.push_back(std::move(raw));
      }
    }
  }
  ASSERT_FALSE(events.empty());
  // Nesting, then produce -> consume links.
  std::vector<int> parent(events.size());
  for (int i = 0; i < static_cast<int>(events.size()); ++i) parent[i] = Parent(events, i);
  for (int i = 0; i < static_cast<int>(events.size()); ++i) {
    if (IsIterator(events[i]) && parent[i] >= 0 && IsIterator(events[parent[i]])) events[parent[i]].children.push_back(i);
  }
  int links = 0;
  for (int p = 0; p < static_cast<int>(events.size()); ++p) {
    if (events[p].name.find("Produce") == std::string::npos) continue;
    int child = -1;
    for (int i = 0; i < static_cast<int>(events.size()); ++i) {
      if (parent[i] == p && IsIterator(events[i]) && (child == -1 || events[i].begin_ps < events[child].begin_ps)) child = i;
    }
    if (child < 0) continue;
    for (int c = 0; c < static_cast<int>(events.size()); ++c) {
      if (events[c].name.find("Consume") == std::string::npos || parent[c] < 0) continue;
      const RawEvent& consumer = events[parent[c]];
      if (IsIterator(consumer) && consumer.stats.at("id") == events[child].stats.at("parent_id") &&
          events[c].stats.at("element_id") == events[p].stats.at("element_id")) {
        events[parent[c]].children.push_back(child);
        ++links;
      }
    }
  }
  EXPECT_EQ(r.counts.linked_producers, links);

  // Root calls: two-part names, per root id; the bottleneck: the blocking stage with the
  // most self time over the walked calls (each pipeline has few calls: all are "slowest").
  struct RawPipeline {
    int64_t calls = 0, max_ps = 0, total_ps = 0;
    std::map<int64_t, StageTotals> stages;
  };
  std::map<int64_t, RawPipeline> pipelines;
  std::map<int64_t, std::string> stage_names;
  for (const RawEvent& e : events) {
    if (IsIterator(e)) stage_names[e.stats.at("id")] = e.name;
  }
  for (int i = 0; i < static_cast<int>(events.size()); ++i) {
    const RawEvent& e = events[i];
    if (!IsIterator(e) || std::count(e.name.begin(), e.name.end(), ':') != 2) continue;
    RawPipeline& p = pipelines[e.stats.at("id")];
    ++p.calls;
    p.total_ps += e.end_ps - e.begin_ps;
    p.max_ps = std::max(p.max_ps, e.end_ps - e.begin_ps);
    Walk(events, i, true, &p.stages);
  }
  ASSERT_EQ(r.pipelines.size(), pipelines.size());
  int64_t total_step_ps = 0;
  for (const analysis::StepInfo& step : model->steps) total_step_ps += step.duration_ps;
  for (const analysis::PipelineStats& p : r.pipelines) {
    const int64_t root_id = r.stages[p.root_stage].id;
    ASSERT_TRUE(pipelines.count(root_id)) << p.name;
    const RawPipeline& raw = pipelines[root_id];
    EXPECT_EQ(p.calls, raw.calls) << p.name;
    EXPECT_EQ(p.max_latency_ps, raw.max_ps) << p.name;
    EXPECT_EQ(p.total_latency_ps, raw.total_ps) << p.name;
    ASSERT_TRUE(p.step_time_percent.has_value());
    EXPECT_NEAR(*p.step_time_percent, 100.0 * raw.total_ps / total_step_ps, 1e-9);
    int64_t best_id = 0, best_self = -1;
    for (const auto& [id, totals] : raw.stages) {
      if (totals.blocking && totals.self_ps > best_self) {
        best_self = totals.self_ps;
        best_id = id;
      }
    }
    ASSERT_TRUE(p.bottleneck_stage.has_value()) << p.name;
    EXPECT_EQ(r.stages[*p.bottleneck_stage].id, best_id) << p.name << " raw bottleneck " << stage_names[best_id];
    EXPECT_EQ(r.stages[*p.bottleneck_stage].self_ps, best_self) << p.name;
  }
  // What the file says, as a reader would see it: the per-device pipelines wait on the
  // host pipeline feeding them (the Generator under each device's Prefetch).
  EXPECT_TRUE(r.iterator_bound);
  // The iterator time and the steps' input wait are two measures, both stated.
  ASSERT_TRUE(r.step_input_wait_percent.has_value());
  EXPECT_LT(*r.step_input_wait_percent, *r.pipelines[0].step_time_percent);
  EXPECT_NE(r.statement.find("The steps wait for input"), std::string::npos) << r.statement;
  ASSERT_TRUE(r.bottleneck_stage.has_value());
  EXPECT_EQ(r.stages[*r.bottleneck_stage].long_name, "Iterator::Prefetch::Generator");
  EXPECT_TRUE(r.diagnostics.empty());
}

// Two hosts combined (the same file twice, as two workers): each host is analysed apart,
// its pipelines named after it; the trees are gone from the combined model, so the events
// must have been kept when the hosts were combined.
TEST(TfDataBottleneckRealTest, CombinedHostsAreAnalysedEachOnItsOwn) {
  const std::string path = std::string(STEPSCOPE_SHARED_DIR) +
                           "/testdata/xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb";
  std::vector<analysis::ProfileModel> hosts;
  for (int worker = 0; worker < 2; ++worker) {
    StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromFile(path);
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    hosts.push_back(std::move(*model));
  }
  const analysis::TfDataBottleneckResult one = analysis::ComputeTfDataBottleneck(hosts[0]);
  analysis::ProfileModel combined = analysis::CombineHostModels(std::move(hosts));
  ASSERT_EQ(combined.source, nullptr);
  const analysis::TfDataBottleneckResult both = analysis::ComputeTfDataBottleneck(combined);
  ASSERT_EQ(both.pipelines.size(), 2 * one.pipelines.size());
  EXPECT_EQ(both.counts.iterator_events, 2 * one.counts.iterator_events);
  EXPECT_EQ(both.pipelines[0].max_latency_ps, one.pipelines[0].max_latency_ps);
  EXPECT_EQ(both.pipelines[0].name, combined.hostnames[0] + " " + one.pipelines[0].name);
  ASSERT_TRUE(both.bottleneck_stage.has_value());
  EXPECT_EQ(both.stages[*both.bottleneck_stage].long_name, "Iterator::Prefetch::Generator");
  EXPECT_EQ(both.stages[*both.bottleneck_stage].pipeline, 0);
}

}  // namespace
}  // namespace stepscope
