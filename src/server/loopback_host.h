// Which names address this machine in a way no DNS answer can change: the Host and Origin
// checks of a loopback-bound `stepscope serve` (DNS rebinding).
//
// A page on http://127.evil.example:6006/ whose name the attacker's DNS points at
// 127.0.0.1 reaches a loopback server with `Host: 127.evil.example:6006`, and its Origin
// matches that Host. So a name counts as loopback only when it is an address literal or
// `localhost` (resolved from /etc/hosts, never by a DNS server):
//   - `localhost` (ASCII case-insensitive, no trailing dot);
//   - an IPv4 literal in 127.0.0.0/8 in dotted-quad form (parsed with inet_pton, so
//     `127.evil.example`, `127.0.0.1.evil.example`, `127.1` and `0x7f.0.0.1` are names,
//     not loopback);
//   - `[::1]` in a Host or Origin (any spelling inet_pton reads as ::1), `::1` bare in a
//     bind address.
// A port, when present, is 1 to 5 digits with a value in 1..65535.
#pragma once

#include <string_view>

namespace stepscope::server {

// `address` without a port, as given to --bind: "localhost", "127.x.y.z" or "::1".
bool IsLoopbackAddress(std::string_view address);

// A Host header value: a loopback name (IPv6 in brackets) with an optional ":port".
bool IsLoopbackHost(std::string_view host);

// An Origin header value: "http://" followed by what IsLoopbackHost accepts. `null`,
// https and any path or userinfo are not loopback origins.
bool IsLoopbackOrigin(std::string_view origin);

}  // namespace stepscope::server
