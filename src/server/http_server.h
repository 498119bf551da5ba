// `stepscope serve`: the HTTP server that puts ApiRoutes and the built UI on a socket.
//
// Our connection front reads each request whole (ConnectionFront), so slow or hostile
// clients never hold a worker; a worker then parses, routes and answers it (HttpResponder:
// our own HTTP/1.1 code, no HTTP library).
// Security defaults (docs/server.md, Security):
//   - binds 127.0.0.1 unless told otherwise;
//   - while bound to a loopback address, requests must name a loopback Host: `localhost`,
//     an IPv4 literal in 127.0.0.0/8 or `[::1]`, optional port (loopback_host.h), so a page
//     elsewhere cannot reach the API through DNS rebinding; a state-changing request's
//     Origin, when sent, must be the same loopback origin (or listed below);
//   - no CORS headers unless origins are listed explicitly (exact match);
//   - only GET and HEAD (and POST /api/capture); request bodies over kMaxRequestBodyBytes
//     (chunked or not), request lines and header lines over 8 KiB, heads over 32 KiB are
//     refused while they arrive (413 / 414 / 431); a request must arrive whole within
//     request_timeout_ms (408);
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
  size_t model_cache_bytes = 0;  // 0: half of --max_memory_mb (ProfileStoreOptions)
  bool separate_runs = false;    // no sessions assembled from run directories (load::ListOptions)
  int worker_threads = 8;  // concurrent requests; results are computed once regardless
  // A request must arrive whole within this time of its first byte (408 otherwise); a
  // kept-alive connection waits idle_timeout_ms for its next request.
  int request_timeout_ms = 10'000;
  int idle_timeout_ms = 5'000;
  size_t max_connections = 256;  // open at once; a new one evicts the oldest idle one
  // POST /api/capture bounds (capture_route.h; the defaults are remote::CaptureOptions').
  static constexpr int kDefaultCaptureMaxWorkers = 256;
  static constexpr uint64_t kDefaultCaptureMaxResponseBytes = uint64_t{2} << 30;
  int capture_max_workers = kDefaultCaptureMaxWorkers;
  uint64_t capture_max_response_bytes = kDefaultCaptureMaxResponseBytes;
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
