// Allocator activity: report what an allocator hands out and takes back, so the
// memory_profile tool can show where memory peaks and which op owns it (TensorFlow's BFC
// allocator does the same through TraceMe).
//
//   void* Arena::Allocate(size_t bytes, std::string_view op) {
//     void* p = ...;
//     stepscope::RecordAllocation({.allocator_name = "arena", .address = uintptr_t(p),
//                                  .requested_bytes = int64_t(bytes), .allocation_bytes = rounded,
//                                  .op_name = op, .data_type = 1, .shape = "[64,128]"},
//                                 State());
//     return p;
//   }
//   void Arena::Free(void* p) { ...; stepscope::RecordDeallocation("arena", uintptr_t(p), rounded, State()); }
//
// Each call writes one instant `MemoryAllocation` / `MemoryDeallocation` event on the
// calling thread's line of `/host:CPU` with TensorFlow's stat names (allocator_name,
// bytes_reserved, bytes_allocated, bytes_available, fragmentation, peak_bytes_in_use,
// requested_bytes, allocation_bytes, addr, tf_op, region_type, data_type, shape), so
// TensorBoard reads ours and stepscope reads TensorFlow's. The step is the one whose
// stepscope::Step scope is around the call (no group_id is written).
//
// Cost: recorded at host_tracer_level >= 2 (TensorFlow's level for allocator events). Off:
// one load and a branch, no argument is looked at. On: the event and 9 argument records
// (24 bytes each) in the thread's own bounded buffer; the text fields (allocator, op,
// region, shape) are interned once per distinct combination. A full buffer drops the
// event and counts it (the profile's dropped_traces), like every annotation.
#pragma once

#include <cstdint>
#include <string_view>

#include "stepscope/internal/recorder.h"

namespace stepscope {

// The allocator's state right after the event (TF's AllocatorStats).
struct AllocatorState {
  int64_t bytes_in_use = 0;       // -> bytes_allocated ("heap")
  int64_t peak_bytes_in_use = 0;  // the allocator's lifetime peak so far
  int64_t bytes_reserved = 0;     // memory set aside outside the heap ("stack"); 0 for most
  int64_t bytes_available = 0;    // limit - reserved - in use ("free")
  double fragmentation = 0;       // (free - largest free chunk) / free, in [0, 1]
};

struct AllocationInfo {
  std::string_view allocator_name;  // the memory id: one per allocator / device
  uint64_t address = 0;
  int64_t requested_bytes = 0;   // what the caller asked for
  int64_t allocation_bytes = 0;  // what the allocator handed out (rounded up)
  std::string_view op_name;      // the op (or code) the memory is for
  std::string_view region_type;  // e.g. "output", "temp", "persist"
  int data_type = 0;             // TensorFlow's DataType value: 1 float, 19 half, 14 bfloat16, ...
  std::string_view shape;        // e.g. "[64,128]"
};

namespace internal {
void RecordMemoryEvent(bool allocation, const AllocationInfo& info, const AllocatorState& state);
}  // namespace internal

inline void RecordAllocation(const AllocationInfo& info, const AllocatorState& state) {
  if (__builtin_expect(internal::IsLevelEnabled(internal::kLevelInfo), 0)) {
    internal::RecordMemoryEvent(true, info, state);
  }
}

// `allocation_bytes`: the size of the block freed (as its allocation reported it).
inline void RecordDeallocation(std::string_view allocator_name, uint64_t address, int64_t allocation_bytes,
                               const AllocatorState& state) {
  if (__builtin_expect(internal::IsLevelEnabled(internal::kLevelInfo), 0)) {
    AllocationInfo info;
    info.allocator_name = allocator_name;
    info.address = address;
    info.allocation_bytes = allocation_bytes;
    internal::RecordMemoryEvent(false, info, state);
  }
}

}  // namespace stepscope
