// Test support: a disk that fills up mid-write, for one piece of code.
#pragma once

#include <cstddef>
#include <functional>

namespace stepscope::base {

// Runs `body` in a forked child whose files may not grow past `limit_bytes` (RLIMIT_FSIZE
// with SIGXFSZ ignored, so write() fails with EFBIG as on a full disk) and returns what
// `body` returned, as the child's exit code; -1 when the child did not exit normally, 100
// when the limit could not be set.
int ExitCodeWithFileSizeLimit(size_t limit_bytes, const std::function<int()>& body);

}  // namespace stepscope::base
