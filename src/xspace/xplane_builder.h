// Writing XSpace: builders over the generated messages, with interned metadata.
//
// Metadata is always keyed by name: GetOrCreateEventMetadata("conv") returns the same
// entry every time, with ids assigned from 1 upward per plane (0 means unset, as in
// TensorFlow). There is deliberately no way to create metadata by raw id, so id-keyed
// and name-keyed metadata cannot be mixed on one plane.
//
// Times: line timestamps are ns; event offsets and durations are ps relative to the
// line's timestamp (XSpace's own convention). Builders are not thread-safe.
//
//   XPlaneBuilder plane(space.add_planes());
//   plane.SetName(xspace::kHostThreadsPlaneName);
//   XLineBuilder line = plane.GetOrCreateLine(tid);
//   line.SetName("main");
//   XEventBuilder event = line.AddEvent(*plane.GetOrCreateEventMetadata("train"));
//   event.SetTimestampNs(start_ns);
//   event.SetEndTimestampNs(end_ns);
//   event.AddStatValue(*plane.GetOrCreateStatMetadata("step_num"), int64_t{5});
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "src/xspace/schema.h"
#include "src/xspace/xplane.h"

namespace stepscope::xspace {

class XPlaneBuilder;

// Adds stats to anything with a `repeated XStat stats` field (plane, event, metadata).
// The owning plane builder interns stat names and ref values.
template <typename Proto>
class XStatsBuilder {
 public:
  XStatsBuilder(Proto* proto, XPlaneBuilder* plane) : proto_(proto), plane_(plane) {}

  void AddStatValue(const XStatMetadata& metadata, int64_t value) { AddStat(metadata)->set_int64_value(value); }
  void AddStatValue(const XStatMetadata& metadata, int value) { AddStat(metadata)->set_int64_value(value); }
  void AddStatValue(const XStatMetadata& metadata, uint64_t value) { AddStat(metadata)->set_uint64_value(value); }
  void AddStatValue(const XStatMetadata& metadata, double value) { AddStat(metadata)->set_double_value(value); }
  // Bools are stored as int64 0/1, as TensorFlow does.
  void AddStatValue(const XStatMetadata& metadata, bool value) { AddStat(metadata)->set_int64_value(value ? 1 : 0); }
  void AddStatValue(const XStatMetadata& metadata, std::string_view value) {
    AddStat(metadata)->set_str_value(std::string(value));
  }
  void AddStatValue(const XStatMetadata& metadata, const char* value) {
    AddStatValue(metadata, std::string_view(value));
  }
  void AddBytesStatValue(const XStatMetadata& metadata, std::string_view value) {
    AddStat(metadata)->set_bytes_value(std::string(value));
  }
  // Stores `value` as a ref_value: the string is interned once per plane.
  void AddRefStatValue(const XStatMetadata& metadata, std::string_view value);
  // TraceMe argument semantics: int64, then uint64, then double, else an interned string.
  void ParseAndAddStatValue(const XStatMetadata& metadata, std::string_view value);

  // Convenience overloads keyed by well-known stat type.
  template <typename T>
  void AddStatValue(StatType type, T value);

 protected:
  XStat* AddStat(const XStatMetadata& metadata) {
    XStat* stat = proto_->add_stats();
    stat->set_metadata_id(metadata.id());
    return stat;
  }

  Proto* proto_;
  XPlaneBuilder* plane_;
};

class XEventBuilder : public XStatsBuilder<XEvent> {
 public:
  XEventBuilder(const XLine* line, XPlaneBuilder* plane, XEvent* event)
      : XStatsBuilder<XEvent>(event, plane), line_(line), event_(event) {}

