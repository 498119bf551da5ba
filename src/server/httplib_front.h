// cpp-httplib behind our connection front (connection_front.h): httplib parses and routes
// a request the front has already read whole, and writes the response to its socket.
//
// Debian's cpp-httplib is a compiled library, so its accept loop, backlog (5) and
// per-connection worker cannot be changed by macros. HttplibFront keeps httplib's request
// handling (routing, handlers, ranges, compression, error pages) and replaces only the
// transport: a Stream whose reads come from the buffered request (end of input after its
// last byte, so a worker never waits for a client) and whose writes go to the socket.
#pragma once

#include <httplib.h>

#include <limits>
#include <string_view>

namespace stepscope::server {

class HttplibFront : public httplib::Server {
 public:
  HttplibFront();

  // Streamed responses (chunked content providers) end at their next piece from now on:
  // Stop() should not wait for a long export.
  void BeginShutdown();

  // Answers the one complete request in `request` on `fd` (non-blocking). A write that
  // cannot proceed for write_stall_timeout_ms gives up (the client stopped reading).
  // Returns whether the connection may carry another request: not after a failure,
  // `Connection: close`, an HTTP/1.0 request, or `last_on_connection`.
  bool Serve(int fd, std::string_view request, bool last_on_connection, int write_stall_timeout_ms);

 private:
  // httplib's own accept loop is not used: listen()/listen_after_bind() would serve
  // without the front. Refusing here makes a stray call fail loudly instead.
  bool process_and_close_socket(socket_t sock) override;

  // httplib streams a response only while its listening socket is valid (it stops them
  // when the server stops). That socket is the front's, so httplib's holds this
  // placeholder, which is no descriptor at all: nothing closes or reads it.
  static constexpr socket_t kServingPlaceholder = std::numeric_limits<socket_t>::max();
};

}  // namespace stepscope::server
