#include "src/importers/kineto_json/kineto_args.h"

#include "src/importers/json/json_text.h"

namespace stepscope::importers {
namespace {

KinetoArg Classify(std::string_view key) {
  switch (key.size()) {
    case 4:
      if (key == "grid") return KinetoArg::kGrid;
      if (key == "Addr") return KinetoArg::kAddr;
      break;
    case 5:
      if (key == "block") return KinetoArg::kBlock;
      if (key == "bytes") return KinetoArg::kBytes;
      if (key == "Bytes") return KinetoArg::kMemoryBytes;
      break;
    case 6:
      if (key == "device") return KinetoArg::kDevice;
      if (key == "stream") return KinetoArg::kStream;
      if (key == "Ev Idx") return KinetoArg::kEvIdx;
      break;
    case 7:
      if (key == "context") return KinetoArg::kContext;
      break;
    case 9:
      if (key == "Device Id") return KinetoArg::kDeviceId;
      break;
    case 11:
      if (key == "correlation") return KinetoArg::kCorrelation;
      if (key == "External id") return KinetoArg::kExternalId;
      if (key == "external id") return KinetoArg::kExternalIdLower;
      if (key == "Device Type") return KinetoArg::kDeviceType;
      break;
    case 13:
      if (key == "shared memory") return KinetoArg::kSharedMemory;
      break;
    case 14:
      if (key == "Total Reserved") return KinetoArg::kTotalReserved;
      break;
    case 15:
      if (key == "Total Allocated") return KinetoArg::kTotalAllocated;
      break;
    case 20:
      if (key == "registers per thread") return KinetoArg::kRegisters;
      break;
    case 23:
      if (key == "theoretical occupancy %") return KinetoArg::kTheoreticalOccupancy;
      break;
    case 25:
      if (key == "est. achieved occupancy %") return KinetoArg::kAchievedOccupancy;
      break;
    default:
      break;
  }
  return KinetoArg::kCount;
}

}  // namespace

void KinetoArgIndex::Index(const RawTraceEvent& event) {
  known_.fill(nullptr);
  kinds_.resize(event.args.size());
  for (size_t i = 0; i < event.args.size(); ++i) {
    KinetoArg kind = Classify(event.args[i].key);
    kinds_[i] = kind;
    if (kind != KinetoArg::kCount) known_[static_cast<size_t>(kind)] = &event.args[i];
  }
}

std::optional<int64_t> KinetoArgIndex::Int(KinetoArg arg) const {
  const JsonArg* found = Get(arg);
  if (found == nullptr) return std::nullopt;
  if (found->value.kind != JsonKind::kNumber && found->value.kind != JsonKind::kString) return std::nullopt;
  return ParseJsonInteger(found->value.text);
}

}  // namespace stepscope::importers
