// A raw HTTP/1.1 client connection for the server's limit and security tests: bytes are
// sent exactly as given (slowly, half-way, pipelined) and every wait has a deadline, so
// a server that stalls fails the test instead of hanging it.
#pragma once

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace stepscope::testing {

struct HttpTestResponse {
  int status = 0;       // 0: none within the deadline (or the connection closed first)
  std::string head;     // status line and headers
  std::string body;
};

class HttpTestConnection {
 public:
  // Connects to 127.0.0.1:port within `timeout` (a server whose accept queue is full
  // leaves connect() waiting on SYN retries for minutes). A receive_buffer_bytes > 0
  // shrinks the socket's receive window, as a client that reads slowly would.
  explicit HttpTestConnection(int port, std::chrono::milliseconds timeout = std::chrono::seconds(5),
                              int receive_buffer_bytes = 0) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (receive_buffer_bytes > 0) {
      ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer_bytes, sizeof(receive_buffer_bytes));
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
    if (!ok && errno == EINPROGRESS) {
      pollfd entry{fd_, POLLOUT, 0};
      int error = 0;
      socklen_t length = sizeof(error);
      ok = ::poll(&entry, 1, static_cast<int>(timeout.count())) == 1 &&
           ::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0;
    }
    if (!ok) {
      ::close(fd_);
      fd_ = -1;
      return;
    }
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
    timeval send_timeout{10, 0};  // a server that stops reading fails Send, not the test run
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof(send_timeout));
  }
  ~HttpTestConnection() {
    if (fd_ >= 0) ::close(fd_);
  }
  HttpTestConnection(const HttpTestConnection&) = delete;
  HttpTestConnection& operator=(const HttpTestConnection&) = delete;

  bool connected() const { return fd_ >= 0; }
  int fd() const { return fd_; }

  // False when the server closed or reset the connection (or it never opened).
  bool Send(std::string_view bytes) {
    while (fd_ >= 0 && !bytes.empty()) {
      ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (sent <= 0) return false;
      bytes.remove_prefix(static_cast<size_t>(sent));
    }
    return fd_ >= 0;
  }

  // The next response (one, by its Content-Length; interim 1xx responses are returned as
  // they come), or status 0 when none is complete within `timeout`.
  HttpTestResponse Read(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    HttpTestResponse response;
    for (;;) {
      size_t end = pending_.find("\r\n\r\n");
      if (end != std::string::npos) {
        std::string head = pending_.substr(0, end);
        size_t length = ContentLength(head);
        int status = StatusOf(head);
        if (status >= 100 && status < 200) length = 0;
        if (pending_.size() >= end + 4 + length) {
          response.status = status;
          response.head = head;
          response.body = pending_.substr(end + 4, length);
          pending_.erase(0, end + 4 + length);
          return response;
        }
      }
      if (!Receive(deadline)) return response;
    }
  }

  // True when the server closes the connection (EOF or reset) within `timeout`;
  // whatever it sent before is kept for Read().
  bool ClosedWithin(std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!closed_) {
      if (!Receive(deadline) && !closed_) return false;
    }
    return true;
  }

 private:
  static int StatusOf(const std::string& head) {
    size_t space = head.find(' ');
    return space == std::string::npos ? 0 : std::atoi(head.c_str() + space + 1);
  }

  static size_t ContentLength(std::string head) {
    for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    size_t at = head.find("\r\ncontent-length:");
    return at == std::string::npos ? 0 : std::strtoull(head.c_str() + at + 17, nullptr, 10);
  }

  // One recv within the deadline; false on timeout, EOF or error.
  bool Receive(std::chrono::steady_clock::time_point deadline) {
    if (fd_ < 0 || closed_) return false;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd entry{fd_, POLLIN, 0};
    if (::poll(&entry, 1, static_cast<int>(left.count())) <= 0) return false;
    char buffer[65536];
    ssize_t n = ::recv(fd_, buffer, sizeof(buffer), 0);
    if (n <= 0) {
      closed_ = true;
      return false;
    }
    pending_.append(buffer, static_cast<size_t>(n));
    return true;
  }

  int fd_ = -1;
  bool closed_ = false;
  std::string pending_;
};

}  // namespace stepscope::testing
