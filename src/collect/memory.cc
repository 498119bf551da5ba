// RecordAllocation / RecordDeallocation (include/stepscope/memory.h): one instant event
// named with the text fields as TraceMe metadata (interned per distinct combination, so
// repeated ops cost a table lookup) and the numbers as argument records, all published
// together. The encoded name of the thread's last allocation and last deallocation is
// kept, so an allocator that reports the same op again and again (PyTorch's, per ATen op)
// builds no string per event.
#include "stepscope/memory.h"

#include <array>
#include <span>
#include <cstring>
#include <string>
#include <string_view>

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

// The TraceMe-encoded event name for an event's text fields, kept for the next event of
// the same kind on this thread: rebuilt only when a field differs.
class EncodedName {
 public:
  const std::string& For(bool allocation, const AllocationInfo& info) {
    const std::array<std::string_view, 4> key = {info.allocator_name, allocation ? info.op_name : "",
                                                 allocation ? info.region_type : "", allocation ? info.shape : ""};
    if (built_ && Same(key)) return encoded_;
    for (size_t i = 0; i < key.size(); ++i) key_[i].assign(key[i]);
    built_ = true;
    MetadataArg args[] = {{"allocator_name", key[0]}, {"tf_op", key[1]}, {"region_type", key[2]}, {"shape", key[3]}};
    // Empty text fields are left out (the allocator name always stays).
    size_t n = 1;
    for (size_t i = 1; i < key.size(); ++i) {
      if (!key[i].empty()) args[n++] = args[i];
    }
    encoded_ = EncodeMetadataList(allocation ? "MemoryAllocation" : "MemoryDeallocation",
                                  std::span<const MetadataArg>(args, n));
    return encoded_;
  }

 private:
  bool Same(const std::array<std::string_view, 4>& key) const {
    for (size_t i = 0; i < key.size(); ++i) {
      if (key[i] != key_[i]) return false;
    }
    return true;
  }
  bool built_ = false;
  std::array<std::string, 4> key_;
  std::string encoded_;
};

}  // namespace

void RecordMemoryEvent(bool allocation, const AllocationInfo& info, const AllocatorState& state) {
  const uint64_t now = ReadTicks();
  thread_local EncodedName t_allocation_name, t_deallocation_name;
  const std::string& name = (allocation ? t_allocation_name : t_deallocation_name).For(allocation, info);
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
