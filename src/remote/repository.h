// Where a TensorFlow-style Profile request may make this worker write a file, and the
// write itself, confined to the repository root the worker was started with.
//
// TensorFlow's clients (TensorBoard's "Capture Profile", tf.profiler.experimental.client.
// trace) do not ask for emit_xspace; they send repository_root + session_id and
// TensorFlow's server writes <repository_root>/<session_id>/<host>.xplane.pb wherever any
// network peer asks. Ours writes only below ProfilerServerOptions::repository_root:
//   - the request's repository_root must be that root or a path beneath it (a relative
//     one is taken relative to the root; empty means the root itself);
//   - a '..' component anywhere, an absolute path elsewhere, or a symbolic link on the way
//     (each directory below the root is opened with O_NOFOLLOW, the file is created with
//     O_EXCL under a temporary name and renamed into place) -> kPermissionDenied naming
//     the allowed root;
//   - session_id and the host are single path components (kInvalidArgument otherwise).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "stepscope/status.h"

namespace stepscope::remote {

struct RepositoryTarget {
  std::string root;                      // the configured root, absolute and normalized
  std::vector<std::string> directories;  // below root: the request's part, then session_id
  std::string file_name;                 // <host>.xplane.pb
  // root/directories.../file_name, for messages and tests.
  std::string path() const;
};

// The configured root as the server keeps it: absolute, normalized, no trailing '/'.
// kInvalidArgument for a remote filesystem ("gs://...").
StatusOr<std::string> NormalizeRepositoryRoot(const std::string& configured_root);

// Resolves a request against `configured_root` (as NormalizeRepositoryRoot returns it).
// Pure: looks at no file (symbolic links are refused by WriteRepositoryFile).
StatusOr<RepositoryTarget> ResolveRepositoryTarget(const std::string& configured_root,
                                                   const std::string& requested_root, const std::string& session_id,
                                                   const std::string& host);

// Creates target.directories below target.root (0755) and writes `bytes` to the file
// atomically, following no symbolic link below the root (the root itself may be one:
// the worker's operator chose it). kPermissionDenied for a link or non-directory on the
// way; kIoError when the disk refuses (full, read-only), kInternal when the root cannot
// be opened.
Status WriteRepositoryFile(const RepositoryTarget& target, std::string_view bytes);

}  // namespace stepscope::remote
