// Memory events as records: the MemoryAllocation / MemoryDeallocation events of a plane,
// decoded by the columnar reader straight into the model's 96-byte record instead of
// generic stat columns (ColumnarReadOptions::memory_event_records).
//
// Why: a profile of allocator activity is tens of millions of events of 14 stats each.
// Held as generic columns they cost ~150 bytes per event of fresh memory (whose page
// faults were a third of the model's time), and the model then decoded every stat a
// second time. Here an event's stats are decoded once, from the wire (or, for unusual
// shapes, from the stat columns they went through, which the next event reuses), into
// the record the model keeps.
//
// The stat names are TensorFlow's (BFC allocator's AddTraceMe; reference/xspace.md
// "Memory profile"). The same roles and value rules serve the model's reading of generic
// columns (memory_events.cc), so both ways give the same records.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "src/xspace/columnar/pod_array.h"
#include "src/xspace/schema.h"

namespace stepscope::xspace {

struct ColumnarStat;

enum class MemoryActivity : uint8_t { kAllocation = 0, kDeallocation };

// One MemoryAllocation / MemoryDeallocation event (TF's BFC allocator and stepscope write
// them). The allocator-state fields are the allocator's view right after the event. Byte
// values are clamped to [0, kMaxMemoryBytes] and fragmentation to [0, 1] (counted as
// invalid values), so sums of a few never overflow.
//
// 96 bytes: a profile holds tens of millions of these at once, so the activity shares
// the time's word (the reader clamps times to +-2^61 ps, which 63 bits hold).
struct MemoryEvent {
  int64_t time_ps : 63 = 0;  // on the file's timeline, as every begin_ps
  MemoryActivity activity : 1 = MemoryActivity::kAllocation;
  int64_t requested_bytes = 0;     // requested_bytes
  int64_t allocation_bytes = 0;    // allocation_bytes: what the allocator handed out
  uint64_t address = 0;            // addr
  int64_t stack_reserved_bytes = 0;  // bytes_reserved
  int64_t heap_allocated_bytes = 0;  // bytes_allocated (bytes in use)
  int64_t free_memory_bytes = 0;     // bytes_available (limit - reserved - in use)
  int64_t peak_bytes_in_use = 0;     // peak_bytes_in_use: the allocator's lifetime peak so far
  double fragmentation = 0;          // (free - largest free chunk) / free
  int64_t step_id = -1;              // group_id; -1 when the event has none
  // Names: in the model, indices into MemoryEvents::names (0 = none); in a plane's
  // records, indices into ColumnarMemoryEvents::names.
  uint32_t op_name = 0;      // tf_op
  uint32_t region_type = 0;  // region_type
  uint32_t shape = 0;        // shape
  int32_t data_type = 0;     // data_type: TF DataType enum value (0 = invalid)
};
static_assert(sizeof(MemoryEvent) == 96, "MemoryEvent grew: the memory bench's peak RSS budget counts on 96 bytes");
inline constexpr int64_t kMaxMemoryBytes = int64_t{1} << 60;

// What a stat of a memory event fills. The byte counts come first and in a row: they are
// most of a memory event's stats, and ApplyMemoryNumber handles them without a switch.
enum class MemoryStatRole : uint8_t {
  kNone = 0,
  kReserved,
  kAllocated,
  kAvailable,
  kPeak,
  kRequested,
  kAllocation,
  kMemoryIdName,    // allocator_name
  kMemoryIdNumber,  // index_on_host, device_ordinal
  kFragmentation,
  kAddress,
  kOp,
  kGroup,
  kRegion,
  kDataType,
  kShape,
};
MemoryStatRole MemoryStatRoleOf(StatType type, std::string_view name);
inline bool IsNameRole(MemoryStatRole role) {
  return role == MemoryStatRole::kOp || role == MemoryStatRole::kRegion || role == MemoryStatRole::kShape ||
         role == MemoryStatRole::kMemoryIdName || role == MemoryStatRole::kMemoryIdNumber;
}

// ApplyMemoryNumber(role, stat, event, invalid) (columnar_memory_apply.h) applies a stat
// of a numeric role (not IsNameRole) to an event. Numbers may come as int, uint or double
// (TF writes them inconsistently); a uint64 above INT64_MAX is out of range for a byte
// count. Out-of-range values are clamped and counted in `*invalid`.

// How a value names something (the text differs by role for numbers and refs).
enum class MemoryValueUse : uint8_t {
  kName,      // op, region, shape: strings and refs as text, numbers as ToString
  kIdName,    // allocator_name: strings and refs as text, numbers as ""
  kIdNumber,  // index_on_host / device_ordinal: the number as decimal text
};

// The memory events of one plane, decoded by the reader (empty unless asked for).
struct ColumnarMemoryEvents {
  // A distinct name value of the plane's memory events: a stat's kind and payload as in
  // the plane's columns once the plane is read (refs hold dense stat-metadata indices).
  struct NameValue {
    uint8_t kind = 0;  // StatKind
    MemoryValueUse use = MemoryValueUse::kName;
    uint64_t payload = 0;
  };
  // The events of one memory-id value, in file order, each with its event index.
  struct Slot {
    uint32_t memory_id = 0;  // index into ids; 0: the event named no memory id
    PodArray<MemoryEvent> events;
    PodArray<uint32_t> event_index;
    // Events the model completes from their thread: no group_id (step_id -1), no tf_op.
    uint64_t without_step = 0;
    uint64_t without_op = 0;
  };
  std::vector<NameValue> names;  // values of op, region and shape stats; [0]: none ("")
  std::vector<NameValue> ids;    // values of memory-id stats; [0]: none ("")
  std::vector<Slot> slots;
  int64_t invalid_values = 0;  // values clamped while decoding
  size_t size() const {
    size_t n = 0;
    for (const Slot& s : slots) n += s.events.size();
    return n;
  }
};

}  // namespace stepscope::xspace
