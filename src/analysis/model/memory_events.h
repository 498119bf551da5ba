// Memory events: the MemoryAllocation / MemoryDeallocation instants of the host planes,
// read once into ProfileModel::memory (compact records per memory id) so that the
// memory_profile tool never walks planes. Stat names are TensorFlow's (BFC allocator's
// AddTraceMe; reference/xspace.md "Memory profile").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis {

// TensorFlow's DataType enum value as TF prints it (DataTypeString): 0 "INVALID",
// 1 "float", 19 "half", 14 "bfloat16", ...; reference types (value + 100) end in "_ref";
// unknown values read "unknown dtype enum (N)".
std::string DataTypeName(int64_t data_type);

namespace internal {

struct HostAnalysis;

// The memory-event records of a space's planes, by plane index (empty for planes without).
using MemoryRecords = std::vector<xspace::ColumnarMemoryEvents>;
MemoryRecords TakeMemoryRecords(xspace::ColumnarXSpace* space);

// Appends the memory events of the host threads (every line of the host planes) to
// `out`, one MemoryAllocatorEvents per memory id, each sorted by time. An event without
// a group_id stat takes the step group the model gave it (step markers, step window); an
// event without a tf_op stat takes the name of the innermost host event around it on its
// thread (Kineto's [memory] instants sit inside the ATen op that allocated). Hostile
// values are clamped and counted (MemoryEvents::invalid_values); nothing here fails.
// Planes read with memory_event_records hold their memory events as records
// (ColumnarPlane::memory); they are read from there, or from `taken` (by plane index,
// what TakeMemoryRecords took out of the space), whose arrays then become the model's.
void ExtractMemoryEvents(const xspace::ColumnarXSpace& space, const HostAnalysis& host, int host_index,
                         MemoryRecords* taken, MemoryEvents* out);

// Diagnostics lines about the memory events (clamped values), appended to `out`.
void AddMemoryDiagnostics(const MemoryEvents& memory, std::vector<std::string>* out);

// For an allocator whose events hold sizes but no address and no totals (every address,
// bytes-in-use and peak 0, some size not): sets each event's bytes in use to the running
// sum of the sizes (allocations add, deallocations subtract, never below 0) and its
// lifetime peak to the running maximum, and marks it heap_from_sizes. Other allocators
// are left as they are. Returns whether it derived anything.
bool DeriveHeapFromSizes(MemoryAllocatorEvents* allocator);

}  // namespace internal
}  // namespace stepscope::analysis
