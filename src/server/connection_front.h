// The front of `stepscope serve`: one thread that accepts connections and reads each
// request whole, so that only complete requests reach the worker threads.
//
// A server that gives each connection a worker from accept to close (cpp-httplib's, which
// served before) makes a worker reading a request wait as long as its client trickles
// bytes: eight sockets sending a byte a second stalled the server, a garbage request line
// held a worker 5 s, and a chunked body was buffered whole whatever its size. Here an
// epoll loop holds every connection while its request arrives, under these bounds:
//   - a request must arrive whole within request_timeout_ms of its first byte (408);
//   - a connection waiting for its next request is closed after idle_timeout_ms;
//   - RequestFraming refuses heads, lines and bodies over their caps while they arrive,
//     chunked or not (413 / 414 / 431), and bytes that cannot be HTTP at the first one;
//   - at most max_connections are open: a new one evicts the oldest that is idle (or
//     still sending its request), so trickling clients cannot lock out a real one;
//   - after a refusal the connection is drained (input discarded) for at most linger_ms
//     so the client reads the error instead of a reset, then closed.
// A complete request is handed to `dispatch` with the socket; the worker writes the
// response and calls Finished(), and the connection comes back for its next request.
//
// Threading: Run() is the event loop (one thread); Stop(), Finished() and stats() are
// thread-safe. The front owns every socket it accepted; a dispatched socket may be
// written by the one worker holding it until that worker calls Finished().
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "src/server/request_framing.h"
#include "stepscope/status.h"

namespace stepscope::server {

struct ConnectionFrontOptions {
  std::string bind_address = "127.0.0.1";
  int port = 0;  // 0: any free port
  // Connections the kernel queues before accept. The front accepts at once, so this only
  // absorbs bursts (a UI page load opens ~6 connections; tests open hundreds).
  int listen_backlog = 128;
  int request_timeout_ms = 10'000;
  int idle_timeout_ms = 5'000;
  int linger_ms = 2'000;
  size_t max_connections = 256;
  // A connection is closed after this many requests (its last response says so).
  int max_requests_per_connection = 100;
  FramingLimits limits;
};

// One complete request and the socket to answer it on.
struct ReadyRequest {
  uint64_t connection_id = 0;
  int fd = -1;
  std::string bytes;            // exactly one request, as received
  bool last_on_connection = false;  // answer with Connection: close
};

// Counters for tests and diagnostics; read with stats().
struct FrontStats {
  uint64_t accepted = 0;
  uint64_t dispatched = 0;
  uint64_t refused = 0;    // 4xx/5xx sent by the front (framing, caps)
  uint64_t timed_out = 0;  // 408: request not whole within request_timeout_ms
  uint64_t evicted = 0;    // closed to make room for a new connection
  size_t open = 0;         // connections open now (idle, reading, draining or dispatched)
  size_t max_buffered_bytes = 0;  // the most bytes one connection held at a time
};

class ConnectionFront {
 public:
  // Called on the front thread for each complete request; must not block (queue it).
  using Dispatch = std::function<void(ReadyRequest)>;

  // Binds and listens (so port() is known before Run()).
  static StatusOr<std::unique_ptr<ConnectionFront>> Listen(const ConnectionFrontOptions& options, Dispatch dispatch);
  ~ConnectionFront();
  ConnectionFront(const ConnectionFront&) = delete;
  ConnectionFront& operator=(const ConnectionFront&) = delete;

  int port() const { return port_; }

  // The event loop. Returns after Stop(), once every dispatched request has Finished();
  // every socket is closed by then. Call at most once.
  Status Run();
  // Thread-safe; before, during or after Run().
  void Stop();
  // A worker is done with connection_id's request: keep_alive hands the connection back
  // for its next request, otherwise it is closed. Thread-safe.
  void Finished(uint64_t connection_id, bool keep_alive);
  FrontStats stats() const;

 private:
  struct Connection;
  struct Loop;
  ConnectionFront(const ConnectionFrontOptions& options, Dispatch dispatch);

  ConnectionFrontOptions options_;
  Dispatch dispatch_;
  int listen_fd_ = -1;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;  // eventfd: Stop() and Finished() wake the loop
  int port_ = 0;
  std::atomic<bool> stop_requested_{false};
  std::mutex finished_mutex_;
  std::vector<std::pair<uint64_t, bool>> finished_;  // (connection id, keep alive)
  mutable std::mutex stats_mutex_;
  FrontStats stats_;
};

}  // namespace stepscope::server
