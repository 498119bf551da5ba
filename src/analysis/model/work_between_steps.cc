#include "src/analysis/model/work_between_steps.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "src/analysis/model/op_name.h"
#include "src/analysis/model/sat_math.h"

namespace stepscope::analysis::internal {
namespace {

struct Gap {
  int64_t begin = 0;
  int64_t end = 0;
  bool StrictlyInside(int64_t b, int64_t e) const { return b < begin && e > end; }
};

// The gaps between the steps (sorted by begin; overlapping steps close no gap).
std::vector<Gap> GapsBetween(const std::vector<StepInfo>& steps) {
  std::vector<Gap> gaps;
  int64_t covered_to = INT64_MIN;
  for (const StepInfo& step : steps) {
    if (covered_to != INT64_MIN && step.begin_ps > covered_to) gaps.push_back({covered_to, step.begin_ps});
    covered_to = std::max(covered_to, step.begin_ps + step.duration_ps);
  }
  return gaps;
}

}  // namespace

void FindWorkBetweenSteps(const xspace::ColumnarXSpace& space, const std::vector<HostThread>& threads,
                          ProfileModel* model) {
  const std::vector<Gap> gaps = GapsBetween(model->steps);
  WorkBetweenSteps& out = model->work_between_steps;
  for (const Gap& gap : gaps) AddTo(out.gap_ps, gap.end - gap.begin);
  if (gaps.empty()) return;
  std::unordered_map<std::string, int64_t> by_name;
  for (const HostThread& thread : threads) {
    const xspace::ColumnarPlane& plane = space.planes[thread.plane_index];
    for (size_t i = 0; i < thread.size(); ++i) {
      const uint32_t e = thread.event(i);
      const int64_t begin = plane.event_start_ps[e], end = plane.event_end_ps(e);
      // The first gap that ends after this event begins.
      auto g = std::upper_bound(gaps.begin(), gaps.end(), begin, [](int64_t t, const Gap& gap) { return t < gap.end; });
      if (g == gaps.end() || g->begin >= end || g->StrictlyInside(begin, end)) continue;
      const int32_t parent = thread.parent[i];
      if (parent >= 0) {
        const uint32_t p = thread.event(parent);
        if (!g->StrictlyInside(plane.event_start_ps[p], plane.event_end_ps(p))) continue;  // counted with its parent
      }
      const std::string_view name = plane.event_name(e);
      if (IsMemoryEventName(name)) continue;
      AddTo(by_name[std::string(name)], std::min(end, g->end) - std::max(begin, g->begin));
    }
  }
  for (auto& [name, ps] : by_name) out.ops.push_back({name, ps});
  std::sort(out.ops.begin(), out.ops.end(), [](const WorkBetweenSteps::Op& a, const WorkBetweenSteps::Op& b) {
    return a.time_ps != b.time_ps ? a.time_ps > b.time_ps : a.name < b.name;
  });
  if (out.ops.size() > WorkBetweenSteps::kMaxOps) out.ops.resize(WorkBetweenSteps::kMaxOps);
}

}  // namespace stepscope::analysis::internal
