#include "src/server/loopback_host.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cstring>
#include <string>

namespace stepscope::server {
namespace {

bool IsLocalhostName(std::string_view name) {
  constexpr std::string_view kLocalhost = "localhost";
  if (name.size() != kLocalhost.size()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != kLocalhost[i]) return false;
  }
  return true;
}

// inet_pton needs a NUL-terminated string; names longer than any address are not one.
bool ParseIpv4(std::string_view text, in_addr* address) {
  if (text.empty() || text.size() > INET_ADDRSTRLEN) return false;
  return ::inet_pton(AF_INET, std::string(text).c_str(), address) == 1;
}

bool ParseIpv6(std::string_view text, in6_addr* address) {
  if (text.empty() || text.size() > INET6_ADDRSTRLEN) return false;
  return ::inet_pton(AF_INET6, std::string(text).c_str(), address) == 1;
}

bool IsLoopbackIpv4(std::string_view text) {
  in_addr address{};
  if (!ParseIpv4(text, &address)) return false;
  return (ntohl(address.s_addr) >> 24) == 127;  // 127.0.0.0/8
}

bool IsLoopbackIpv6(std::string_view text) {
  in6_addr address{};
  return ParseIpv6(text, &address) && std::memcmp(&address, &in6addr_loopback, sizeof(address)) == 0;
}

// "6006": 1 to 5 digits, 1..65535. An empty port ("localhost:") is not a port.
bool IsPort(std::string_view text) {
  if (text.empty() || text.size() > 5) return false;
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  return value >= 1 && value <= 65535;
}

}  // namespace

bool IsLoopbackAddress(std::string_view address) {
  return IsLocalhostName(address) || IsLoopbackIpv4(address) || IsLoopbackIpv6(address);
}

bool IsLoopbackHost(std::string_view host) {
  std::string_view name = host;
  std::string_view port;
  bool has_port = false;
  if (!host.empty() && host.front() == '[') {
    size_t close = host.find(']');
    if (close == std::string_view::npos) return false;
    name = host.substr(1, close - 1);
    std::string_view rest = host.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return false;
      port = rest.substr(1);
      has_port = true;
    }
    if (has_port && !IsPort(port)) return false;
    return IsLoopbackIpv6(name);
  }
  size_t colon = host.find(':');
  if (colon != std::string_view::npos) {
    name = host.substr(0, colon);
    port = host.substr(colon + 1);
    has_port = true;
  }
  if (has_port && !IsPort(port)) return false;  // also refuses a second ':' (bare IPv6)
  return IsLocalhostName(name) || IsLoopbackIpv4(name);
}

bool IsLoopbackOrigin(std::string_view origin) {
  constexpr std::string_view kScheme = "http://";
  if (origin.substr(0, kScheme.size()) != kScheme) return false;
  return IsLoopbackHost(origin.substr(kScheme.size()));
}

}  // namespace stepscope::server
