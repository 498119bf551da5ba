#include "src/server/httplib_front.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "src/server/worker_pool.h"

namespace stepscope::server {
namespace {

void AddressOf(const sockaddr_storage& address, std::string& ip, int& port) {
  char text[INET6_ADDRSTRLEN] = "";
  if (address.ss_family == AF_INET) {
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(address);
    ::inet_ntop(AF_INET, &v4.sin_addr, text, sizeof(text));
    port = ntohs(v4.sin_port);
  } else if (address.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(address);
    ::inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof(text));
    port = ntohs(v6.sin6_port);
  }
  ip = text;
}

// One buffered request in, the response out to the socket.
class BufferedRequestStream : public httplib::Stream {
 public:
  BufferedRequestStream(int fd, std::string_view request, int write_stall_timeout_ms)
      : fd_(fd), request_(request), write_stall_timeout_ms_(write_stall_timeout_ms) {}

  bool is_readable() const override { return read_ < request_.size(); }

  bool is_writable() const override { return WaitWritable(); }

  // The request's bytes, then end of input: the front framed exactly one request, so
  // anything httplib would read past it is not this request's (and never the socket's).
  ssize_t read(char* ptr, size_t size) override {
    size_t n = std::min(size, request_.size() - read_);
    std::memcpy(ptr, request_.data() + read_, n);
    read_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    for (;;) {
      ssize_t sent = ::send(fd_, ptr, size, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (sent >= 0) return sent;
      if (errno == EINTR) continue;
      if ((errno != EAGAIN && errno != EWOULDBLOCK) || !WaitWritable()) return -1;
    }
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage address{};
    socklen_t length = sizeof(address);
    if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0) AddressOf(address, ip, port);
  }

  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage address{};
    socklen_t length = sizeof(address);
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0) AddressOf(address, ip, port);
  }

  socket_t socket() const override { return fd_; }

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
  std::string_view request_;
  size_t read_ = 0;
  int write_stall_timeout_ms_;
};

}  // namespace

HttplibFront::HttplibFront() { svr_sock_ = kServingPlaceholder; }

void HttplibFront::BeginShutdown() { svr_sock_ = INVALID_SOCKET; }

bool HttplibFront::Serve(int fd, std::string_view request, bool last_on_connection, int write_stall_timeout_ms) {
  BufferedRequestStream stream(fd, request, write_stall_timeout_ms);
  bool connection_closed = false;
  // The front already answered "Expect: 100-continue" (it has the body); httplib would
  // send a second interim response.
  auto setup = [](httplib::Request& req) { req.headers.erase("Expect"); };
  bool ok = process_request(stream, last_on_connection, connection_closed, setup);
  return ok && !connection_closed && !last_on_connection;
}

bool HttplibFront::process_and_close_socket(socket_t sock) {
  ::close(sock);
  return false;
}

}  // namespace stepscope::server
