// On-demand capture: a profiler server inside the training process.
//
//   // In main(), before training (listens on 127.0.0.1:6009):
//   auto server = stepscope::StartProfilerServer(6009);
//   if (!server.ok()) std::cerr << server.status().ToString() << "\n";  // training goes on
//   Train();   // the server lives until `server` is destroyed
//
//   // On this machine, any time:
//   //   stepscope capture grpc://127.0.0.1:6009 --duration_ms 2000 --logdir DIR
//
//   // A cluster, captured from elsewhere (stepscope capture grpc://worker0:6009,grpc://worker1:6009,
//   // TensorBoard's "Capture Profile", tf.profiler.experimental.client.trace(...)):
//   stepscope::ProfilerServerOptions options;
//   options.port = 6009;
//   options.bind_address = "0.0.0.0";
//   options.repository_root = "/shared/logdir";  // only for TensorBoard-style clients
//   auto server = stepscope::StartProfilerServer(options);
//
// The server speaks tensorflow.ProfilerService over gRPC, insecure like TensorFlow's:
// anyone who can reach the port can record this process. So, unlike TensorFlow's (which
// binds [::]:port), it listens on 127.0.0.1 unless told otherwise: a cluster whose
// workers are captured from another machine sets bind_address "0.0.0.0" (or "::") and
// should firewall the port.
// A Profile request records for its duration with a stepscope::Session and returns the
// XSpace (emit_xspace), or, for TensorFlow-style requests, writes it below
// `repository_root` when one is configured (never elsewhere); see docs/remote.md for the
// exact behaviour and limits. Device and python tracer levels above 0 are accepted (as
// TensorFlow's clients send them) but no such tracer is built in: the profile then
// carries a warning saying so.
//
// Threading: the server runs on its own gRPC threads; training threads are never
// blocked by it (recording costs what any session costs). One capture at a time per
// process: a request while a capture (or any other stepscope session) is active gets
// ALREADY_EXISTS. Thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "stepscope/status.h"

namespace stepscope {

struct ProfilerServerOptions {
  // 0 = let the system pick a free port (see ProfilerServer::port()).
  int port = 0;
  // The IP address to listen on: "127.0.0.1" (this machine only, the default), "0.0.0.0"
  // or "::" (every interface, for clusters), or one interface's address. IP literals
  // and "localhost" only; anything else is kInvalidArgument.
  std::string bind_address = "127.0.0.1";
  // Longest accepted capture; longer requests get INVALID_ARGUMENT naming this limit.
  // 10 minutes: per-thread buffers (8 MiB each by default) fill long before that.
  uint64_t max_duration_ms = 10 * 60 * 1000;
  // Largest accepted request message. Real requests are a few hundred bytes.
  int max_request_bytes = 64 * 1024;
  // The one directory below which clients that do not ask for emit_xspace (TensorFlow's,
  // TensorBoard's) may make this process write <repository_root>/<session_id>/<host>.xplane.pb.
  // A request's repository_root must be this directory or a path beneath it (a relative one
  // is taken relative to it); '..', absolute paths elsewhere and symbolic links below it
  // get PERMISSION_DENIED naming this root. Empty (the default): such requests get
  // PERMISSION_DENIED and only emit_xspace captures are served. TensorFlow's server writes
  // wherever the request says, for any peer. Created at start if missing.
  std::string repository_root;
  // Also return the saved profile as tool_data "xplane.pb" when the request lists the
  // tool "xplane.pb" (TensorFlow's client saves it as <host>.xplane.pb on its side, so a
  // TensorBoard without a shared filesystem still gets the file). TensorFlow's server
  // does not do this; off by default.
  bool return_xplane_tool_data = false;
};

// A running profiler server. Destroying it (or Stop()) ends any capture in progress
// (that RPC fails with UNAVAILABLE) and shuts the server down.
class ProfilerServer {
 public:
  virtual ~ProfilerServer() = default;
  // The bound port (the chosen one when options.port was 0).
  virtual int port() const = 0;
  // "host:port" a client on this machine can use (127.0.0.1 / [::1] for a wildcard bind).
  virtual std::string address() const = 0;
  // What the server listens on, "bind_address:port", e.g. "127.0.0.1:6009", "[::]:6009";
  // for the "listening on" log line.
  virtual std::string listen_address() const = 0;
  // Idempotent; blocks until in-flight RPCs have returned (at most ~1 s after a capture
  // is interrupted).
  virtual void Stop() = 0;
};

// Starts the server. kInvalidArgument for a port outside 0..65535, a bind_address that
// is not an IP address or a repository_root that cannot be created, kUnavailable when the port cannot be bound (in use, an address
// not on this machine, no permission).
StatusOr<std::unique_ptr<ProfilerServer>> StartProfilerServer(const ProfilerServerOptions& options);
// TensorFlow's tf.profiler.experimental.server.start(port), but on 127.0.0.1 only: pass
// ProfilerServerOptions with bind_address "0.0.0.0" to be captured from other machines.
StatusOr<std::unique_ptr<ProfilerServer>> StartProfilerServer(int port);

}  // namespace stepscope
