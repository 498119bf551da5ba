// Reading XSpace: visitors that resolve metadata ids to names and stat values to types.
//
// A visitor is a cheap view over the generated messages; the XSpace must outlive it.
// Stat lookups by well-known StatType are O(1) after the plane visitor is built.
// Event stats merge the metadata's constant stats first, then the event's own stats.
//
// This path is for files that fit comfortably in memory as messages (our own captures,
// tests, tools that need every field). The analysis of very large files reads the wire
// format directly (see src/xspace/columnar_reader.h when it lands).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "src/xspace/schema.h"
#include "src/xspace/xplane.h"

namespace stepscope::xspace {

class XPlaneVisitor;

class XStatVisitor {
 public:
  XStatVisitor(const XPlaneVisitor* plane, const XStat* stat);

  std::string_view name() const;
  StatType type() const { return type_; }
  XStat::ValueCase value_case() const { return stat_->value_case(); }

  // Numeric accessors accept any numeric kind: TensorFlow writes the same stat as
  // int64 in one event and double in the next. Doubles convert truncating toward zero,
  // saturating at the type's limits (NaN gives 0).
  int64_t IntValue() const;
  uint64_t UintValue() const;
  double DoubleValue() const;
  bool IsNumeric() const;
  // str_value, or the interned string of a ref_value; empty otherwise.
  std::string_view StrOrRefValue() const;
  std::string_view BytesValue() const { return stat_->bytes_value(); }
  // Any value as text ("5", "0.25", "foo").
  std::string ToString() const;

  const XStat& raw() const { return *stat_; }

 private:
  const XPlaneVisitor* plane_;
  const XStat* stat_;
  StatType type_;
};

class XEventVisitor {
 public:
  XEventVisitor(const XPlaneVisitor* plane, const XLine* line, const XEvent* event);

  int64_t metadata_id() const { return event_->metadata_id(); }
  std::string_view name() const;
  // display_name when set, else name.
  std::string_view display_name() const;
  const XEventMetadata* metadata() const { return metadata_; }

  // Times are absolute within the file (line timestamp + offset).
  int64_t timestamp_ps() const { return line_->timestamp_ns() * 1000 + event_->offset_ps(); }
  int64_t timestamp_ns() const { return timestamp_ps() / 1000; }
  int64_t offset_ps() const { return event_->offset_ps(); }
  int64_t duration_ps() const { return event_->duration_ps(); }
  int64_t end_timestamp_ps() const { return timestamp_ps() + duration_ps(); }
  bool IsAggregatedEvent() const { return event_->data_case() == XEvent::kNumOccurrences; }
  int64_t num_occurrences() const { return event_->num_occurrences(); }

  // Metadata stats first, then event stats.
  void ForEachStat(const std::function<void(const XStatVisitor&)>& fn) const;
  // The event's stat of this type (event stats win over metadata stats).
  std::optional<XStatVisitor> GetStat(StatType type) const;
  std::optional<XStatVisitor> GetStat(std::string_view name) const;

  const XEvent& raw() const { return *event_; }

 private:
  const XPlaneVisitor* plane_;
  const XLine* line_;
  const XEvent* event_;
  const XEventMetadata* metadata_;
};

class XLineVisitor {
 public:
  XLineVisitor(const XPlaneVisitor* plane, const XLine* line) : plane_(plane), line_(line) {}

  int64_t id() const { return line_->id(); }
  int64_t display_id() const { return line_->display_id() != 0 ? line_->display_id() : line_->id(); }
  std::string_view name() const { return line_->name(); }
  std::string_view display_name() const {
    return line_->display_name().empty() ? line_->name() : line_->display_name();
  }
  int64_t timestamp_ns() const { return line_->timestamp_ns(); }
  int64_t duration_ps() const { return line_->duration_ps(); }
  int num_events() const { return line_->events_size(); }

  void ForEachEvent(const std::function<void(const XEventVisitor&)>& fn) const;
  XEventVisitor event(int i) const { return XEventVisitor(plane_, line_, &line_->events(i)); }

  const XLine& raw() const { return *line_; }

 private:
  const XPlaneVisitor* plane_;
  const XLine* line_;
};

class XPlaneVisitor {
 public:
  explicit XPlaneVisitor(const XPlane* plane);

  int64_t id() const { return plane_->id(); }
  std::string_view name() const { return plane_->name(); }
  int num_lines() const { return plane_->lines_size(); }

  void ForEachLine(const std::function<void(const XLineVisitor&)>& fn) const;
  XLineVisitor line(int i) const { return XLineVisitor(this, &plane_->lines(i)); }
  // First line with this name, if any.
  std::optional<XLineVisitor> FindLineByName(std::string_view name) const;

  // Plane-level stats.
  void ForEachStat(const std::function<void(const XStatVisitor&)>& fn) const;
  std::optional<XStatVisitor> GetStat(StatType type) const;
  std::optional<XStatVisitor> GetStat(std::string_view name) const;

  // nullptr for an id without metadata (files can be inconsistent; callers cope).
  const XEventMetadata* GetEventMetadata(int64_t id) const;
  const XStatMetadata* GetStatMetadata(int64_t id) const;
  // The stat-metadata id of a well-known stat on this plane, or nullopt if absent.
  std::optional<int64_t> GetStatMetadataId(StatType type) const;
  std::optional<int64_t> GetStatMetadataIdByName(std::string_view name) const;
  StatType GetStatType(int64_t stat_metadata_id) const;

  const XPlane& raw() const { return *plane_; }

 private:
  const XPlane* plane_;
  // Well-known stat type -> metadata id on this plane (0 when absent).
  std::vector<int64_t> stat_metadata_id_by_type_;
  // Metadata id -> well-known type, for the ids that have one.
  std::unordered_map<int64_t, StatType> stat_type_by_id_;
};

}  // namespace stepscope::xspace
