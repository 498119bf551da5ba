// What the MCP server keeps between questions: the last few profile models and trace
// indexes it built, so a second question about the same run answers in milliseconds
// instead of re-reading the profile. Keys carry the files' signature (paths, sizes,
// mtimes: load::FilesSignature), so a rewritten profile is read again and its stale entry
// ages out.
//
// Bounded twice, because one model of a large profile can take gigabytes: at most a few
// entries of each kind, and together at most half the process's memory budget
// (--max_memory_mb), evicting the least recently used. Single-threaded: the server answers
// one request at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/trace/trace_index.h"
#include "src/load/profile_loader.h"
#include "stepscope/status.h"

namespace stepscope::cli::mcp {

// Models kept: a run, its other host or step, and the other side of a diff.
inline constexpr size_t kMaxCachedModels = 4;
// Trace indexes kept: they hold every event's columns, so fewer.
inline constexpr size_t kMaxCachedTraceIndexes = 2;

class ProfileCache {
 public:
  ProfileCache();
  ~ProfileCache();

  // The model of `profile`'s selected files (combined when several), of step `step` alone
  // when set; as `stepscope analyze` builds it (no event trees).
  StatusOr<std::shared_ptr<const analysis::ProfileModel>> Model(const load::ResolvedProfile& profile,
                                                                 std::optional<int64_t> step);
  // The trace viewer's index of `profile`'s selected files.
  StatusOr<std::shared_ptr<const analysis::trace::TraceIndex>> TraceIndex(const load::ResolvedProfile& profile);

  size_t entries() const;
  size_t bytes() const;

 private:
  struct Entries;
  std::unique_ptr<Entries> entries_;
};

}  // namespace stepscope::cli::mcp
