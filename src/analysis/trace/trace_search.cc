#include "src/analysis/trace/trace_search.h"

#include <algorithm>
#include <map>
#include <utility>

namespace stepscope::analysis::trace {
namespace {

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool ContainsIgnoringCase(std::string_view haystack, std::string_view lowered_needle) {
  if (lowered_needle.size() > haystack.size()) return false;
  for (size_t i = 0; i + lowered_needle.size() <= haystack.size(); ++i) {
    size_t j = 0;
    while (j < lowered_needle.size() && Lower(haystack[i + j]) == lowered_needle[j]) ++j;
    if (j == lowered_needle.size()) return true;
  }
  return false;
}

// Keeps the `limit` earliest matches when `matches` has grown to twice that.
void Trim(std::vector<SearchMatch>* matches, size_t limit) {
  std::nth_element(matches->begin(), matches->begin() + static_cast<std::ptrdiff_t>(limit), matches->end());
  matches->resize(limit);
}

}  // namespace

StatusOr<SearchResult> SearchEvents(const TraceIndex& index, std::string_view query) {
  if (query.empty()) return InvalidArgumentError("the search query is empty");
  if (query.size() > kMaxSearchQueryBytes) {
    return InvalidArgumentError("the search query is longer than " + std::to_string(kMaxSearchQueryBytes) + " bytes");
  }
  std::string needle;
  for (char c : query) needle.push_back(Lower(c));
  SearchResult result;
  result.query = std::string(query);
  // Which metadata match, once per plane.
  std::map<const xspace::ColumnarPlane*, std::vector<uint8_t>> matching;
  for (uint32_t t = 0; t < index.tracks().size(); ++t) {
    const TraceTrack& track = index.tracks()[t];
    const xspace::ColumnarPlane& plane = index.plane_of(track);
    auto [it, inserted] = matching.try_emplace(&plane);
    std::vector<uint8_t>& match = it->second;
    if (inserted) {
      match.resize(plane.event_metadata.size());
      for (size_t m = 0; m < match.size(); ++m) {
        const auto& metadata = plane.event_metadata[m];
        match[m] = ContainsIgnoringCase(metadata.name, needle) || ContainsIgnoringCase(metadata.display_name, needle);
      }
    }
    if (std::find(match.begin(), match.end(), 1) == match.end()) continue;
    const xspace::ColumnarLine& line = plane.lines[track.line];
    const int64_t shift = index.shift_ps(t);
    const bool has_aggregated = !plane.aggregated_events.empty();
    for (uint32_t e = line.event_begin; e < line.event_end; ++e) {
      if (!match[plane.event_metadata_index[e]]) continue;
      if (has_aggregated && !index.IsTrackEvent(t, e)) continue;
      ++result.total;
      result.matches.push_back(SearchMatch{plane.event_start_ps[e] + shift, t, e});
      if (result.matches.size() >= 2 * kMaxSearchMatches) Trim(&result.matches, kMaxSearchMatches);
    }
  }
  if (result.matches.size() > kMaxSearchMatches) Trim(&result.matches, kMaxSearchMatches);
  std::sort(result.matches.begin(), result.matches.end());
  result.matches.shrink_to_fit();
  return result;
}

int64_t StepSearch(const SearchResult& result, const SearchMatch& cursor, bool next) {
  const auto& matches = result.matches;
  if (matches.empty()) return -1;
  if (next) {
    auto it = std::upper_bound(matches.begin(), matches.end(), cursor);
    return it == matches.end() ? 0 : it - matches.begin();
  }
  auto it = std::lower_bound(matches.begin(), matches.end(), cursor);
  return it == matches.begin() ? static_cast<int64_t>(matches.size()) - 1 : (it - matches.begin()) - 1;
}

}  // namespace stepscope::analysis::trace
