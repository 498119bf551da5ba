#include "src/server/http_server.h"

#include <httplib.h>

#include <atomic>
#include <filesystem>
#include <system_error>
#include <thread>

#include "src/base/logging.h"
#include "src/base/status_macros.h"
#include "src/server/api_routes.h"
#include "src/server/capture_route.h"
#include "src/server/static_files.h"
#include "src/server/trace_routes.h"

namespace stepscope::server {
namespace {

// What the UI may load and connect to: its own origin only. echarts sets inline styles.
constexpr const char* kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

bool IsLoopbackAddress(std::string_view address) {
  return address == "localhost" || address == "::1" || address.rfind("127.", 0) == 0;
}

// The host part of a Host header: "localhost:6006" -> "localhost", "[::1]:80" -> "::1".
std::string_view HostHeaderName(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    size_t close = host.find(']');
    return close == std::string_view::npos ? host : host.substr(1, close - 1);
  }
  size_t colon = host.rfind(':');
  return colon == std::string_view::npos ? host : host.substr(0, colon);
}

// cpp-httplib 0.11 compresses with brotli whenever a client accepts it, at brotli's
// highest quality: ~9 s for the 600 KB UI bundle on our machines, against 0.2 s for gzip.
// So "br" is taken out of Accept-Encoding before httplib picks the encoding (the request
// object is httplib's own and not const; the handler API only hands it out as const).
void PreferGzip(const httplib::Request& req) {
  auto& headers = const_cast<httplib::Request&>(req).headers;
  auto [begin, end] = headers.equal_range("Accept-Encoding");
  for (auto it = begin; it != end; ++it) {
    std::string& value = it->second;
    for (size_t at = value.find("br"); at != std::string::npos; at = value.find("br")) value.replace(at, 2, "x-no");
  }
}

void Send(const HttpReply& reply, httplib::Response& res) {
  res.status = reply.status;
  for (const auto& [name, value] : reply.headers) res.set_header(name, value);
  res.set_content(reply.body, reply.content_type);
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
  httplib::Server http;
  int port = 0;
  std::atomic<bool> run_active{false};  // Run() entered and not returned
  std::atomic<bool> stop_requested{false};

  bool AllowedHost(const httplib::Request& req) const {
    if (!IsLoopbackAddress(options.bind_address)) return true;  // the user chose to expose it
    std::string host = req.get_header_value("Host");
    if (host.empty()) return true;  // HTTP/1.0 clients; no browser omits it
    std::string_view name = HostHeaderName(host);
    return IsLoopbackAddress(name) || name == options.bind_address;
  }

  void AddCors(const httplib::Request& req, httplib::Response& res) const {
    std::string origin = req.get_header_value("Origin");
    if (origin.empty()) return;
    for (const std::string& allowed : options.cors_origins) {
      if (origin == allowed) {
        res.set_header("Access-Control-Allow-Origin", origin);
        res.set_header("Vary", "Origin");
        return;
      }
    }
  }

  // POST /api/capture makes this process connect to addresses it is given and write into
  // the logdir: offered only by a loopback-bound server, and only to its own pages (or the
  // listed CORS origins). Sends the refusal and returns false otherwise.
  bool CaptureAllowed(const httplib::Request& req, httplib::Response& res) const {
    if (!IsLoopbackAddress(options.bind_address)) {
      Send(ErrorReply(403, "capture is only offered by a server bound to loopback (elsewhere anyone on the "
                           "network could make it connect out and write into the logdir)"),
           res);
      return false;
    }
    std::string origin = req.get_header_value("Origin");
    if (origin.empty() || origin == "http://" + req.get_header_value("Host")) return true;
    for (const std::string& allowed : options.cors_origins) {
      if (origin == allowed) return true;
    }
    Send(ErrorReply(403, "cross-origin capture request refused (Origin " + origin + ")"), res);
    return false;
  }

  void Install() {
    http.new_task_queue = [threads = options.worker_threads] {
      return new httplib::ThreadPool(static_cast<size_t>(std::max(1, threads)));
    };
    http.set_payload_max_length(kMaxRequestBodyBytes);
    http.set_default_headers({
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "no-referrer"},
        {"X-Frame-Options", "DENY"},
        {"Content-Security-Policy", kContentSecurityPolicy},
    });
    http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      // The one write endpoint (capture_route.h); everything else is read-only.
      const bool capture_post = req.method == "POST" && req.path == "/api/capture";
      if (!capture_post && req.method != "GET" && req.method != "HEAD") {
        Send(ErrorReply(405, "method " + req.method + " not allowed; the API is read-only (GET)"), res);
        res.set_header("Allow", "GET, HEAD");
        return httplib::Server::HandlerResponse::Handled;
      }
      if (!AllowedHost(req)) {
        Send(ErrorReply(403, "requests must address the server as localhost (Host header '" +
                                 req.get_header_value("Host") + "' refused)"),
             res);
        return httplib::Server::HandlerResponse::Handled;
      }
      PreferGzip(req);
      if (capture_post && !CaptureAllowed(req, res)) return httplib::Server::HandlerResponse::Handled;
      if (req.path.find('\0') != std::string::npos) {
        Send(ErrorReply(400, "NUL in the request path"), res);
        return httplib::Server::HandlerResponse::Handled;
      }
      return httplib::Server::HandlerResponse::Unhandled;
    });
    http.Post("/api/capture", [this](const httplib::Request& req, httplib::Response& res) {
      AddCors(req, res);
      res.set_header("Cache-Control", "no-store");
      Send(capture->Handle(req.get_header_value("Content-Type"), req.body), res);
    });
    // The trace viewer's endpoints first (they stream exports), then the tool API.
    InstallTraceRoutes(&http, trace_routes.get(), [this](const httplib::Request& req, httplib::Response& res) {
      AddCors(req, res);
      res.set_header("Cache-Control", "no-store");
    });
    http.Get(R"(/api/.*)", [this](const httplib::Request& req, httplib::Response& res) {
      AddCors(req, res);
      HttpReply reply = routes->Handle(req.path, req.params);
      res.set_header("Cache-Control", "no-store");
      Send(reply, res);
    });
    http.Get(R"(/.*)", [this](const httplib::Request& req, httplib::Response& res) {
      Send(static_files->Serve(req.path), res);
    });
    // Errors httplib produces itself (bad request line, URI too long, no route) get the
    // same JSON body as ours.
    http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
      if (!res.body.empty()) return;
      std::string message = res.status == 414   ? "request URI too long"
                            : res.status == 413 ? "request body too large"
                            : res.status == 404 ? "not found: " + req.path
                                                : "bad request (HTTP " + std::to_string(res.status) + ")";
      HttpReply reply = ErrorReply(res.status, message);
      res.set_content(reply.body, reply.content_type);
    });
    // stepscope code does not throw; the standard library can (allocation, filesystem).
    http.set_exception_handler([](const httplib::Request& req, httplib::Response& res, std::exception_ptr error) {
      std::string what = "unknown exception";
      try {
        std::rethrow_exception(error);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
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
  impl->store = std::make_unique<ProfileStore>(store_options);
  impl->routes = std::make_unique<ApiRoutes>(impl->store.get());
  impl->trace_routes = std::make_unique<TraceRoutes>(impl->store.get());
  impl->static_files = std::make_unique<StaticFiles>(impl->ui_dir);
  impl->capture = std::make_unique<CaptureRoute>(store_options.logdir);
  impl->Install();

  if (options.port == 0) {
    impl->port = impl->http.bind_to_any_port(options.bind_address);
    if (impl->port <= 0) return UnavailableError("cannot bind to " + options.bind_address + " (any port)");
  } else {
    if (!impl->http.bind_to_port(options.bind_address, options.port)) {
      return UnavailableError("cannot listen on " + options.bind_address + ":" + std::to_string(options.port) +
                              " (in use? try --port)");
    }
    impl->port = options.port;
  }
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

int HttpServer::port() const { return impl_->port; }

std::string HttpServer::url() const {
  const std::string& bind = impl_->options.bind_address;
  std::string host = (bind == "0.0.0.0" || bind == "::") ? "127.0.0.1" : bind;
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return "http://" + host + ":" + std::to_string(impl_->port) + "/";
}

const std::string& HttpServer::ui_dir() const { return impl_->ui_dir; }
ProfileStore& HttpServer::store() { return *impl_->store; }

Status HttpServer::Run() {
  impl_->run_active.store(true);
  Status status = OkStatus();
  if (!impl_->stop_requested.load() && !impl_->http.listen_after_bind() && !impl_->stop_requested.load()) {
    status = UnavailableError("the server stopped listening on " + url());
  }
  impl_->run_active.store(false);
  return status;
}

void HttpServer::Stop() {
  impl_->stop_requested.store(true);
  // httplib's stop() only acts on a running loop: if Run() is between its check of
  // stop_requested and the loop's start, wait for the loop (it then sees the closed
  // socket) rather than return with Run() about to block forever.
  while (impl_->run_active.load() && !impl_->http.is_running()) std::this_thread::yield();
  impl_->http.stop();
}

}  // namespace stepscope::server
