// Profiler service addresses as users and TensorFlow write them:
//   "grpc://10.0.0.1:6009,grpc://10.0.0.2:6009"  or  "localhost:6009"
// Each comma-separated entry may carry a leading "grpc://" (stripped, as TensorFlow's
// client does) and must be host:port with a numeric port, no '/', and a non-empty host
// (TensorFlow's rule). A bracketed IPv6 host ("[::1]:6009") is also accepted.
//
// gRPC reads a target as a URI: "unix:1234" would connect to a Unix socket named 1234 in
// the current directory, so "grpc://unix:1234" did. Host:port entries therefore reach
// gRPC as "dns:///host:port" (ChannelTarget), and a host that is a gRPC scheme is refused.
// A Unix socket is asked for explicitly, as "unix:/absolute/path", where the caller
// allows it (the CLI and Python do; `serve`'s POST /api/capture does not).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "stepscope/status.h"

namespace stepscope::remote {

// Upper bound on workers in one capture: one thread and one connection each.
inline constexpr size_t kMaxServiceAddresses = 1024;

// Validated "host:port" entries in the given order. Empty entries (",,", a trailing
// comma) and surrounding spaces are ignored; duplicates are an error (two captures of
// one process would fight for its single capture slot).
enum class UnixSockets { kRefused, kAllowed };
StatusOr<std::vector<std::string>> ParseServiceAddresses(std::string_view list,
                                                         UnixSockets unix_sockets = UnixSockets::kRefused);

// kInvalidArgument naming `address` and what is wrong with it.
Status ValidateServiceAddress(std::string_view address, UnixSockets unix_sockets = UnixSockets::kRefused);

// True for an explicit "unix:/path" entry.
bool IsUnixSocketAddress(std::string_view address);

// What gRPC is given for a validated address: "dns:///host:port", or the Unix socket
// entry as written.
std::string ChannelTarget(std::string_view address);

}  // namespace stepscope::remote
