#include "src/hlo/hlo_programs.h"

#include <algorithm>
#include <string>
#include <utility>

#include "src/xspace/columnar/columnar_xspace.h"
#include "src/xspace/schema.h"

namespace stepscope::hlo {
namespace {

// Reads one blob; `where` names it in diagnostics (the event metadata's name).
void AddModule(std::string_view bytes, const std::string& where, const HloReadLimits& limits, HloPrograms* out) {
  StatusOr<HloModule> module = ParseHloProto(bytes, limits);
  if (!module.ok()) {
    out->diagnostics.push_back("HLO of '" + where + "' not read: " + module.status().message());
    return;
  }
  out->modules.push_back(std::move(module).value());
}

void ReadPlane(const xspace::ColumnarPlane& plane, const HloReadLimits& limits, HloPrograms* out) {
  std::vector<bool> is_hlo_stat(plane.stat_metadata.size());
  bool any = false;
  for (size_t i = 0; i < plane.stat_metadata.size(); ++i) {
    is_hlo_stat[i] = plane.stat_metadata[i].name == kHloProtoStatName;
    any |= is_hlo_stat[i];
  }
  if (!any) return;
  auto is_hlo = [&](const xspace::ColumnarStat& stat) {
    return stat.metadata_index < is_hlo_stat.size() && is_hlo_stat[stat.metadata_index] &&
           (stat.kind == xspace::StatKind::kBytes || stat.kind == xspace::StatKind::kStr);
  };
  // Stats every event of a metadata has: XLA's own layout (metadata without events).
  for (const xspace::ColumnarEventMetadata& metadata : plane.event_metadata) {
    for (uint32_t s = metadata.stats_begin; s < metadata.stats_end && s < plane.other_stats.size(); ++s) {
      const xspace::ColumnarStat& stat = plane.other_stats[s];
      if (is_hlo(stat)) AddModule(plane.AsString(stat), metadata.name, limits, out);
    }
  }
  // Stats of events (a writer may add an event per module instead).
  for (uint32_t e = 0; e < plane.num_events(); ++e) {
    for (uint32_t s = plane.event_stats_begin[e]; s < plane.event_stats_begin[e + 1]; ++s) {
      xspace::ColumnarStat stat = plane.event_stat(s);
      if (is_hlo(stat)) AddModule(plane.AsString(stat), std::string(plane.event_name(e)), limits, out);
    }
  }
}

}  // namespace

int32_t HloPrograms::Find(std::string_view name, int64_t program_id) const {
  if (program_id >= 0) {
    for (size_t i = 0; i < modules.size(); ++i) {
      if (modules[i].id == program_id && (name.empty() || modules[i].name == name)) return static_cast<int32_t>(i);
    }
  }
  if (name.empty()) return -1;
  int32_t found = -1;
  for (size_t i = 0; i < modules.size(); ++i) {
    if (modules[i].name != name) continue;
    if (found >= 0) return -1;  // ambiguous without a program id
    found = static_cast<int32_t>(i);
  }
  return found;
}

HloPrograms ReadHloPrograms(const xspace::ColumnarXSpace& space, const HloReadLimits& limits) {
  HloPrograms out;
  for (const xspace::ColumnarPlane& plane : space.planes) {
    if (plane.name == xspace::kMetadataPlaneName) ReadPlane(plane, limits, &out);
  }
  std::stable_sort(out.modules.begin(), out.modules.end(), [](const HloModule& a, const HloModule& b) {
    return a.name != b.name ? a.name < b.name : a.id < b.id;
  });
  // A module the profile lists twice (metadata and event) is one program.
  out.modules.erase(std::unique(out.modules.begin(), out.modules.end(),
                                [](const HloModule& a, const HloModule& b) { return a.name == b.name && a.id == b.id; }),
                    out.modules.end());
  for (const HloModule& module : out.modules) {
    for (const std::string& problem : module.diagnostics) {
      out.diagnostics.push_back("module " + module.DisplayName() + ": " + problem);
    }
  }
  return out;
}

std::shared_ptr<const HloPrograms> MergeHloPrograms(const std::vector<std::shared_ptr<const HloPrograms>>& parts) {
  std::shared_ptr<const HloPrograms> largest;
  for (const auto& part : parts) {
    if (part && (!largest || part->modules.size() > largest->modules.size())) largest = part;
  }
  if (!largest) return nullptr;
  auto contains = [](const HloPrograms& set, const HloModule& m) {
    return std::any_of(set.modules.begin(), set.modules.end(),
                       [&](const HloModule& x) { return x.name == m.name && x.id == m.id; });
  };
  bool complete = true;
  for (const auto& part : parts) {
    if (!part) continue;
    for (const HloModule& m : part->modules) complete = complete && contains(*largest, m);
  }
  if (complete) return largest;
  auto merged = std::make_shared<HloPrograms>();
  for (const auto& part : parts) {
    if (!part) continue;
    for (const HloModule& m : part->modules) {
      if (!contains(*merged, m)) merged->modules.push_back(m);
    }
  }
  std::stable_sort(merged->modules.begin(), merged->modules.end(), [](const HloModule& a, const HloModule& b) {
    return a.name != b.name ? a.name < b.name : a.id < b.id;
  });
  return merged;
}

}  // namespace stepscope::hlo
