#include "src/server/http_responder.h"

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <exception>
#include <utility>

#include "src/base/gzip.h"
#include "src/server/worker_pool.h"

namespace stepscope::server {
namespace {

// Response bytes to a non-blocking socket. A client that does not read makes the writer
// wait (with WorkerPool::ClientWait, so another thread serves others meanwhile) for at
// most the stall timeout per write that makes no progress.
class SocketOutput : public HttpResponder::Output {
 public:
  SocketOutput(int fd, int write_stall_timeout_ms) : fd_(fd), write_stall_timeout_ms_(write_stall_timeout_ms) {}

  bool Write(std::initializer_list<std::string_view> parts) override {
    iovec vectors[8];
    size_t count = 0;
    for (std::string_view part : parts) {
      if (part.empty()) continue;
      vectors[count++] = iovec{const_cast<char*>(part.data()), part.size()};
      if (count == std::size(vectors)) break;  // callers pass at most 3
    }
    iovec* next = vectors;
    while (count > 0) {
      msghdr message{};
      message.msg_iov = next;
      message.msg_iovlen = count;
      ssize_t sent = ::sendmsg(fd_, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (sent < 0) {
        if (errno == EINTR) continue;
        if ((errno != EAGAIN && errno != EWOULDBLOCK) || !WaitWritable()) return false;
        continue;
      }
      auto left = static_cast<size_t>(sent);
      while (count > 0 && left >= next->iov_len) {
        left -= next->iov_len;
        ++next;
        --count;
      }
      if (count > 0) {
        next->iov_base = static_cast<char*>(next->iov_base) + left;
        next->iov_len -= left;
      }
    }
    return true;
  }

 private:
  bool WaitWritable() const {
    if (PollWritable(0)) return true;
    WorkerPool::ClientWait waiting;  // the client is not reading: let another thread serve others
    return PollWritable(write_stall_timeout_ms_);
  }

  bool PollWritable(int timeout_ms) const {
    pollfd entry{fd_, POLLOUT, 0};
    for (;;) {
      int ready = ::poll(&entry, 1, timeout_ms);
      if (ready < 0 && errno == EINTR) continue;
      return ready > 0 && (entry.revents & POLLOUT) != 0;
    }
  }

  int fd_;
  int write_stall_timeout_ms_;
};

class StringOutput : public HttpResponder::Output {
 public:
  explicit StringOutput(std::string* out) : out_(out) {}
  bool Write(std::initializer_list<std::string_view> parts) override {
    for (std::string_view part : parts) out_->append(part);
    return true;
  }

