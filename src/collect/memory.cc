// RecordAllocation / RecordDeallocation (include/stepscope/memory.h): one instant event
// named with the text fields as TraceMe metadata (interned per distinct combination, so
// repeated ops cost a table lookup) and the numbers as argument records, all published
// together.
#include "stepscope/memory.h"

#include <cstring>
#include <string>

#include "stepscope/annotation.h"

namespace stepscope::internal {
namespace {

// Static keys: argument records hold the pointer (docs: keys with static storage).
constexpr const char* kReserved = "bytes_reserved";
constexpr const char* kAllocated = "bytes_allocated";
constexpr const char* kAvailable = "bytes_available";
constexpr const char* kPeak = "peak_bytes_in_use";
constexpr const char* kRequested = "requested_bytes";
constexpr const char* kAllocation = "allocation_bytes";
constexpr const char* kAddress = "addr";
constexpr const char* kDataType = "data_type";
constexpr const char* kFragmentation = "fragmentation";

}  // namespace

void RecordMemoryEvent(bool allocation, const AllocationInfo& info, const AllocatorState& state) {
  const uint64_t now = ReadTicks();
  std::string name;
  if (allocation) {
    name = EncodeMetadata("MemoryAllocation", {{"allocator_name", info.allocator_name}});
    if (!info.op_name.empty()) name = AppendMetadata(name, {{"tf_op", info.op_name}});
    if (!info.region_type.empty()) name = AppendMetadata(name, {{"region_type", info.region_type}});
    if (!info.shape.empty()) name = AppendMetadata(name, {{"shape", info.shape}});
  } else {
    name = EncodeMetadata("MemoryDeallocation", {{"allocator_name", info.allocator_name}});
  }
  const uint64_t head = InternDynamicName(name.data(), name.size());
  if (head == 0) return;  // buffer full: dropped and counted
  const StaticInt64Arg ints[] = {{kReserved, state.bytes_reserved},       {kAllocated, state.bytes_in_use},
                                 {kAvailable, state.bytes_available},     {kPeak, state.peak_bytes_in_use},
                                 {kRequested, info.requested_bytes},      {kAllocation, info.allocation_bytes},
                                 {kAddress, static_cast<int64_t>(info.address)}, {kDataType, info.data_type}};
  constexpr size_t kInts = sizeof(ints) / sizeof(ints[0]);
  Record* record = ReserveRecords(2 + kInts);
  if (record == nullptr) return;
  record[0].head = head;
  record[0].a = now;
  record[0].b = now;
  for (size_t i = 0; i < kInts; ++i) {
    record[1 + i].head = MakeRecordHead(RecordKind::kInt64Arg, reinterpret_cast<uintptr_t>(ints[i].key));
    record[1 + i].a = static_cast<uint64_t>(ints[i].value);
    record[1 + i].b = 0;
  }
  uint64_t bits;
  std::memcpy(&bits, &state.fragmentation, sizeof(bits));
  record[1 + kInts].head = MakeRecordHead(RecordKind::kDoubleArg, reinterpret_cast<uintptr_t>(kFragmentation));
  record[1 + kInts].a = bits;
  record[1 + kInts].b = 0;
  CommitRecords(2 + kInts);
}

}  // namespace stepscope::internal
