// Answers the complete requests our connection front (connection_front.h) has read:
// parses each (http_message.h), routes it to a handler by method and path, and writes
// the response to the socket. Our own code over our own sockets; no HTTP library.
//
// What a response carries besides the handler's status, headers and body:
//   - the default headers (SetDefaultHeaders: the security headers of http_server.h);
//   - an error body from SetErrorHandler for any status >= 400 whose body is empty
//     (unknown path, bad request line);
//   - `Connection: close` when this is the connection's last request or the client sent
//     `Connection: close`, `Keep-Alive: timeout=T, max=N` otherwise;
//   - gzip (Content-Encoding: gzip) when the client accepts it and the Content-Type is
//     compressible (IsCompressibleContentType), for buffered and streamed bodies alike;
//   - Content-Length for a buffered body (also for HEAD, which gets no body), chunked
//     Transfer-Encoding for a streamed one (HttpResponse::stream), `text/plain` when a body
//     has no Content-Type.
// A handler that throws is answered by SetExceptionHandler (500). A Range header is
// ignored (the whole body, 200): nothing the server serves is fetched in pieces.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "src/server/http_message.h"

namespace stepscope::server {

using HttpHandler = std::function<void(const HttpRequest&, HttpResponse&)>;

class HttpResponder {
 public:
  // Runs first on every parsed request; returns true when it answered it (no route runs).
  using PreRouting = std::function<bool(const HttpRequest&, HttpResponse&)>;
  using ExceptionHandler = std::function<void(const HttpRequest&, HttpResponse&, const std::string& what)>;

  // Setup, before the first Serve(); not thread-safe.
  void SetDefaultHeaders(HttpHeaders headers) { default_headers_ = std::move(headers); }
  void SetPreRouting(PreRouting handler) { pre_routing_ = std::move(handler); }
  void SetErrorHandler(HttpHandler handler) { error_handler_ = std::move(handler); }
  void SetExceptionHandler(ExceptionHandler handler) { exception_handler_ = std::move(handler); }
  // What the Keep-Alive header announces: the front's idle timeout and requests per connection.
  void SetKeepAlive(int timeout_s, int max_requests) {
    keep_alive_timeout_s_ = timeout_s;
    keep_alive_max_ = max_requests;
  }
  // GET and HEAD of every path that starts with `prefix` and holds no CR or LF (what the
  // regex routes `prefix.*` matched before). Routes are tried in the order added.
  void Get(std::string prefix, HttpHandler handler);
  // POST of exactly `path`.
  void Post(std::string path, HttpHandler handler);

  // Streamed responses end at their next piece from now on: Stop() should not wait for a
  // long export. Thread-safe.
  void BeginShutdown() { shutting_down_ = true; }

  // Answers the one complete request in `request` on `fd` (non-blocking). A write that
  // cannot proceed for write_stall_timeout_ms gives up (the client stopped reading).
  // Returns whether the connection may carry another request: not after a failed write,
  // `Connection: close`, an HTTP/1.0 request without `Connection: Keep-Alive`, or
  // `last_on_connection`. Thread-safe once set up.
  bool Serve(int fd, std::string_view request, bool last_on_connection, int write_stall_timeout_ms) const;

  // The same, with the response's bytes appended to `*out` (tests).
  bool Respond(std::string_view request, bool last_on_connection, std::string* out) const;

  // Where a response goes: all of `parts` in order, or false (the connection failed).
  class Output {
   public:
    virtual ~Output() = default;
    virtual bool Write(std::initializer_list<std::string_view> parts) = 0;
  };

 private:
  struct Route {
    std::string method;  // "GET" (also serves HEAD) or "POST"
    std::string path;    // the prefix (GET) or the exact path (POST)
    HttpHandler handler;
  };

  bool Answer(std::string_view request, bool last_on_connection, Output& out) const;
  // Runs the pre-routing hook and the matching route; false when none handled it.
  bool Dispatch(const HttpRequest& request, HttpResponse& response) const;
  bool WriteResponse(const HttpRequest& request, HttpResponse& response, bool close_connection, Output& out) const;
  bool WriteStream(HttpResponse& response, bool gzip, Output& out) const;

  HttpHeaders default_headers_;
  PreRouting pre_routing_;
  HttpHandler error_handler_;
  ExceptionHandler exception_handler_;
  int keep_alive_timeout_s_ = 5;
  int keep_alive_max_ = 100;
  std::vector<Route> routes_;
  std::atomic<bool> shutting_down_{false};
};

}  // namespace stepscope::server
