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
// kIoError when writing fails (disk full, file too large, I/O error), kInvalidArgument
// when `path` cannot be created at all (no such directory, no permission).
Status WriteFileAtomically(const std::string& path, std::string_view data);

// Creates `path` and missing parents. OK if it already exists as a directory. Errors as
// WriteFileAtomically's.
Status CreateDirectories(const std::string& path);

// kOk when a file can be created in the directory `dir` (one is created and removed);
// otherwise OutputFileError's status naming `dir`. For writers that run much later (a
// profiling session writes at stop), so that a read-only logdir fails at once.
Status CheckWritableDirectory(const std::string& dir);

// The status for failing to create or write an output file with `errno_value`: kIoError
// when the storage failed (ENOSPC, EDQUOT, EFBIG, EIO), kPermissionDenied when it may not
// be written (EACCES, EPERM, EROFS), kInvalidArgument for a path that cannot be used
// (ENOENT, ENOTDIR, ...). The one rule every writer of output uses, so
// a full disk is the same exit code from every command (src/cli/exit_code.h).
Status OutputFileError(int errno_value, std::string message);

}  // namespace stepscope::base
