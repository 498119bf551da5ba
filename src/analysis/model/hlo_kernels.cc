#include "src/analysis/model/hlo_kernels.h"

#include <algorithm>
#include <utility>

#include "src/analysis/model/sat_math.h"
#include "src/hlo/hlo_programs.h"

namespace stepscope::analysis::internal {

void HloKernelAccumulator::Add(std::string_view hlo_module, int64_t program_id, std::string_view hlo_op,
                               std::string_view kernel_name, int64_t duration_ps) {
  ++join_.kernels;
  if (hlo_op.empty()) return;
  ++join_.kernels_with_hlo_op;
  auto it = index_.find(IndexView(hlo_module, program_id, hlo_op));
  if (it == index_.end()) {
    it = index_.emplace(std::make_tuple(std::string(hlo_module), program_id, std::string(hlo_op)), entries_.size()).first;
    Entry& added = entries_.emplace_back();
    added.op.module_name = std::string(hlo_module);
    added.op.program_id = program_id;
    added.op.op_name = std::string(hlo_op);
    added.op.min_kernel_ps = duration_ps;
    added.op.max_kernel_ps = duration_ps;
  }
  Entry& entry = entries_[it->second];
  ++entry.op.kernel_count;
  AddTo(entry.op.total_time_ps, duration_ps);
  entry.op.min_kernel_ps = std::min(entry.op.min_kernel_ps, duration_ps);
  entry.op.max_kernel_ps = std::max(entry.op.max_kernel_ps, duration_ps);
  auto kernel = entry.launches_by_kernel.find(kernel_name);
  if (kernel == entry.launches_by_kernel.end()) kernel = entry.launches_by_kernel.emplace(std::string(kernel_name), 0).first;
  ++kernel->second;
}

void HloKernelAccumulator::Finish(std::vector<HloOpTime>* ops, HloKernelJoin* join) {
  ops->clear();
  ops->reserve(entries_.size());
  for (Entry& entry : entries_) {
    for (const auto& [name, launches] : entry.launches_by_kernel) {
      entry.op.occurrences = std::max(entry.op.occurrences, launches);
    }
    entry.op.distinct_kernels = static_cast<int64_t>(entry.launches_by_kernel.size());
    ops->push_back(std::move(entry.op));
  }
  *join = join_;
}

void ResolveHloOps(const hlo::HloPrograms* programs, std::vector<HloOpTime>* ops, HloKernelJoin* join) {
  join->kernels_joined = 0;
  for (HloOpTime& op : *ops) {
    op.module = programs ? programs->Find(op.module_name, op.program_id) : -1;
    op.instruction = op.module >= 0 ? programs->modules[static_cast<size_t>(op.module)].FindInstruction(op.op_name) : -1;
    if (op.instruction >= 0) join->kernels_joined += op.kernel_count;
  }
  std::sort(ops->begin(), ops->end(), [](const HloOpTime& a, const HloOpTime& b) {
    if (a.total_time_ps != b.total_time_ps) return a.total_time_ps > b.total_time_ps;
    return std::tie(a.module_name, a.program_id, a.op_name) < std::tie(b.module_name, b.program_id, b.op_name);
  });
}

void MergeHloOps(const std::vector<HloOpTime>& from, std::vector<HloOpTime>* into) {
  for (const HloOpTime& op : from) {
    auto same = [&](const HloOpTime& o) {
      return o.module_name == op.module_name && o.program_id == op.program_id && o.op_name == op.op_name;
    };
    auto it = std::find_if(into->begin(), into->end(), same);
    if (it == into->end()) {
      into->push_back(op);
      continue;
    }
    it->kernel_count += op.kernel_count;
    it->occurrences += op.occurrences;
    it->distinct_kernels = std::max(it->distinct_kernels, op.distinct_kernels);
    AddTo(it->total_time_ps, op.total_time_ps);
    it->min_kernel_ps = std::min(it->min_kernel_ps, op.min_kernel_ps);
    it->max_kernel_ps = std::max(it->max_kernel_ps, op.max_kernel_ps);
  }
}

}  // namespace stepscope::analysis::internal
