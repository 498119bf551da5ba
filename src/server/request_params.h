// Checks on the names a client sends (run, host, tool, table) before anything is looked up.
//
// The server never builds a file path from a request: a run is found by exact name in the
// logdir listing, a host in that run's listing. These checks are a second wall and give
// traversal attempts a clear 400 instead of a 404: "../x", "/etc", "a/../../b", names
// with NUL or control bytes, backslashes, and names still holding percent-encoded dots or
// slashes after the one decoding HTTP does ("%2e%2e%2f" arrives here as "../"; a
// double-encoded "%252e" arrives as "%2e" and is refused too).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "stepscope/status.h"

namespace stepscope::server {

// Longer names are refused: run and host names are file names (255 bytes on Linux), a
// nested run adds a few directory levels.
inline constexpr size_t kMaxNameBytes = 1024;

// kInvalidArgument naming `what` ("run", "host", ...) when `value` is empty, too long,
// or could address something outside the logdir. Nested run names ("sub/run") pass.
Status ValidateName(std::string_view what, std::string_view value);

// Query parameters as decoded by the HTTP layer; a key may repeat.
using QueryParams = std::multimap<std::string, std::string>;
// Checked parameters: each key once.
using Params = std::map<std::string, std::string, std::less<>>;

// Each known key (required or optional) at most once, every required key present, and the
// names (run, host, tool, table, and /api/compare's run_a, run_b, host_a, host_b) safe by ValidateName; kInvalidArgument saying which rule
// failed and, for an unknown key, which keys the endpoint takes.
StatusOr<Params> CheckParams(const QueryParams& query, const std::vector<std::string_view>& required,
                             const std::vector<std::string_view>& optional);

// The value of `key`, or "" when absent.
std::string Get(const Params& params, std::string_view key);

}  // namespace stepscope::server
