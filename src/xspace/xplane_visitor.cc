#include "src/xspace/xplane_visitor.h"

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace stepscope::xspace {
namespace {

std::optional<XStatVisitor> FindStatIn(const XPlaneVisitor* plane,
                                       const google::protobuf::RepeatedPtrField<XStat>& stats,
                                       int64_t metadata_id) {
  for (const XStat& stat : stats) {
    if (stat.metadata_id() == metadata_id) return XStatVisitor(plane, &stat);
  }
  return std::nullopt;
}

// Double -> integer without undefined behaviour: NaN gives 0, out-of-range values
// saturate. Corrupt or hostile files carry any double where an integer is expected.
constexpr double kTwoPow63 = 9223372036854775808.0;
constexpr double kTwoPow64 = 18446744073709551616.0;

int64_t SaturatingInt64(double value) {
  if (std::isnan(value)) return 0;
  if (value >= kTwoPow63) return INT64_MAX;
  if (value < -kTwoPow63) return INT64_MIN;
  return static_cast<int64_t>(value);
}

uint64_t SaturatingUint64(double value) {
  if (std::isnan(value) || value <= -1.0) return static_cast<uint64_t>(SaturatingInt64(value));
  if (value >= kTwoPow64) return UINT64_MAX;
  return static_cast<uint64_t>(value);
}

}  // namespace

// ---- XStatVisitor ----

XStatVisitor::XStatVisitor(const XPlaneVisitor* plane, const XStat* stat)
    : plane_(plane), stat_(stat), type_(plane->GetStatType(stat->metadata_id())) {}

std::string_view XStatVisitor::name() const {
  const XStatMetadata* metadata = plane_->GetStatMetadata(stat_->metadata_id());
  return metadata ? std::string_view(metadata->name()) : std::string_view();
}

bool XStatVisitor::IsNumeric() const {
  switch (stat_->value_case()) {
    case XStat::kInt64Value:
    case XStat::kUint64Value:
    case XStat::kDoubleValue:
      return true;
    default:
      return false;
  }
}

int64_t XStatVisitor::IntValue() const {
  switch (stat_->value_case()) {
    case XStat::kInt64Value: return stat_->int64_value();
    case XStat::kUint64Value: return static_cast<int64_t>(stat_->uint64_value());
    case XStat::kDoubleValue: return SaturatingInt64(stat_->double_value());
    default: return 0;
  }
}

uint64_t XStatVisitor::UintValue() const {
  switch (stat_->value_case()) {
    case XStat::kInt64Value: return static_cast<uint64_t>(stat_->int64_value());
    case XStat::kUint64Value: return stat_->uint64_value();
    case XStat::kDoubleValue: return SaturatingUint64(stat_->double_value());
    case XStat::kRefValue: return stat_->ref_value();
    default: return 0;
  }
}

double XStatVisitor::DoubleValue() const {
  switch (stat_->value_case()) {
    case XStat::kInt64Value: return static_cast<double>(stat_->int64_value());
    case XStat::kUint64Value: return static_cast<double>(stat_->uint64_value());
    case XStat::kDoubleValue: return stat_->double_value();
    default: return 0;
  }
}

std::string_view XStatVisitor::StrOrRefValue() const {
  if (stat_->value_case() == XStat::kStrValue) return stat_->str_value();
  if (stat_->value_case() == XStat::kRefValue) {
    const XStatMetadata* ref = plane_->GetStatMetadata(static_cast<int64_t>(stat_->ref_value()));
    return ref ? std::string_view(ref->name()) : std::string_view();
  }
  return {};
}

std::string XStatVisitor::ToString() const {
  char buffer[64];
  switch (stat_->value_case()) {
    case XStat::kInt64Value:
      std::snprintf(buffer, sizeof(buffer), "%" PRId64, stat_->int64_value());
      return buffer;
    case XStat::kUint64Value:
      std::snprintf(buffer, sizeof(buffer), "%" PRIu64, stat_->uint64_value());
      return buffer;
    case XStat::kDoubleValue:
      std::snprintf(buffer, sizeof(buffer), "%.17g", stat_->double_value());
      return buffer;
    case XStat::kStrValue:
    case XStat::kRefValue:
      return std::string(StrOrRefValue());
    case XStat::kBytesValue:
      return "<" + std::to_string(stat_->bytes_value().size()) + " bytes>";
    case XStat::VALUE_NOT_SET:
      return "";
  }
  return "";
}

// ---- XEventVisitor ----

XEventVisitor::XEventVisitor(const XPlaneVisitor* plane, const XLine* line, const XEvent* event)
    : plane_(plane), line_(line), event_(event), metadata_(plane->GetEventMetadata(event->metadata_id())) {}

std::string_view XEventVisitor::name() const {
  return metadata_ ? std::string_view(metadata_->name()) : std::string_view();
}

std::string_view XEventVisitor::display_name() const {
  if (metadata_ && !metadata_->display_name().empty()) return metadata_->display_name();
  return name();
}

void XEventVisitor::ForEachStat(const std::function<void(const XStatVisitor&)>& fn) const {
  if (metadata_) {
    for (const XStat& stat : metadata_->stats()) fn(XStatVisitor(plane_, &stat));
  }
  for (const XStat& stat : event_->stats()) fn(XStatVisitor(plane_, &stat));
}

std::optional<XStatVisitor> XEventVisitor::GetStat(StatType type) const {
  std::optional<int64_t> id = plane_->GetStatMetadataId(type);
  if (!id) return std::nullopt;
  if (auto stat = FindStatIn(plane_, event_->stats(), *id)) return stat;
  if (metadata_) return FindStatIn(plane_, metadata_->stats(), *id);
  return std::nullopt;
}

std::optional<XStatVisitor> XEventVisitor::GetStat(std::string_view name) const {
  std::optional<int64_t> id = plane_->GetStatMetadataIdByName(name);
  if (!id) return std::nullopt;
  if (auto stat = FindStatIn(plane_, event_->stats(), *id)) return stat;
  if (metadata_) return FindStatIn(plane_, metadata_->stats(), *id);
  return std::nullopt;
}

// ---- XLineVisitor ----

void XLineVisitor::ForEachEvent(const std::function<void(const XEventVisitor&)>& fn) const {
  for (const XEvent& event : line_->events()) fn(XEventVisitor(plane_, line_, &event));
}

// ---- XPlaneVisitor ----

XPlaneVisitor::XPlaneVisitor(const XPlane* plane)
    : plane_(plane), stat_metadata_id_by_type_(kNumStatTypes, 0) {
  for (const auto& [id, metadata] : plane->stat_metadata()) {
    StatType type = FindStatType(metadata.name());
    if (type == StatType::kUnknown) continue;
    stat_type_by_id_.emplace(id, type);
    int64_t& slot = stat_metadata_id_by_type_[static_cast<size_t>(type)];
    // Two metadata with one name should not happen; keep the smallest id deterministically.
    if (slot == 0 || id < slot) slot = id;
  }
}

void XPlaneVisitor::ForEachLine(const std::function<void(const XLineVisitor&)>& fn) const {
  for (const XLine& line : plane_->lines()) fn(XLineVisitor(this, &line));
}

std::optional<XLineVisitor> XPlaneVisitor::FindLineByName(std::string_view name) const {
  for (const XLine& line : plane_->lines()) {
    if (line.name() == name) return XLineVisitor(this, &line);
  }
  return std::nullopt;
}

void XPlaneVisitor::ForEachStat(const std::function<void(const XStatVisitor&)>& fn) const {
  for (const XStat& stat : plane_->stats()) fn(XStatVisitor(this, &stat));
}

std::optional<XStatVisitor> XPlaneVisitor::GetStat(StatType type) const {
  std::optional<int64_t> id = GetStatMetadataId(type);
  if (!id) return std::nullopt;
  return FindStatIn(this, plane_->stats(), *id);
}

std::optional<XStatVisitor> XPlaneVisitor::GetStat(std::string_view name) const {
  std::optional<int64_t> id = GetStatMetadataIdByName(name);
  if (!id) return std::nullopt;
  return FindStatIn(this, plane_->stats(), *id);
}

const XEventMetadata* XPlaneVisitor::GetEventMetadata(int64_t id) const {
  auto it = plane_->event_metadata().find(id);
  return it == plane_->event_metadata().end() ? nullptr : &it->second;
}

const XStatMetadata* XPlaneVisitor::GetStatMetadata(int64_t id) const {
  auto it = plane_->stat_metadata().find(id);
  return it == plane_->stat_metadata().end() ? nullptr : &it->second;
}

std::optional<int64_t> XPlaneVisitor::GetStatMetadataId(StatType type) const {
  int64_t id = stat_metadata_id_by_type_[static_cast<size_t>(type)];
  if (id == 0) return std::nullopt;
  return id;
}

std::optional<int64_t> XPlaneVisitor::GetStatMetadataIdByName(std::string_view name) const {
  StatType type = FindStatType(name);
  if (type != StatType::kUnknown) return GetStatMetadataId(type);
  for (const auto& [id, metadata] : plane_->stat_metadata()) {
    if (metadata.name() == name) return id;
  }
  return std::nullopt;
}

StatType XPlaneVisitor::GetStatType(int64_t stat_metadata_id) const {
  auto it = stat_type_by_id_.find(stat_metadata_id);
  return it == stat_type_by_id_.end() ? StatType::kUnknown : it->second;
}

}  // namespace stepscope::xspace
