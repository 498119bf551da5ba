// Helpers for the `stepscope serve` API tests: synthetic profiles written into a logdir,
// and raw HTTP requests (exact bytes on the wire, so traversal attempts reach the server
// unnormalised by any client library).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "src/xspace/logdir.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::testing {

// A host profile with `steps` training steps on one thread, like stepscope::Step writes
// them: each step "train" (step_num, _r=1) holds a 2 ms IteratorGetNext and a 5 ms MatMul.
inline xspace::XSpace SyntheticProfile(int steps, const std::string& host) {
  xspace::XSpace space;
  space.add_hostnames(host);
  xspace::XPlaneBuilder plane(space.add_planes());
  plane.SetName(xspace::kHostThreadsPlaneName);
  xspace::XLineBuilder line = plane.GetOrCreateLine(1234);
  line.SetName("main");
  line.SetTimestampNs(0);
  const int64_t step_ns = 10'000'000;
  for (int i = 0; i < steps; ++i) {
    const int64_t begin_ns = i * step_ns;
    xspace::XEventBuilder step = line.AddEvent(*plane.GetOrCreateEventMetadata("train"));
    step.SetTimestampNs(begin_ns);
    step.SetDurationNs(step_ns - 100'000);
    step.AddStatValue(*plane.GetOrCreateStatMetadata("step_num"), int64_t{i});
    step.AddStatValue(*plane.GetOrCreateStatMetadata("_r"), int64_t{1});
    xspace::XEventBuilder input = line.AddEvent(*plane.GetOrCreateEventMetadata("IteratorGetNext"));
    input.SetTimestampNs(begin_ns + 100'000);
    input.SetDurationNs(2'000'000);
    xspace::XEventBuilder matmul = line.AddEvent(*plane.GetOrCreateEventMetadata("model/dense/MatMul:MatMul"));
    matmul.SetTimestampNs(begin_ns + 2'200'000);
    matmul.SetDurationNs(5'000'000);
  }
  return space;
}

inline std::string WriteSyntheticRun(const std::string& logdir, const std::string& run, const std::string& host,
                                     int steps) {
  auto path = xspace::WriteXSpaceToLogdir(logdir, run, host, SyntheticProfile(steps, host));
  return path.ok() ? *path : std::string();
}

struct RawResponse {
  int status = 0;
  std::string headers;  // the header block, lower-cased names not normalised
  std::string body;
};

// Sends `request` (a complete HTTP/1.1 request) to 127.0.0.1:port and reads the answer
// until the server closes the connection.
inline RawResponse RawRequest(int port, const std::string& request) {
  RawResponse response;
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return response;
  }
  size_t sent = 0;
  while (sent < request.size()) {
    ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  // Read until the body announced by Content-Length is complete (or the server closes:
  // it keeps a connection open after some errors, and we do not wait for that).
  std::string raw;
  char buffer[65536];
  for (;;) {
    ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) break;
    raw.append(buffer, static_cast<size_t>(n));
    size_t end = raw.find("\r\n\r\n");
    if (end == std::string::npos) continue;
    std::string head = raw.substr(0, end);
    for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    size_t length_at = head.find("\r\ncontent-length:");
    if (length_at != std::string::npos &&
        raw.size() >= end + 4 + std::strtoull(head.c_str() + length_at + 17, nullptr, 10)) {
      break;
    }
  }
  ::close(fd);
  size_t space = raw.find(' ');
  if (space != std::string::npos) response.status = std::atoi(raw.c_str() + space + 1);
  size_t end = raw.find("\r\n\r\n");
  if (end != std::string::npos) {
    response.headers = raw.substr(0, end);
    response.body = raw.substr(end + 4);
  }
  return response;
}

// GET `target` (sent byte for byte) with Connection: close.
inline RawResponse RawGet(int port, const std::string& target, const std::string& extra_headers = "") {
  return RawRequest(port, "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                              "\r\nConnection: close\r\n" + extra_headers + "\r\n");
}

}  // namespace stepscope::testing
