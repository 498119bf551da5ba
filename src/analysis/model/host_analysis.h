// Phase 1 of the model: host threads, their event trees and step groups.
//
// Step groups (reference/xspace.md §3, XLA group_events.cc; docs/model.md "Steps"):
//   - A file TensorFlow already grouped (host events carry group_id) keeps its groups.
//     Host step markers are then the events with a group whose name is an explicit
//     marker (train*/test*/TraceContext*, no '/') or that carry step_name.
//   - Otherwise we group: every event with `_r` (root level = value) or named TraceContext
//     (level 1) is a root. Roots are taken by level (highest first), then time; a root not
//     yet inside a group starts one, and its not-yet-grouped descendants on its thread
//     join it. Roots with the same name and step number (iter_num, else step_num) share a
//     group, so one step marked on several threads is one step (a stepscope choice; TF
//     would make one group per thread). Consumers (`_ct`,`_c`) then join the group of their
//     producer (`_pt`,`_p`) with their subtrees. Every root that started or joined a group
//     is a host step marker. Last, the step-window rule: an event still in no group whose
//     start lies inside a marker's [begin, end) joins that step with its subtree (where
//     windows of different steps overlap, the one that began last wins). It ties the
//     work of threads without markers (PyTorch's autograd thread) to the step whose
//     window holds it, as PyTorch's TensorBoard plugin does; events it grouped carry
//     kGroupedByWindow. TF-grouped files keep TF's groups and get no such rule.
//   - With TF loop ops (WhileOp-EvalCond, ForOp, ...) and no group_id, nothing is grouped,
//     as TensorFlow does.
#pragma once

#include <cstdint>
#include <vector>

#include "src/analysis/model/model_builder.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis::internal {

void AnalyzeHost(const xspace::ColumnarXSpace& space, const std::vector<uint32_t>& host_planes, HostAnalysis* out);

}  // namespace stepscope::analysis::internal
