// ApplyMemoryNumber (columnar_memory_events.h) inline: it runs for every stat of every
// memory event, in the reader's record decode and in the model's read of the columns.
#pragma once

#include <cstdint>
#include <iterator>

#include "src/xspace/columnar/columnar_memory_events.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::xspace {
namespace memory_internal {

inline int64_t ClampBytes(int64_t v, int64_t* invalid) {
  if (v < 0) {
    ++*invalid;
    return 0;
  }
  if (v > kMaxMemoryBytes) {
    ++*invalid;
    return kMaxMemoryBytes;
  }
  return v;
}

// ColumnarPlane::AsInt64 with the integer kinds (what writers emit) inline.
inline int64_t Int64Of(const ColumnarStat& stat) {
  if (stat.kind == StatKind::kInt64 || stat.kind == StatKind::kUint64) return static_cast<int64_t>(stat.payload);
  return ColumnarPlane::AsInt64(stat);
}

inline int64_t Bytes(const ColumnarStat& stat, int64_t* invalid) {
  if (stat.kind == StatKind::kUint64 && stat.payload > static_cast<uint64_t>(INT64_MAX)) {
    ++*invalid;
    return kMaxMemoryBytes;
  }
  return ClampBytes(Int64Of(stat), invalid);
}

}  // namespace memory_internal

// The field of each byte-count role, kReserved..kAllocation in enum order.
inline constexpr int64_t MemoryEvent::*kMemoryBytesFields[] = {
    &MemoryEvent::stack_reserved_bytes, &MemoryEvent::heap_allocated_bytes, &MemoryEvent::free_memory_bytes,
    &MemoryEvent::peak_bytes_in_use,    &MemoryEvent::requested_bytes,      &MemoryEvent::allocation_bytes};
inline bool IsMemoryBytesRole(MemoryStatRole role) {
  // One compare: roles before kReserved wrap around to large unsigned values.
  return static_cast<size_t>(static_cast<unsigned>(static_cast<uint8_t>(role) -
                                                   static_cast<uint8_t>(MemoryStatRole::kReserved))) <
         std::size(kMemoryBytesFields);
}

inline void ApplyMemoryNumber(MemoryStatRole role, const ColumnarStat& stat, MemoryEvent* e, int64_t* invalid) {
  if (IsMemoryBytesRole(role)) {  // a field store, not a jump through a table
    e->*kMemoryBytesFields[static_cast<uint8_t>(role) - static_cast<uint8_t>(MemoryStatRole::kReserved)] =
        memory_internal::Bytes(stat, invalid);
    return;
  }
  switch (role) {
    case MemoryStatRole::kFragmentation: {
      double f = ColumnarPlane::AsDouble(stat);
      if (!(f >= 0.0 && f <= 1.0)) {  // also NaN
        ++*invalid;
        f = f > 1.0 ? 1.0 : 0.0;
      }
      e->fragmentation = f;
      break;
    }
    case MemoryStatRole::kAddress:
      e->address = stat.kind == StatKind::kUint64 ? stat.payload : static_cast<uint64_t>(memory_internal::Int64Of(stat));
      break;
    case MemoryStatRole::kGroup: e->step_id = memory_internal::Int64Of(stat); break;
    case MemoryStatRole::kDataType: {
      const int64_t t = memory_internal::Int64Of(stat);
      e->data_type = t < INT32_MIN || t > INT32_MAX ? -1 : static_cast<int32_t>(t);
      break;
    }
    default: break;  // names: resolved by the caller
  }
}

}  // namespace stepscope::xspace
