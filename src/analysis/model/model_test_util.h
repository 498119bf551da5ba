// Test helper: writing small XSpaces with times in milliseconds.
//
//   TestSpace t;
//   auto main = t.HostLine(1, "main");
//   t.Event(main, "train", 0, 10, {{"step_num", 1}, {"_r", 1}});
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include <gtest/gtest.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/xspace/xplane_builder.h"

namespace stepscope::analysis::testing {

inline constexpr int64_t kPsPerMs = 1'000'000'000;

struct StatArg {
  std::string name;
  std::variant<int64_t, uint64_t, double, std::string> value;
  bool as_ref = false;
  StatArg(std::string n, int64_t v) : name(std::move(n)), value(v) {}
  StatArg(std::string n, int v) : name(std::move(n)), value(int64_t{v}) {}
  StatArg(std::string n, uint64_t v) : name(std::move(n)), value(v) {}
  StatArg(std::string n, double v) : name(std::move(n)), value(v) {}
  StatArg(std::string n, const char* v, bool ref = true) : name(std::move(n)), value(std::string(v)), as_ref(ref) {}
};

class TestSpace {
 public:
  struct Line {
    int plane;
    int64_t id;
  };

  TestSpace() = default;

  // Adds (or finds) a plane by name.
  int Plane(std::string_view name) {
    for (int i = 0; i < space.planes_size(); ++i) {
      if (space.planes(i).name() == name) return i;
    }
    xspace::XPlane* plane = space.add_planes();
    plane->set_name(std::string(name));
    plane->set_id(space.planes_size() - 1);
    return space.planes_size() - 1;
  }
  Line HostLine(int64_t tid, std::string_view name) { return LineIn(Plane(xspace::kHostThreadsPlaneName), tid, name); }
  Line LineIn(int plane, int64_t id, std::string_view name) {
    xspace::XPlaneBuilder builder(space.mutable_planes(plane));
    xspace::XLineBuilder line = builder.GetOrCreateLine(id);
    line.SetName(name);
    return {plane, id};
  }

  // An event from begin_ms to end_ms (absolute; lines start at 0).
  void Event(Line line, std::string_view name, double begin_ms, double end_ms, std::initializer_list<StatArg> stats = {}) {
    xspace::XPlaneBuilder plane(space.mutable_planes(line.plane));
    xspace::XLineBuilder l = plane.GetOrCreateLine(line.id);
    xspace::XEventBuilder event = l.AddEvent(*plane.GetOrCreateEventMetadata(name));
    event.SetOffsetPs(static_cast<int64_t>(begin_ms * kPsPerMs));
    event.SetDurationPs(static_cast<int64_t>((end_ms - begin_ms) * kPsPerMs));
    for (const StatArg& stat : stats) {
      const xspace::XStatMetadata& md = *plane.GetOrCreateStatMetadata(stat.name);
      if (const auto* i = std::get_if<int64_t>(&stat.value)) event.AddStatValue(md, *i);
      if (const auto* u = std::get_if<uint64_t>(&stat.value)) event.AddStatValue(md, *u);
      if (const auto* d = std::get_if<double>(&stat.value)) event.AddStatValue(md, *d);
      if (const auto* s = std::get_if<std::string>(&stat.value)) {
        if (stat.as_ref) {
          event.AddRefStatValue(md, *s);
        } else {
          event.AddStatValue(md, std::string_view(*s));
        }
      }
    }
  }

  void PlaneStat(int plane_index, std::string_view name, int64_t value) {
    xspace::XPlaneBuilder plane(space.mutable_planes(plane_index));
    plane.AddStatValue(*plane.GetOrCreateStatMetadata(name), value);
  }

  xspace::XSpace space;
};

inline int64_t Ms(double ms) { return static_cast<int64_t>(ms * kPsPerMs); }

// The model of `space` with default options; a failed build fails the test and gives an
// empty model.
inline ProfileModel BuildModelOrFail(const xspace::XSpace& space) {
  StatusOr<ProfileModel> model = BuildProfileModelFromXSpace(space, {});
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? std::move(*model) : ProfileModel();
}

}  // namespace stepscope::analysis::testing
