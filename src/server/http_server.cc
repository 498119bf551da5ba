#include "src/server/http_server.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <system_error>

#include "src/base/logging.h"
#include "src/base/status_macros.h"
#include "src/server/api_routes.h"
#include "src/server/capture_route.h"
#include "src/server/connection_front.h"
#include "src/server/http_responder.h"
#include "src/server/loopback_host.h"
#include "src/server/static_files.h"
#include "src/server/trace_routes.h"
#include "src/server/worker_pool.h"

namespace stepscope::server {
namespace {

// ServerOptions states the capture defaults without pulling the gRPC client into its header.
// (Its named constants, not a ServerOptions{}: a struct with strings is a constant
// expression for GCC but not for clang, which builds the fuzzers.)
static_assert(ServerOptions::kDefaultCaptureMaxWorkers == remote::kDefaultMaxCaptureWorkers);
static_assert(ServerOptions::kDefaultCaptureMaxResponseBytes == remote::kDefaultMaxResponseBytes);

// What the UI may load and connect to: its own origin only. echarts sets inline styles.
constexpr const char* kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

// A response write that makes no progress for this long gives up: the client stopped
// reading.
constexpr int kResponseWriteStallMs = 5'000;

void Send(const HttpReply& reply, HttpResponse& res) {
  res.status = reply.status;
  for (const auto& [name, value] : reply.headers) res.SetHeader(name, value);
  res.SetContent(reply.body, reply.content_type);
}

}  // namespace

struct HttpServer::Impl {
  ServerOptions options;
  std::string ui_dir;
  std::unique_ptr<ProfileStore> store;
  std::unique_ptr<ApiRoutes> routes;
  std::unique_ptr<TraceRoutes> trace_routes;  // /api/trace/* (trace viewer)
  std::unique_ptr<StaticFiles> static_files;
  std::unique_ptr<CaptureRoute> capture;
  HttpResponder http;
  std::unique_ptr<ConnectionFront> front;
  std::unique_ptr<WorkerPool> workers;  // exists while Run() runs

  bool AllowedHost(const HttpRequest& req) const {
    if (!IsLoopbackAddress(options.bind_address)) return true;  // the user chose to expose it
    std::string host = req.Header("Host");
    if (host.empty()) return true;  // HTTP/1.0 clients; no browser omits it
    return IsLoopbackHost(host);
  }

  // Runs on the front thread: queue the request for a worker, which answers it and hands
  // the connection back to the front.
  void Dispatch(ReadyRequest request) {
    auto shared = std::make_shared<ReadyRequest>(std::move(request));  // std::function copies
    workers->Enqueue([this, shared] {
      bool keep_alive = http.Serve(shared->fd, shared->bytes, shared->last_on_connection, kResponseWriteStallMs);
      front->Finished(shared->connection_id, keep_alive);
    });
  }

  void AddCors(const HttpRequest& req, HttpResponse& res) const {
    std::string origin = req.Header("Origin");
    if (origin.empty()) return;
    for (const std::string& allowed : options.cors_origins) {
      if (origin == allowed) {
        res.SetHeader("Access-Control-Allow-Origin", origin);
        res.SetHeader("Vary", "Origin");
        return;
      }
    }
  }

  // POST /api/capture makes this process connect to addresses it is given and write into
  // the logdir: offered only by a loopback-bound server, and only to its own pages (or the
  // listed CORS origins). Sends the refusal and returns false otherwise.
  bool CaptureAllowed(const HttpRequest& req, HttpResponse& res) const {
    if (!IsLoopbackAddress(options.bind_address)) {
      Send(ErrorReply(403, "capture is only offered by a server bound to loopback (elsewhere anyone on the "
                           "network could make it connect out and write into the logdir)"),
           res);
      return false;
    }
    // A page's own origin is "http://" + Host, and Host passed AllowedHost; the Origin
    // must pass the same loopback rule itself (a rebinding page's Origin names its DNS
    // name), or be listed exactly.
    std::string origin = req.Header("Origin");
    if (origin.empty()) return true;  // not sent by a browser page: curl, scripts
    for (const std::string& allowed : options.cors_origins) {
      if (origin == allowed) return true;
    }
    if (!IsLoopbackOrigin(origin)) {
      Send(ErrorReply(403, "capture request refused: Origin '" + origin +
                               "' is not http:// and localhost, a 127.0.0.0/8 address or [::1]"),
           res);
      return false;
    }
    if (origin != "http://" + req.Header("Host")) {
      Send(ErrorReply(403, "cross-origin capture request refused (Origin " + origin + ")"), res);
      return false;
    }
    return true;
  }

