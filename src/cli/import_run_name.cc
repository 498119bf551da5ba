#include "src/cli/import_run_name.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "src/xspace/logdir.h"

namespace stepscope::cli {
namespace {

constexpr size_t kMaxRunNameLength = 100;
constexpr std::string_view kFallbackRunName = "imported";

bool IsSeparator(char c) { return c == '_' || c == '-' || c == '.'; }

std::string SanitizeRunName(std::string_view name) {
  std::string out;
  for (char c : name.substr(0, kMaxRunNameLength)) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || IsSeparator(c);
    out.push_back(plain ? c : '_');
  }
  if (out.empty() || out == "." || out == "..") return std::string(kFallbackRunName);
  return out;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Whether a prefix of length n ends where a "word" of `stem` ends: at its end, before a
// separator or a number, or after a separator.
bool EndsAWord(const std::string& stem, size_t n) {
  return n == stem.size() || IsSeparator(stem[n]) || IsDigit(stem[n]) || (n > 0 && IsSeparator(stem[n - 1]));
}

// The common prefix of the stems, cut back to whole words: "job_rank0" and "job_rank1"
// share "job_rank"; "resnet_fast" and "resnet_slow" share "resnet"; "alpha" and "alps"
// share nothing ("alp" names neither).
std::string CommonStemPrefix(const std::vector<std::string>& stems) {
  size_t n = stems.front().size();
  for (const std::string& stem : stems) {
    size_t k = 0;
    while (k < n && k < stem.size() && stems.front()[k] == stem[k]) ++k;
    n = k;
  }
  while (n > 0 && !std::all_of(stems.begin(), stems.end(), [&](const std::string& s) { return EndsAWord(s, n); })) --n;
  std::string prefix = stems.front().substr(0, n);
  while (!prefix.empty() && IsSeparator(prefix.back())) prefix.pop_back();
  return prefix;
}

}  // namespace

std::string TraceFileStem(std::string_view path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (std::string_view suffix : {".pt.trace.json.gz", ".pt.trace.json", ".trace.json.gz", ".trace.json", ".json.gz",
                                  ".json", ".gz"}) {
    if (name.size() > suffix.size() && name.ends_with(suffix)) return name.substr(0, name.size() - suffix.size());
  }
  return name;
}

std::string RunNameForTraces(const std::vector<std::string>& paths) {
  if (paths.empty()) return std::string(kFallbackRunName);
  std::vector<std::string> stems;
  for (const std::string& path : paths) stems.push_back(TraceFileStem(path));
  if (std::all_of(stems.begin(), stems.end(), [&](const std::string& s) { return s == stems.front(); })) {
    return SanitizeRunName(stems.front());
  }
  std::string prefix = CommonStemPrefix(stems);
  if (!prefix.empty()) return SanitizeRunName(prefix);
  return SanitizeRunName(stems.front() + "_and_" + std::to_string(stems.size() - 1) + "_more");
}

std::string FreshRunName(std::string_view logdir, const std::string& name) {
  const std::filesystem::path root(xspace::ProfileRootDir(logdir));
  std::string candidate = name;
  std::error_code ec;
  for (int k = 2; std::filesystem::exists(root / candidate, ec); ++k) candidate = name + "_" + std::to_string(k);
  return candidate;
}

}  // namespace stepscope::cli
