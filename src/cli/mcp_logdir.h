// The logdir the MCP server was given, as the only place it reads: runs and hosts are
// names chosen from its listing, never paths, and nothing reached through a symlink that
// leads outside it is read.
//
// Why both: a name check alone ("..", "/", NUL) stops a client from naming a path, but a
// symlink inside the logdir (a run directory or a profile file) could still point at any
// file of the machine; so every run directory and file is resolved (realpath) and kept
// only when it lies under the logdir's own real path. The listing is re-read on every
// call, so runs written while the server runs appear.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/load/profile_loader.h"
#include "stepscope/status.h"

namespace stepscope::cli::mcp {

class ConfinedLogdir {
 public:
  // kNotFound when `path` does not exist, kInvalidArgument when it is not a directory.
  static StatusOr<ConfinedLogdir> Open(const std::string& path);

  const std::string& path() const { return path_; }

  // Every run whose directory lies inside the logdir, with only its files that do too;
  // runs left with no file are left out. Empty (not an error) when there are none yet.
  StatusOr<std::vector<load::RunProfiles>> Runs() const;

  // The run `run` (empty: the newest) and host `host` (empty or "all": every host), as
  // load::SelectRun chooses them among Runs(). kInvalidArgument for a name that is not a
  // plain name (CheckName).
  StatusOr<load::ResolvedProfile> Select(const std::string& run, const std::string& host) const;

 private:
  ConfinedLogdir(std::string path, std::string real_path) : path_(std::move(path)), real_path_(std::move(real_path)) {}
  bool Inside(const std::string& path) const;

  std::string path_;
  std::string real_path_;  // no trailing '/'
};

// What a logdir without runs is told: where runs are expected.
std::string NoRunsMessage(const std::string& logdir);

// OkStatus when `name` can name a run or host: not empty, no NUL or other control
// character, no backslash, not absolute, no "." or ".." component (run names of nested
// logdirs hold '/': "sub/run"). `what` names it in the error ("run", "host").
Status CheckName(std::string_view what, std::string_view name);

}  // namespace stepscope::cli::mcp
