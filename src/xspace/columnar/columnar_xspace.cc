#include "src/xspace/columnar/columnar_xspace.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace stepscope::xspace {

int64_t ColumnarPlane::AsInt64(const ColumnarStat& stat) {
  switch (stat.kind) {
    case StatKind::kInt64:
    case StatKind::kUint64: return static_cast<int64_t>(stat.payload);
    case StatKind::kDouble: {
      // Saturating: a hostile double (NaN, 1e300) must not be undefined behaviour.
      const double value = AsDouble(stat);
      if (std::isnan(value)) return 0;
      if (value >= 9223372036854775808.0) return INT64_MAX;
      if (value < -9223372036854775808.0) return INT64_MIN;
      return static_cast<int64_t>(value);
    }
    default: return 0;
  }
}

double ColumnarPlane::AsDouble(const ColumnarStat& stat) {
  switch (stat.kind) {
    case StatKind::kInt64: return static_cast<double>(static_cast<int64_t>(stat.payload));
    case StatKind::kUint64: return static_cast<double>(stat.payload);
    case StatKind::kDouble: {
      double value;
      std::memcpy(&value, &stat.payload, sizeof(value));
      return value;
    }
    default: return 0.0;
  }
}

std::string_view ColumnarPlane::AsString(const ColumnarStat& stat) const {
  switch (stat.kind) {
    case StatKind::kStr:
    case StatKind::kBytes: return stat.payload < strings.size() ? std::string_view(strings[stat.payload]) : "";
    case StatKind::kRef:
      return stat.payload < stat_metadata.size() ? std::string_view(stat_metadata[stat.payload].name) : "";
    default: return "";
  }
}

std::string ColumnarPlane::ToString(const ColumnarStat& stat) const {
  switch (stat.kind) {
    case StatKind::kInt64: return std::to_string(static_cast<int64_t>(stat.payload));
    case StatKind::kUint64: return std::to_string(stat.payload);
    case StatKind::kDouble: {
      char buffer[32];
      int n = std::snprintf(buffer, sizeof(buffer), "%.17g", AsDouble(stat));
      return std::string(buffer, n > 0 ? static_cast<size_t>(n) : 0);
    }
    case StatKind::kNone: return "";
    case StatKind::kBytes: return "<" + std::to_string(AsString(stat).size()) + " bytes>";
    default: return std::string(AsString(stat));
  }
}

bool ColumnarPlane::FindEventStat(uint32_t event, uint32_t metadata_index, ColumnarStat* out) const {
  for (uint32_t i = event_stats_begin[event], end = event_stats_begin[event + 1]; i < end; ++i) {
    if (StatMetadataOfKey(stat_key[i]) == metadata_index) {
      *out = event_stat(i);
      return true;
    }
  }
  return false;
}

bool ColumnarPlane::FindStat(uint32_t event, StatType type, ColumnarStat* out) const {
  uint32_t index = stat_index(type);
  if (index == kNoStat) return false;
  if (FindEventStat(event, index, out)) return true;
  const ColumnarEventMetadata& metadata = event_metadata[event_metadata_index[event]];
  for (uint32_t i = metadata.stats_begin; i < metadata.stats_end; ++i) {
    if (other_stats[i].metadata_index == index) {
      *out = other_stats[i];
      return true;
    }
  }
  return false;
}

bool ColumnarPlane::FindPlaneStat(StatType type, ColumnarStat* out) const {
  uint32_t index = stat_index(type);
  if (index == kNoStat) return false;
  for (uint32_t i = plane_stats_begin; i < plane_stats_end; ++i) {
    if (other_stats[i].metadata_index == index) {
      *out = other_stats[i];
      return true;
    }
  }
  return false;
}

void ColumnarPlane::IndexStatTypes() {
  stat_index_by_type_.assign(kNumStatTypes, kNoStat);
  for (uint32_t i = 0; i < stat_metadata.size(); ++i) {
    StatType type = FindStatType(stat_metadata[i].name);
    stat_metadata[i].type = type;
    if (type != StatType::kUnknown && stat_index_by_type_[static_cast<int>(type)] == kNoStat) {
      stat_index_by_type_[static_cast<int>(type)] = i;
    }
  }
}

size_t ColumnarPlane::MemoryBytes() const {
  size_t bytes = event_start_ps.used_bytes() + event_duration.used_bytes() + event_metadata_index.used_bytes() +
                 event_stats_begin.used_bytes() + stat_key.used_bytes() + stat_payload.used_bytes() +
                 long_durations_ps.size() * sizeof(int64_t) + wide_payloads.size() * sizeof(uint64_t) +
                 other_stats.size() * sizeof(ColumnarStat);
  for (const auto& m : event_metadata) bytes += sizeof(m) + m.name.capacity() + m.display_name.capacity();
  for (const auto& m : stat_metadata) bytes += sizeof(m) + m.name.capacity();
  for (const auto& s : strings) bytes += sizeof(s) + s.capacity();
  for (const auto& l : lines) bytes += sizeof(l) + l.name.capacity() + l.display_name.capacity();
  return bytes;
}

const ColumnarPlane* ColumnarXSpace::FindPlane(std::string_view name) const {
  for (const ColumnarPlane& plane : planes) {
    if (plane.name == name) return &plane;
  }
  return nullptr;
}

uint64_t ColumnarXSpace::num_events() const {
  uint64_t n = 0;
  for (const ColumnarPlane& plane : planes) n += plane.num_events();
  return n;
}

size_t ColumnarXSpace::MemoryBytes() const {
  size_t bytes = 0;
  for (const ColumnarPlane& plane : planes) bytes += plane.MemoryBytes();
  return bytes;
}

}  // namespace stepscope::xspace
