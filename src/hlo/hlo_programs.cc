#include "src/hlo/hlo_programs.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "src/base/memory_budget.h"
#include "src/xspace/columnar/columnar_xspace.h"
#include "src/xspace/schema.h"

namespace stepscope::hlo {
namespace {

// Reads one blob; `where` names it in diagnostics (the event metadata's name).
// One serialized program of the profile and the name of the metadata or event holding it.
struct HloBlob {
  std::string_view bytes;
  std::string where;
};

void CollectPlaneBlobs(const xspace::ColumnarPlane& plane, std::vector<HloBlob>* blobs) {
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
      if (is_hlo(stat)) blobs->push_back({plane.AsString(stat), metadata.name});
    }
  }
  // Stats of events (a writer may add an event per module instead).
  for (uint32_t e = 0; e < plane.num_events(); ++e) {
    for (uint32_t s = plane.event_stats_begin[e]; s < plane.event_stats_begin[e + 1]; ++s) {
      xspace::ColumnarStat stat = plane.event_stat(s);
      if (is_hlo(stat)) blobs->push_back({plane.AsString(stat), std::string(plane.event_name(e))});
    }
  }
}

// What all programs of one file may cost decoded: linear in their bytes (with one floor
// for the file, not one per program: a thousand small programs must not each get it),
// and at most half the memory budget.
int64_t FileDecodedBytesAllowed(const std::vector<HloBlob>& blobs, const HloReadLimits& limits) {
  int64_t total = 0;
  for (const HloBlob& blob : blobs) total += static_cast<int64_t>(blob.bytes.size());
  HloReadLimits file = limits;
  file.max_decoded_bytes = std::min<int64_t>(limits.max_decoded_bytes,
                                             static_cast<int64_t>(std::min<uint64_t>(base::MemoryBudgetBytes() / 2, INT64_MAX)));
  return DecodedBytesAllowed(file, total);
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
  std::vector<HloBlob> blobs;
  for (const xspace::ColumnarPlane& plane : space.planes) {
    if (plane.name == xspace::kMetadataPlaneName) CollectPlaneBlobs(plane, &blobs);
  }
  // Each module read takes its cost from what is left, so two programs cannot take twice
  // what one may.
  HloReadLimits left = limits;
  left.max_decoded_bytes = FileDecodedBytesAllowed(blobs, limits);
  for (const HloBlob& blob : blobs) {
    StatusOr<HloModule> module = ParseHloProto(blob.bytes, left);
    if (!module.ok()) {
      out.diagnostics.push_back("HLO of '" + blob.where + "' not read: " + module.status().message());
      continue;
    }
    left.max_decoded_bytes -= std::min(left.max_decoded_bytes, module->memory_bytes);
    out.modules.push_back(std::move(module).value());
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