  void Install() {
    http.SetDefaultHeaders({
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "no-referrer"},
        {"X-Frame-Options", "DENY"},
        {"Content-Security-Policy", kContentSecurityPolicy},
    });
    http.SetPreRouting([this](const HttpRequest& req, HttpResponse& res) {
      // The one write endpoint (capture_route.h); everything else is read-only.
      const bool capture_post = req.method == "POST" && req.path == "/api/capture";
      if (!capture_post && req.method != "GET" && req.method != "HEAD") {
        Send(ErrorReply(405, "method " + req.method + " not allowed; the API is read-only (GET)"), res);
        res.SetHeader("Allow", "GET, HEAD");
        return true;
      }
      if (!AllowedHost(req)) {
        Send(ErrorReply(403, "Host header '" + req.Header("Host") +
                                 "' refused: address the server as localhost, a 127.0.0.0/8 address or [::1] "
                                 "(a DNS name could be rebound to it)"),
             res);
        return true;
      }
      if (capture_post && !CaptureAllowed(req, res)) return true;
      if (req.path.find('\0') != std::string::npos) {
        Send(ErrorReply(400, "NUL in the request path"), res);
        return true;
      }
      return false;
    });
    http.Post("/api/capture", [this](const HttpRequest& req, HttpResponse& res) {
      AddCors(req, res);
      res.SetHeader("Cache-Control", "no-store");
      Send(capture->Handle(req.Header("Content-Type"), req.body), res);
    });
    // The trace viewer's endpoints first (they stream exports), then the tool API.
    InstallTraceRoutes(&http, trace_routes.get(), [this](const HttpRequest& req, HttpResponse& res) {
      AddCors(req, res);
      res.SetHeader("Cache-Control", "no-store");
    });
    http.Get("/api/", [this](const HttpRequest& req, HttpResponse& res) {
      AddCors(req, res);
      HttpReply reply = routes->Handle(req.path, req.params);
      res.SetHeader("Cache-Control", "no-store");
      Send(reply, res);
    });
    http.Get("/", [this](const HttpRequest& req, HttpResponse& res) { Send(static_files->Serve(req.path), res); });
    // Errors the HTTP layer produces itself (a request line it cannot parse, no route)
    // get the same JSON body as ours.
    http.SetErrorHandler([](const HttpRequest& req, HttpResponse& res) {
      if (!res.body.empty()) return;
      std::string message = res.status == 404 ? "not found: " + req.path
                                              : "bad request (HTTP " + std::to_string(res.status) + ")";
      HttpReply reply = ErrorReply(res.status, message);
      res.SetContent(reply.body, reply.content_type);
    });
    http.SetExceptionHandler([](const HttpRequest& req, HttpResponse& res, const std::string& what) {
      base::LogWarning("serve: internal error on %s: %s", req.path.c_str(), what.c_str());
      Send(ErrorReply(500, "internal error while handling the request: " + what), res);
    });
  }
};

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HttpServer::~HttpServer() { Stop(); }

StatusOr<std::unique_ptr<HttpServer>> HttpServer::Create(const ServerOptions& options) {
  if (options.logdir.empty()) return InvalidArgumentError("--logdir is required");
  std::error_code ec;
  if (!std::filesystem::is_directory(options.logdir, ec)) {
    return NotFoundError("no such logdir: " + options.logdir);
  }
  if (options.port < 0 || options.port > 65535) {
    return InvalidArgumentError("--port must be between 0 and 65535, not " + std::to_string(options.port));
  }
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  STEPSCOPE_ASSIGN_OR_RETURN(impl->ui_dir, FindUiDir(options.ui_dir));
  ProfileStoreOptions store_options;
  store_options.logdir = std::filesystem::absolute(options.logdir, ec).lexically_normal().string();
  store_options.result_cache_bytes = options.result_cache_bytes;
  store_options.model_cache_bytes = options.model_cache_bytes;
  store_options.list_options.assemble_sessions = !options.separate_runs;
  impl->store = std::make_unique<ProfileStore>(store_options);
  impl->routes = std::make_unique<ApiRoutes>(impl->store.get());
  impl->trace_routes = std::make_unique<TraceRoutes>(impl->store.get());
  impl->static_files = std::make_unique<StaticFiles>(impl->ui_dir);
  impl->capture = std::make_unique<CaptureRoute>(
      store_options.logdir, CaptureLimits{options.capture_max_workers, options.capture_max_response_bytes});
  impl->Install();

  ConnectionFrontOptions front_options;
  front_options.bind_address = options.bind_address;
  front_options.port = options.port;
  front_options.request_timeout_ms = options.request_timeout_ms;
  front_options.idle_timeout_ms = options.idle_timeout_ms;
  front_options.max_connections = options.max_connections;
  front_options.limits.max_body_bytes = kMaxRequestBodyBytes;
  Impl* raw = impl.get();
  auto front = ConnectionFront::Listen(front_options, [raw](ReadyRequest request) { raw->Dispatch(std::move(request)); });
  if (!front.ok()) {
    std::string hint = options.port == 0 ? "" : " (in use? try --port)";
    return Status(front.status().code(), front.status().message() + hint);
  }
  impl->front = std::move(front).value();
  // What the Keep-Alive response header announces: the front's actual limits.
  impl->http.SetKeepAlive(std::max(1, options.idle_timeout_ms / 1000), front_options.max_requests_per_connection);
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

int HttpServer::port() const { return impl_->front->port(); }

std::string HttpServer::url() const {
  const std::string& bind = impl_->options.bind_address;
  std::string host = (bind == "0.0.0.0" || bind == "::") ? "127.0.0.1" : bind;
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return "http://" + host + ":" + std::to_string(port()) + "/";
}

const std::string& HttpServer::ui_dir() const { return impl_->ui_dir; }
ProfileStore& HttpServer::store() { return *impl_->store; }

Status HttpServer::Run() {
  // Beyond the core, one thread per connection at most: each waits on its own client.
  size_t core = static_cast<size_t>(std::max(1, impl_->options.worker_threads));
  impl_->workers = std::make_unique<WorkerPool>(core, core + impl_->options.max_connections);
  Status status = impl_->front->Run();  // returns once dispatched requests are answered
  impl_->workers->Shutdown();
  impl_->workers.reset();
  return status;
}

void HttpServer::Stop() {
  impl_->http.BeginShutdown();
  impl_->front->Stop();
}

}  // namespace stepscope::server
