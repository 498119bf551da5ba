// Memory allocated inside each host op, as PyTorch's key_averages() reports it ("CPU Mem",
// "Self CPU Mem" and the CUDA twins): an op occurrence's memory is the sum of the sizes of
// the allocator events whose time lies within [begin, end] of it, on any thread
// (allocations add, frees subtract); its self memory is that minus its children's (the ops
// nested in it on its thread; Python frames are transparent, as for self time). Summed
// over occurrences per op name.
#pragma once

#include "src/analysis/model/model_builder.h"
#include "src/analysis/model/profile_model.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis::internal {

// An allocator's events count as host (CPU) memory when its memory id names the CPU
// ("cpu", "mklcpu", TensorFlow's "cpu_bfc"); every other allocator is a device's.
bool IsHostMemoryId(std::string_view memory_id);

// Fills the memory fields of model->host_ops (OpMetricsDb::has_memory and each op's
// four byte counts) from model->memory, walking host.threads as BuildHostOpTable does.
// Nothing to do (and nothing read) when the model has no memory events. Needs the host
// threads' trees and flags, and their groups when host.only_group_id is set.
void AddHostOpMemory(const xspace::ColumnarXSpace& space, const HostAnalysis& host, ProfileModel* model);

}  // namespace stepscope::analysis::internal
