// `stepscope serve`: the HTTP server that puts ApiRoutes and the built UI on a socket.
//
// A thin adapter (cpp-httplib) over ApiRoutes and StaticFiles. Security defaults:
//   - binds 127.0.0.1 unless told otherwise;
//   - while bound to a loopback address, requests must name a loopback Host
//     (127.0.0.1, localhost, [::1]): a web page elsewhere cannot reach the API through DNS
//     rebinding;
//   - no CORS headers unless origins are listed explicitly (exact match);
//   - only GET and HEAD; request bodies over kMaxRequestBodyBytes, URIs and headers over
//     8 KiB are refused (413 / 414 / 400);
//   - every response carries a Content-Security-Policy that lets the page load and
//     connect to its own origin only, so the UI cannot reach anything outside localhost.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "src/server/profile_store.h"
#include "stepscope/status.h"

namespace stepscope::server {

// A GET has no body; anything larger than this is not a request we serve.
inline constexpr size_t kMaxRequestBodyBytes = 64 * 1024;

struct ServerOptions {
  std::string logdir;
  std::string bind_address = "127.0.0.1";
  int port = 6006;         // 0: any free port (tests)
  std::string ui_dir;      // empty: FindUiDir's search order
  std::vector<std::string> cors_origins;  // e.g. "http://localhost:5173" for `vite dev`
  size_t result_cache_bytes = size_t{256} << 20;
  size_t model_cache_bytes = size_t{4} << 30;
  int worker_threads = 8;  // concurrent requests; results are computed once regardless
};

class HttpServer {
 public:
  // Checks the options and binds the port (so port() is known before Run()).
  static StatusOr<std::unique_ptr<HttpServer>> Create(const ServerOptions& options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  int port() const;
  // "http://127.0.0.1:6006/" (the address a browser on this machine should open).
  std::string url() const;
  // The UI directory served, "" when the UI is not built.
  const std::string& ui_dir() const;
  ProfileStore& store();

  // Serves until Stop() is called; in-flight requests finish first.
  Status Run();
  // Thread-safe; may be called before, during or after Run().
  void Stop();

 private:
  struct Impl;
  explicit HttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace stepscope::server
