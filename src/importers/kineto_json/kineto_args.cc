#include "src/importers/kineto_json/kineto_args.h"

#include "src/base/equal_bytes.h"
#include "src/importers/json/json_text.h"

namespace stepscope::importers {
namespace {

struct KnownArg {
  std::string_view key;
  KinetoArg arg = KinetoArg::kCount;  // kCount: an empty slot
};
constexpr KnownArg kKnownArgs[] = {
    {"device", KinetoArg::kDevice},
    {"stream", KinetoArg::kStream},
    {"context", KinetoArg::kContext},
    {"correlation", KinetoArg::kCorrelation},
    {"External id", KinetoArg::kExternalId},
    {"external id", KinetoArg::kExternalIdLower},
    {"registers per thread", KinetoArg::kRegisters},
    {"shared memory", KinetoArg::kSharedMemory},
    {"grid", KinetoArg::kGrid},
    {"block", KinetoArg::kBlock},
    {"est. achieved occupancy %", KinetoArg::kAchievedOccupancy},
    {"theoretical occupancy %", KinetoArg::kTheoreticalOccupancy},
    {"bytes", KinetoArg::kBytes},
    {"Bytes", KinetoArg::kMemoryBytes},
    {"Total Allocated", KinetoArg::kTotalAllocated},
    {"Total Reserved", KinetoArg::kTotalReserved},
    {"Addr", KinetoArg::kAddr},
    {"Device Id", KinetoArg::kDeviceId},
    {"Device Type", KinetoArg::kDeviceType},
    {"Ev Idx", KinetoArg::kEvIdx},
};

// Every arg of every event is classified: a small open-addressing table on (length,
// first byte, last byte) answers with one compare instead of a switch and a chain of them.
class KnownArgTable {
 public:
  constexpr KnownArgTable() {
    for (const KnownArg& known : kKnownArgs) {
      size_t slot = SlotOf(known.key);
      while (slots_[slot].arg != KinetoArg::kCount) slot = (slot + 1) % kSlots;
      slots_[slot] = known;
    }
  }

  KinetoArg Find(std::string_view key) const {
    if (key.empty()) return KinetoArg::kCount;
    for (size_t slot = SlotOf(key);; slot = (slot + 1) % kSlots) {
      const KnownArg& entry = slots_[slot];
      if (entry.arg == KinetoArg::kCount) return KinetoArg::kCount;
      if (base::EqualBytes(entry.key, key)) return entry.arg;
    }
  }

 private:
  static constexpr size_t kSlots = 64;  // more than twice the known args: short probes
  static constexpr size_t SlotOf(std::string_view key) {
    return (key.size() * 31 + static_cast<unsigned char>(key.front()) * 7 + static_cast<unsigned char>(key.back())) %
           kSlots;
  }

  KnownArg slots_[kSlots] = {};
};

constexpr KnownArgTable kKnownArgTable;

}  // namespace

void KinetoArgIndex::Index(const RawTraceEvent& event) {
  // Only the slots the last event set are cleared: filling all of them is a `rep stos`
  // per event, a quarter of this function's time.
  for (uint32_t set = known_set_; set != 0; set &= set - 1) known_[__builtin_ctz(set)] = nullptr;
  known_set_ = 0;
  kinds_.resize(event.args.size());
  for (size_t i = 0; i < event.args.size(); ++i) {
    KinetoArg kind = kKnownArgTable.Find(event.args[i].key);
    kinds_[i] = kind;
    if (kind != KinetoArg::kCount) {
      known_[static_cast<size_t>(kind)] = &event.args[i];
      known_set_ |= ArgBit(kind);
    }
  }
}

std::optional<int64_t> KinetoArgIndex::Int(KinetoArg arg) const {
  const JsonArg* found = Get(arg);
  if (found == nullptr) return std::nullopt;
  if (found->value.kind != JsonKind::kNumber && found->value.kind != JsonKind::kString) return std::nullopt;
  return ParseJsonInteger(found->value.text());
}

}  // namespace stepscope::importers
