#include "src/remote/service_address.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace stepscope::remote {
namespace {

constexpr std::string_view kGrpcScheme = "grpc://";
constexpr std::string_view kUnixScheme = "unix:";
// Target schemes of gRPC's resolvers: as a host they would make "host:port" a URI.
constexpr std::string_view kResolverSchemes[] = {"unix", "unix-abstract", "vsock", "ipv4", "ipv6", "dns", "xds"};

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

Status Invalid(std::string_view address, std::string_view problem) {
  return InvalidArgumentError("service address '" + std::string(address) + "': " + std::string(problem) +
                              " (expected host:port, e.g. grpc://10.0.0.1:6009)");
}

}  // namespace

bool IsUnixSocketAddress(std::string_view address) { return address.substr(0, kUnixScheme.size()) == kUnixScheme; }

std::string ChannelTarget(std::string_view address) {
  if (IsUnixSocketAddress(address)) return std::string(address);
  return "dns:///" + std::string(address);
}

Status ValidateServiceAddress(std::string_view address, UnixSockets unix_sockets) {
  if (IsUnixSocketAddress(address)) {
    if (unix_sockets == UnixSockets::kRefused) {
      return Invalid(address, "'unix:' is a gRPC target scheme, not a host; a Unix socket (unix:/path) is not "
                              "accepted here");
    }
    std::string_view path = address.substr(kUnixScheme.size());
    if (path.empty() || path.front() != '/') {
      return InvalidArgumentError("service address '" + std::string(address) +
                                  "': a Unix socket must be an absolute path (unix:/run/worker.sock)");
    }
    return OkStatus();
  }
  std::string_view host;
  std::string_view port;
  if (!address.empty() && address.front() == '[') {
    size_t close = address.find(']');
    if (close == std::string_view::npos) return Invalid(address, "unterminated '[' in an IPv6 host");
    host = address.substr(1, close - 1);
    if (close + 1 >= address.size() || address[close + 1] != ':') return Invalid(address, "no port after ']'");
    port = address.substr(close + 2);
  } else {
    size_t colon = address.find(':');
    if (colon == std::string_view::npos) return Invalid(address, "no port");
    if (address.find(':', colon + 1) != std::string_view::npos) {
      return Invalid(address, "more than one ':' (write an IPv6 host as [addr]:port)");
    }
    host = address.substr(0, colon);
    port = address.substr(colon + 1);
  }
  if (host.empty()) return Invalid(address, "empty host");
  for (std::string_view scheme : kResolverSchemes) {
    if (host == scheme) {
      return Invalid(address, "'" + std::string(host) +
                                  ":' is a gRPC target scheme, not a host (for a Unix socket write unix:/path)");
    }
  }
  if (host.find('/') != std::string_view::npos || port.find('/') != std::string_view::npos) {
    return Invalid(address, "contains '/'");
  }
  unsigned number = 0;
  auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), number);
  if (port.empty() || error != std::errc() || end != port.data() + port.size()) {
    return Invalid(address, "port '" + std::string(port) + "' is not a number");
  }
  if (number == 0 || number > 65535) return Invalid(address, "port must be 1..65535");
  return OkStatus();
}

StatusOr<std::vector<std::string>> ParseServiceAddresses(std::string_view list, UnixSockets unix_sockets) {
  std::vector<std::string> addresses;
  std::set<std::string> seen;
  while (true) {
    size_t comma = list.find(',');
    std::string_view entry = Trim(list.substr(0, comma));
    bool grpc_scheme = entry.substr(0, kGrpcScheme.size()) == kGrpcScheme;
    if (grpc_scheme) entry.remove_prefix(kGrpcScheme.size());
    if (!entry.empty()) {
      // "grpc://unix:..." is a host named unix, never a socket.
      Status valid = ValidateServiceAddress(entry, grpc_scheme ? UnixSockets::kRefused : unix_sockets);
      if (!valid.ok()) return valid;
      if (!seen.insert(std::string(entry)).second) {
        return InvalidArgumentError("service address '" + std::string(entry) + "' is listed twice");
      }
      addresses.emplace_back(entry);
      if (addresses.size() > kMaxServiceAddresses) {
        return InvalidArgumentError("more than " + std::to_string(kMaxServiceAddresses) + " service addresses");
      }
    }
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  if (addresses.empty()) {
    return InvalidArgumentError("no service address given (expected grpc://host:port[,grpc://host:port...])");
  }
  return addresses;
}

}  // namespace stepscope::remote
