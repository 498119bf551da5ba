#include "src/xspace/xplane_builder.h"

#include <charconv>
#include <cstdlib>

namespace stepscope::xspace {
namespace {

template <typename T>
bool ParseInteger(std::string_view text, T* out) {
  if (text.empty()) return false;
  const char* begin = text.data();
  if (*begin == '+') ++begin;
  auto [ptr, ec] = std::from_chars(begin, text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

bool ParseDouble(std::string_view text, double* out) {
  if (text.empty()) return false;
  std::string copy(text);  // strtod needs a terminator; from_chars(double) is not in libstdc++ 12 for all forms
  char* end = nullptr;
  *out = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size();
}

}  // namespace

template <typename Proto>
void XStatsBuilder<Proto>::ParseAndAddStatValue(const XStatMetadata& metadata, std::string_view value) {
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  if (ParseInteger(value, &i)) {
    AddStatValue(metadata, i);
  } else if (ParseInteger(value, &u)) {
    AddStatValue(metadata, u);
  } else if (ParseDouble(value, &d)) {
    AddStatValue(metadata, d);
  } else {
    AddRefStatValue(metadata, value);
  }
}

template class XStatsBuilder<XPlane>;
template class XStatsBuilder<XEvent>;
template class XStatsBuilder<XEventMetadata>;

XEventBuilder XLineBuilder::AddEvent(const XEventMetadata& metadata) {
  XEvent* event = line_->add_events();
  event->set_metadata_id(metadata.id());
  return XEventBuilder(line_, plane_, event);
}

XPlaneBuilder::XPlaneBuilder(XPlane* plane) : XStatsBuilder<XPlane>(plane, this), plane_(plane) {
  for (auto& [id, metadata] : *plane->mutable_event_metadata()) {
    if (id > last_event_metadata_id_) last_event_metadata_id_ = id;
    if (!metadata.name().empty()) event_metadata_by_name_.emplace(metadata.name(), &metadata);
  }
  for (auto& [id, metadata] : *plane->mutable_stat_metadata()) {
    if (id > last_stat_metadata_id_) last_stat_metadata_id_ = id;
    if (!metadata.name().empty()) stat_metadata_by_name_.emplace(metadata.name(), &metadata);
  }
  for (XLine& line : *plane->mutable_lines()) lines_by_id_.emplace(line.id(), &line);
}

XLineBuilder XPlaneBuilder::GetOrCreateLine(int64_t line_id) {
  XLine*& line = lines_by_id_[line_id];
  if (line == nullptr) {
    line = plane_->add_lines();
    line->set_id(line_id);
  }
  return XLineBuilder(line, this);
}

XEventMetadata* XPlaneBuilder::GetOrCreateEventMetadata(std::string_view name) {
  auto [it, inserted] = event_metadata_by_name_.try_emplace(std::string(name), nullptr);
  if (inserted) {
    int64_t id = ++last_event_metadata_id_;
    XEventMetadata& metadata = (*plane_->mutable_event_metadata())[id];
    metadata.set_id(id);
    metadata.set_name(std::string(name));
    it->second = &metadata;
  }
  return it->second;
}

XStatMetadata* XPlaneBuilder::GetOrCreateStatMetadata(std::string_view name) {
  auto [it, inserted] = stat_metadata_by_name_.try_emplace(std::string(name), nullptr);
  if (inserted) {
    int64_t id = ++last_stat_metadata_id_;
    XStatMetadata& metadata = (*plane_->mutable_stat_metadata())[id];
    metadata.set_id(id);
    metadata.set_name(std::string(name));
    it->second = &metadata;
  }
  return it->second;
}

const XEventMetadata* XPlaneBuilder::FindEventMetadata(std::string_view name) const {
  auto it = event_metadata_by_name_.find(std::string(name));
  return it == event_metadata_by_name_.end() ? nullptr : it->second;
}

const XStatMetadata* XPlaneBuilder::FindStatMetadata(std::string_view name) const {
  auto it = stat_metadata_by_name_.find(std::string(name));
  return it == stat_metadata_by_name_.end() ? nullptr : it->second;
}

XPlane* FindMutablePlaneWithName(XSpace* space, std::string_view name) {
  for (XPlane& plane : *space->mutable_planes()) {
    if (plane.name() == name) return &plane;
  }
  return nullptr;
}

const XPlane* FindPlaneWithName(const XSpace& space, std::string_view name) {
  for (const XPlane& plane : space.planes()) {
    if (plane.name() == name) return &plane;
  }
  return nullptr;
}

XPlane* FindOrAddMutablePlaneWithName(XSpace* space, std::string_view name) {
  if (XPlane* plane = FindMutablePlaneWithName(space, name)) return plane;
  XPlane* plane = space->add_planes();
  plane->set_id(space->planes_size() - 1);
  plane->set_name(std::string(name));
  return plane;
}

}  // namespace stepscope::xspace
