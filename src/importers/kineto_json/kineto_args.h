// The Kineto args the importer maps to XSpace stats, found in one pass over an event's
// args (an event has up to ~15; looking each up by name would scan them a dozen times).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "src/importers/json/raw_trace_event.h"

namespace stepscope::importers {

enum class KinetoArg : uint8_t {
  kDevice,                // "device"
  kStream,                // "stream"
  kContext,               // "context"
  kCorrelation,           // "correlation"
  kExternalId,            // "External id"
  kExternalIdLower,       // "external id" (2021)
  kRegisters,             // "registers per thread"
  kSharedMemory,          // "shared memory"
  kGrid,                  // "grid"
  kBlock,                 // "block"
  kAchievedOccupancy,     // "est. achieved occupancy %"
  kTheoreticalOccupancy,  // "theoretical occupancy %" (2021)
  kBytes,                 // "bytes"
  kMemoryBytes,           // "Bytes" ([memory])
  kTotalAllocated,        // "Total Allocated"
  kTotalReserved,         // "Total Reserved"
  kAddr,                  // "Addr"
  kDeviceId,              // "Device Id"
  kDeviceType,            // "Device Type"
  kEvIdx,                 // "Ev Idx": Kineto's own event index, not kept
  kCount,
};

static_assert(static_cast<int>(KinetoArg::kCount) <= 32, "masks of args are 32-bit");

// Bit of `arg` in a mask of args.
constexpr uint32_t ArgBit(KinetoArg arg) { return uint32_t{1} << static_cast<uint32_t>(arg); }

class KinetoArgIndex {
 public:
  // Indexes `event`'s args; the views stay valid as long as the event.
  void Index(const RawTraceEvent& event);

  const JsonArg* Get(KinetoArg arg) const { return known_[static_cast<size_t>(arg)]; }
  // The arg as an integer (a number or a string holding one).
  std::optional<int64_t> Int(KinetoArg arg) const;
  // The kind of the event's i-th arg, or kCount when it is not one of the above.
  KinetoArg KindOf(size_t i) const { return kinds_[i]; }

 private:
  std::array<const JsonArg*, static_cast<size_t>(KinetoArg::kCount)> known_{};
  uint32_t known_set_ = 0;  // ArgBit of every non-null slot of known_
  std::vector<KinetoArg> kinds_;
};

}  // namespace stepscope::importers
