// `stepscope serve --logdir DIR [--port 6006] [--bind 127.0.0.1]`: the local dashboard.
//
// Starts the HTTP server (src/server) on the logdir and blocks until SIGINT or SIGTERM,
// then stops accepting, lets in-flight requests finish and exits 0. The first line on
// stdout is the URL to open, so scripts (./dev demo, the browser tests) can read the port
// chosen by --port 0.
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <ctime>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "src/cli/command.h"
#include "src/cli/commands.h"
#include "src/cli/flags.h"
#include "src/server/http_server.h"
#include "src/server/loopback_host.h"

namespace stepscope::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: stepscope serve --logdir DIR [flags]\n"
    "\n"
    "Serves the profile dashboard for every run under DIR (TensorBoard's layout,\n"
    "DIR/plugins/profile/<run>/<host>.xplane.pb) and its JSON API (docs/server.md).\n"
    "New runs show up without a restart. Binds 127.0.0.1 unless --bind says otherwise:\n"
    "the API serves your profiles to anyone who can reach the port. Ctrl-C stops it.\n"
    "\n"
    "flags:\n";

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, ',')) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

// "127.0.0.1:6006", "[::1]:6006": the socket address, for the log line.
std::string ListenAddress(const std::string& bind, int port) {
  std::string host = bind.find(':') != std::string::npos ? "[" + bind + "]" : bind;
  return host + ":" + std::to_string(port);
}

// Blocks SIGINT/SIGTERM in this thread (and the server threads it starts), and waits for
// them on a helper thread that stops the server: a handler cannot safely stop a server.
class ShutdownOnSignal {
 public:
  explicit ShutdownOnSignal(server::HttpServer* server) : server_(server) {
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGINT);
    sigaddset(&signals_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals_, &previous_mask_);
    watcher_ = std::thread([this] {
      const timespec poll_interval{0, 200 * 1000 * 1000};
      while (!done_.load()) {
        int signal = sigtimedwait(&signals_, nullptr, &poll_interval);
        if (signal == SIGINT || signal == SIGTERM) {
          received_.store(signal);
          server_->Stop();
          return;
        }
      }
    });
  }
  ~ShutdownOnSignal() {
    done_.store(true);
    watcher_.join();
    pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
  }
  int received() const { return received_.load(); }

 private:
  server::HttpServer* server_;
  sigset_t signals_;
  sigset_t previous_mask_;
  std::atomic<bool> done_{false};
  std::atomic<int> received_{0};
  std::thread watcher_;
};

}  // namespace

int RunServeCommand(CommandContext& context) {
  std::string logdir, bind = "127.0.0.1", ui_dir, cors;
  int64_t port = 6006, cache_mb = 256, threads = 8;
  FlagSet flags;
  flags.AddString("logdir", &logdir, "directory holding plugins/profile/<run>/ (required)");
  flags.AddInt("port", &port, "TCP port; 0 picks a free one", 0, 65535);
  flags.AddString("bind", &bind, "address to listen on; anything but loopback exposes your profiles");
  flags.AddString("ui_dir", &ui_dir, "serve the web UI from this directory (default: the built ui/dist)");
  flags.AddString("cors_origin", &cors, "comma-separated origins allowed to read the API cross-origin (default none)");
  flags.AddInt("cache_mb", &cache_mb, "memory for cached tool results, MiB", 1, 1 << 20);
  flags.AddInt("threads", &threads, "requests served concurrently", 1, 256);
  bool separate_runs = false;
  flags.AddBool("separate_runs", &separate_runs, "read every run directory of the logdir on its own (no sessions assembled; see stepscope runs)");
  std::vector<std::string> positional;
  Status parsed = flags.Parse(context.args, &positional);
  if (!parsed.ok()) return ReportUsageError(context.err, "serve", parsed.message());
  if (flags.help_requested()) {
    context.out << kUsage << flags.Usage();
    return kExitOk;
  }
  // `stepscope serve DIR` is accepted as well as --logdir DIR.
  if (positional.size() == 1 && logdir.empty()) logdir = positional[0];
  if (logdir.empty() || positional.size() > 1 || (positional.size() == 1 && logdir != positional[0])) {
    return ReportUsageError(context.err, "serve", "expected one logdir, as --logdir DIR");
  }

  server::ServerOptions options;
  options.logdir = logdir;
  options.bind_address = bind;
  options.port = static_cast<int>(port);
  options.ui_dir = ui_dir;
  options.cors_origins = SplitCommas(cors);
  options.result_cache_bytes = static_cast<size_t>(cache_mb) << 20;
  options.worker_threads = static_cast<int>(threads);
  options.separate_runs = separate_runs;
  auto server = server::HttpServer::Create(options);
  if (!server.ok()) return ReportError(context.err, "serve", server.status());

  ShutdownOnSignal shutdown(server->get());
  if ((*server)->ui_dir().empty()) {
    context.err << "stepscope: serve: the web UI is not built (./dev build); serving the API only\n";
  }
  context.out << "stepscope: serving " << (*server)->url() << " (Ctrl-C to stop)" << std::endl;
  context.err << "stepscope: serve: listening on " << ListenAddress(bind, (*server)->port())
              << (server::IsLoopbackAddress(bind)
                      ? " (loopback only: other machines cannot connect)\n"
                      : " (reachable from the network: anyone who can connect can read these profiles)\n");
  Status run = (*server)->Run();
  if (!run.ok()) return ReportError(context.err, "serve", run);
  context.err << "stepscope: serve: stopped\n";
  return kExitOk;
}

}  // namespace stepscope::cli