 private:
  std::string* out_;
};

// A path the route `prefix.*` matches: std::regex's '.' takes any byte but CR and LF.
bool MatchesPrefix(const std::string& path, const std::string& prefix) {
  return path.compare(0, prefix.size(), prefix) == 0 && path.find_first_of("\r\n") == std::string::npos;
}

std::string ChunkSizeLine(size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  do {
    hex.insert(hex.begin(), kDigits[size & 15]);
    size >>= 4;
  } while (size > 0);
  return hex + "\r\n";
}

}  // namespace

void HttpResponder::Get(std::string prefix, HttpHandler handler) {
  routes_.push_back(Route{"GET", std::move(prefix), std::move(handler)});
}

void HttpResponder::Post(std::string path, HttpHandler handler) {
  routes_.push_back(Route{"POST", std::move(path), std::move(handler)});
}

bool HttpResponder::Serve(int fd, std::string_view request, bool last_on_connection,
                          int write_stall_timeout_ms) const {
  SocketOutput out(fd, write_stall_timeout_ms);
  return Answer(request, last_on_connection, out);
}

bool HttpResponder::Respond(std::string_view request, bool last_on_connection, std::string* out) const {
  StringOutput output(out);
  return Answer(request, last_on_connection, output);
}

bool HttpResponder::Answer(std::string_view bytes, bool last_on_connection, Output& out) const {
  HttpRequest request;
  HttpResponse response;
  response.headers = default_headers_;
  bool connection_closed = false;
  bool routed = false;
  if (!ParseHttpRequest(bytes, &request)) {
    response.status = 400;
  } else {
    const std::string connection = request.Header("Connection");
    if (connection == "close") connection_closed = true;
    if (request.version == "HTTP/1.0" && connection != "Keep-Alive") connection_closed = true;
    // stepscope code does not throw; the standard library can (allocation, filesystem).
    try {
      routed = Dispatch(request, response);
    } catch (const std::exception& e) {
      if (exception_handler_) exception_handler_(request, response, e.what());
      routed = true;
    } catch (...) {
      if (exception_handler_) exception_handler_(request, response, "unknown exception");
      routed = true;
    }
  }
  if (response.status == -1) response.status = routed ? 200 : 404;
  bool written = WriteResponse(request, response, last_on_connection, out);
  return written && !connection_closed && !last_on_connection;
}

bool HttpResponder::Dispatch(const HttpRequest& request, HttpResponse& response) const {
  if (pre_routing_ && pre_routing_(request, response)) return true;
  const bool get = request.method == "GET" || request.method == "HEAD";
  for (const Route& route : routes_) {
    if (route.method == "GET" ? get && MatchesPrefix(request.path, route.path)
                              : request.method == route.method && request.path == route.path) {
      route.handler(request, response);
      return true;
    }
  }
  if (get || request.method == "POST") return false;  // 404
  response.status = 400;  // a method no route takes
  return false;
}

bool HttpResponder::WriteResponse(const HttpRequest& request, HttpResponse& response, bool close_connection,
                                  Output& out) const {
  if (response.status >= 400 && error_handler_) error_handler_(request, response);
  const bool gzip = AcceptsGzip(request) && IsCompressibleContentType(response.Header("Content-Type"));
  if (response.stream) {
    response.SetHeader("Transfer-Encoding", "chunked");
    if (gzip) response.SetHeader("Content-Encoding", "gzip");
  } else if (!response.body.empty()) {
    if (gzip) {
      auto compressed = base::Gzip(response.body, 6);
      if (compressed.ok()) {
        response.body = std::move(compressed).value();
        response.SetHeader("Content-Encoding", "gzip");
      }
    }
    response.SetHeader("Content-Length", std::to_string(response.body.size()));
  }
  if (close_connection || request.Header("Connection") == "close") {
    response.SetHeader("Connection", "close");
  } else {
    response.SetHeader("Keep-Alive",
                       "timeout=" + std::to_string(keep_alive_timeout_s_) + ", max=" + std::to_string(keep_alive_max_));
  }
  if (!response.HasHeader("Content-Type") && (!response.body.empty() || response.stream)) {
    response.SetHeader("Content-Type", "text/plain");
  }
  if (!response.HasHeader("Content-Length") && response.body.empty() && !response.stream) {
    response.SetHeader("Content-Length", "0");
  }

  std::string head = "HTTP/1.1 " + std::to_string(response.status) + " " + HttpStatusText(response.status) + "\r\n";
  for (const auto& [name, value] : response.headers) {
    head.append(name).append(": ").append(value).append("\r\n");
  }
  head += "\r\n";
  // Head and body in one write (with TCP_NODELAY, two writes are two packets).
  if (request.method == "HEAD") return out.Write({head});
  if (!response.stream) return out.Write({head, response.body});
  return out.Write({head}) && WriteStream(response, gzip, out);
}

bool HttpResponder::WriteStream(HttpResponse& response, bool gzip, Output& out) const {
  auto chunk = [&out](std::string_view payload) {
    if (payload.empty()) return true;
    return out.Write({ChunkSizeLine(payload.size()), payload, "\r\n"});
  };
  bool ok = false;
  if (gzip) {
    base::GzipDeflater deflater(chunk);
    ok = response.stream([&](std::string_view piece) { return !shutting_down_ && deflater.Write(piece); }) &&
         deflater.Finish();
  } else {
    ok = response.stream([&](std::string_view piece) { return !shutting_down_ && chunk(piece); });
  }
  return ok && out.Write({"0\r\n\r\n"});
}

}  // namespace stepscope::server