  // Absolute start in ns; stored as an offset from the line's timestamp.
  void SetTimestampNs(int64_t timestamp_ns) {
    event_->set_offset_ps((timestamp_ns - line_->timestamp_ns()) * 1000);
  }
  void SetTimestampPs(int64_t timestamp_ps) {
    event_->set_offset_ps(timestamp_ps - line_->timestamp_ns() * 1000);
  }
  void SetOffsetPs(int64_t offset_ps) { event_->set_offset_ps(offset_ps); }
  void SetDurationPs(int64_t duration_ps) { event_->set_duration_ps(duration_ps); }
  void SetDurationNs(int64_t duration_ns) { event_->set_duration_ps(duration_ns * 1000); }
  // Sets the duration so that the event ends at `end_timestamp_ns` (absolute).
  void SetEndTimestampNs(int64_t end_timestamp_ns) {
    event_->set_duration_ps((end_timestamp_ns - line_->timestamp_ns()) * 1000 - event_->offset_ps());
  }
  void SetNumOccurrences(int64_t n) { event_->set_num_occurrences(n); }

 private:
  const XLine* line_;
  XEvent* event_;
};

class XLineBuilder {
 public:
  XLineBuilder(XLine* line, XPlaneBuilder* plane) : line_(line), plane_(plane) {}

  int64_t id() const { return line_->id(); }
  void SetName(std::string_view name) { line_->set_name(std::string(name)); }
  void SetDisplayName(std::string_view name) { line_->set_display_name(std::string(name)); }
  void SetDisplayId(int64_t id) { line_->set_display_id(id); }
  // Changes the origin of event offsets. Does not move events already added.
  void SetTimestampNs(int64_t timestamp_ns) { line_->set_timestamp_ns(timestamp_ns); }
  int64_t timestamp_ns() const { return line_->timestamp_ns(); }
  void SetDurationPs(int64_t duration_ps) { line_->set_duration_ps(duration_ps); }
  void ReserveEvents(int n) { line_->mutable_events()->Reserve(n); }

  XEventBuilder AddEvent(const XEventMetadata& metadata);
  XLine* proto() { return line_; }

 private:
  XLine* line_;
  XPlaneBuilder* plane_;
};

class XPlaneBuilder : public XStatsBuilder<XPlane> {
 public:
  // Wraps `plane`, indexing any metadata and lines it already has.
  explicit XPlaneBuilder(XPlane* plane);

  int64_t id() const { return plane_->id(); }
  void SetId(int64_t id) { plane_->set_id(id); }
  void SetName(std::string_view name) { plane_->set_name(std::string(name)); }

  // The line with this id, created (empty, unnamed) on first use.
  XLineBuilder GetOrCreateLine(int64_t line_id);

  // Interned metadata; the returned reference stays valid while the plane lives.
  XEventMetadata* GetOrCreateEventMetadata(std::string_view name);
  XStatMetadata* GetOrCreateStatMetadata(std::string_view name);
  XStatMetadata* GetOrCreateStatMetadata(StatType type) {
    return GetOrCreateStatMetadata(GetStatTypeStr(type));
  }
  // Lookups that never create; nullptr when absent.
  const XEventMetadata* FindEventMetadata(std::string_view name) const;
  const XStatMetadata* FindStatMetadata(std::string_view name) const;

  XPlane* proto() { return plane_; }

 private:
  XPlane* plane_;
  int64_t last_event_metadata_id_ = 0;
  int64_t last_stat_metadata_id_ = 0;
  std::unordered_map<std::string, XEventMetadata*> event_metadata_by_name_;
  std::unordered_map<std::string, XStatMetadata*> stat_metadata_by_name_;
  std::unordered_map<int64_t, XLine*> lines_by_id_;
};

// Returns the plane named `name`, or nullptr.
XPlane* FindMutablePlaneWithName(XSpace* space, std::string_view name);
const XPlane* FindPlaneWithName(const XSpace& space, std::string_view name);
// Returns the plane named `name`, adding it (with id = number of planes) if absent.
XPlane* FindOrAddMutablePlaneWithName(XSpace* space, std::string_view name);

// ---- template definitions ----

template <typename Proto>
void XStatsBuilder<Proto>::AddRefStatValue(const XStatMetadata& metadata, std::string_view value) {
  const XStatMetadata* interned = plane_->GetOrCreateStatMetadata(value);
  AddStat(metadata)->set_ref_value(static_cast<uint64_t>(interned->id()));
}

template <typename Proto>
template <typename T>
void XStatsBuilder<Proto>::AddStatValue(StatType type, T value) {
  AddStatValue(*plane_->GetOrCreateStatMetadata(type), value);
}

}  // namespace stepscope::xspace
