#include "src/importers/import_stats.h"

#include <cstdio>

namespace stepscope::importers {

void ImportStats::Drop(std::string_view reason, uint64_t n) {
  if (n == 0) return;
  dropped[std::string(reason)] += n;
}

void ImportStats::Fix(std::string_view what, uint64_t n) {
  if (n == 0) return;
  fixed[std::string(what)] += n;
}

void ImportStats::Add(const ImportStats& delta) {
  flow_events += delta.flow_events;
  xevents_written += delta.xevents_written;
  for (const auto& [reason, n] : delta.dropped) Drop(reason, n);
  for (const auto& [what, n] : delta.fixed) Fix(what, n);
  if (__builtin_add_overflow(trimmed_ps, delta.trimmed_ps, &trimmed_ps)) trimmed_ps = INT64_MAX;
}

uint64_t ImportStats::DroppedTotal() const {
  uint64_t total = 0;
  for (const auto& [reason, n] : dropped) total += n;
  return total;
}

std::vector<std::string> ImportStats::Warnings() const {
  std::vector<std::string> warnings;
  if (truncated) warnings.push_back("import: " + truncation + "; the events before the cut were imported");
  for (const auto& [reason, n] : dropped) {
    warnings.push_back("import: dropped " + std::to_string(n) + " of " + std::to_string(events_read) +
                       " events: " + reason);
  }
  for (const auto& [what, n] : fixed) {
    std::string line = "import: fixed " + std::to_string(n) + (n == 1 ? " time: " : " times: ") + what;
    warnings.push_back(line);
  }
  if (trimmed_ps > 0) {
    char text[64];
    std::snprintf(text, sizeof(text), "%.3f", static_cast<double>(trimmed_ps) / 1e6);
    warnings.push_back(std::string("import: overlap fixes trimmed ") + text + " us of event time in total");
  }
  return warnings;
}

}  // namespace stepscope::importers
