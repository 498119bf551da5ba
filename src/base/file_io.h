// Whole-file reads with size limits, and atomic writes (temp file + fsync + rename), so a
// reader never sees a half-written profile and a failed write never destroys the old one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "stepscope/status.h"

namespace stepscope::base {

// Reads the whole file. Fails with kResourceExhausted when it is larger than max_bytes
// and with kNotFound / kInvalidArgument for missing files or directories.
StatusOr<std::string> ReadFile(const std::string& path, uint64_t max_bytes);

// Writes `data` to `path` atomically: "<path>.tmp.<pid>.<n>" is written and fsynced,
// then renamed over `path`. On failure the temp file is removed and `path` is untouched.
Status WriteFileAtomically(const std::string& path, std::string_view data);

// Creates `path` and missing parents. OK if it already exists as a directory.
Status CreateDirectories(const std::string& path);

}  // namespace stepscope::base
