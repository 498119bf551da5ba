#include "src/xspace/columnar/columnar_memory_events.h"

namespace stepscope::xspace {

MemoryStatRole MemoryStatRoleOf(StatType type, std::string_view name) {
  switch (type) {
    case StatType::kAllocatorName: return MemoryStatRole::kMemoryIdName;
    case StatType::kBytesReserved: return MemoryStatRole::kReserved;
    case StatType::kBytesAllocated: return MemoryStatRole::kAllocated;
    case StatType::kBytesAvailable: return MemoryStatRole::kAvailable;
    case StatType::kFragmentation: return MemoryStatRole::kFragmentation;
    case StatType::kPeakBytesInUse: return MemoryStatRole::kPeak;
    case StatType::kRequestedBytes: return MemoryStatRole::kRequested;
    case StatType::kAllocationBytes: return MemoryStatRole::kAllocation;
    case StatType::kAddress: return MemoryStatRole::kAddress;
    case StatType::kTfOp: return MemoryStatRole::kOp;
    case StatType::kGroupId: return MemoryStatRole::kGroup;
    case StatType::kRegionType: return MemoryStatRole::kRegion;
    case StatType::kDataType: return MemoryStatRole::kDataType;
    case StatType::kTensorShapes: return MemoryStatRole::kShape;
    default: break;
  }
  if (name == "index_on_host" || name == "device_ordinal") return MemoryStatRole::kMemoryIdNumber;
  return MemoryStatRole::kNone;
}

}  // namespace stepscope::xspace
