#include "src/server/connection_front.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <unordered_map>

#include "src/server/api_routes.h"

namespace stepscope::server {
namespace {

using Clock = std::chrono::steady_clock;

constexpr uint64_t kListenId = 0;
constexpr uint64_t kWakeId = 1;
constexpr uint64_t kFirstConnectionId = 2;
// Bytes read per recv; a connection holds at most one request plus one read.
constexpr size_t kReadChunkBytes = 64 * 1024;
// Reads per readiness event, so one fast sender cannot starve the others.
constexpr int kReadsPerEvent = 4;
// While accept fails for lack of file descriptors, retry this often.
constexpr auto kAcceptPause = std::chrono::milliseconds(100);

const char* ReasonPhrase(int status) {
  switch (status) {
    case 400: return "Bad Request";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
  }
}

// The same JSON body as every other error of the server (ErrorReply).
std::string RefusalResponse(int status, std::string_view reason) {
  std::string body = ErrorReply(status, reason).body;
  return "HTTP/1.1 " + std::to_string(status) + " " + ReasonPhrase(status) +
         "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nConnection: close\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\n" + body;
}

// Small responses only (refusals, 100 Continue): they fit the socket's send buffer, and
// a client that does not read them loses them rather than a thread.
void SendBestEffort(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t sent = ::send(fd, text.data(), text.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent <= 0) return;
    text.remove_prefix(static_cast<size_t>(sent));
  }
}

int MillisecondsUntil(Clock::time_point when, Clock::time_point now) {
  if (when <= now) return 0;
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(when - now).count() + 1;
  return static_cast<int>(std::min<int64_t>(ms, 60'000));
}

}  // namespace

struct ConnectionFront::Connection {
  enum class State {
    kIdle,      // waiting for the first byte of a request
    kReading,   // a request is arriving
    kBusy,      // a worker answers it; not in epoll
    kDraining,  // refused or closing: input discarded until EOF or the linger deadline
  };
  Connection(uint64_t id, int fd, const FramingLimits& limits) : id(id), fd(fd), framing(limits) {}

  uint64_t id;
  int fd;
  State state = State::kIdle;
  std::string buffer;  // bytes of the current request (and any pipelined after it)
  RequestFraming framing;
  Clock::time_point since;     // when it entered its state: eviction order
  Clock::time_point deadline;  // idle, reading and draining connections
  bool continue_sent = false;
  int requests = 0;
};

// The state of one Run(): every connection, owned by the front thread.
struct ConnectionFront::Loop {
  explicit Loop(ConnectionFront& front) : front(front) {}
  // Closes what the loop still holds if Run() failed; a dispatched socket stays open
  // for its worker (a closed descriptor could be reused under it).
  ~Loop() {
    for (auto& [id, connection] : connections) {
      if (connection->state != Connection::State::kBusy) ::close(connection->fd);
    }
  }

  Status Run();
  void BeginStop();
  void AcceptAll();
  bool MakeRoom();
  void OnReadable(Connection& connection);
  void Drain(Connection& connection);
  void Process(Connection& connection);
  void DispatchRequest(Connection& connection, size_t request_bytes);
  void Refuse(Connection& connection, int status, std::string_view reason);
  void StartDraining(Connection& connection);
  void TakeFinished();
  void ExpireDeadlines();
  int NextTimeoutMs() const;
  void Enter(Connection& connection, Connection::State state, std::chrono::milliseconds timeout);
  void Close(uint64_t id);
  void UpdateStats(const std::function<void(FrontStats&)>& update);

  ConnectionFront& front;
  std::vector<char> scratch = std::vector<char>(kReadChunkBytes);  // every recv lands here first
  std::unordered_map<uint64_t, std::unique_ptr<Connection>> connections;
  uint64_t next_id = kFirstConnectionId;
  size_t busy = 0;
  bool stopping = false;
  bool listening = true;
  Clock::time_point accept_paused_until{};
};

void ConnectionFront::Loop::UpdateStats(const std::function<void(FrontStats&)>& update) {
  std::lock_guard<std::mutex> lock(front.stats_mutex_);
  update(front.stats_);
  front.stats_.open = connections.size();
}

void ConnectionFront::Loop::Enter(Connection& connection, Connection::State state, std::chrono::milliseconds timeout) {
  connection.state = state;
  connection.since = Clock::now();
  connection.deadline = connection.since + timeout;
}

void ConnectionFront::Loop::Close(uint64_t id) {
  auto it = connections.find(id);
  if (it == connections.end()) return;
  if (it->second->state != Connection::State::kBusy) ::epoll_ctl(front.epoll_fd_, EPOLL_CTL_DEL, it->second->fd, nullptr);
  ::close(it->second->fd);
  connections.erase(it);
  UpdateStats([](FrontStats&) {});
}

void ConnectionFront::Loop::StartDraining(Connection& connection) {
  ::shutdown(connection.fd, SHUT_WR);
  connection.buffer.clear();
  connection.buffer.shrink_to_fit();
  Enter(connection, Connection::State::kDraining, std::chrono::milliseconds(front.options_.linger_ms));
}

void ConnectionFront::Loop::Refuse(Connection& connection, int status, std::string_view reason) {
  SendBestEffort(connection.fd, RefusalResponse(status, reason));
  UpdateStats([status](FrontStats& stats) {
    ++stats.refused;
    if (status == 408) ++stats.timed_out;
  });
  StartDraining(connection);
}

void ConnectionFront::Loop::DispatchRequest(Connection& connection, size_t request_bytes) {
  ReadyRequest request;
  request.connection_id = connection.id;
  request.fd = connection.fd;
  request.bytes = connection.buffer.substr(0, request_bytes);
  connection.buffer.erase(0, request_bytes);
  if (connection.buffer.empty()) std::string().swap(connection.buffer);  // release the capacity
  connection.framing.Reset();
  connection.continue_sent = false;
  ++connection.requests;
  request.last_on_connection = stopping || connection.requests >= front.options_.max_requests_per_connection;
  ::epoll_ctl(front.epoll_fd_, EPOLL_CTL_DEL, connection.fd, nullptr);
  Enter(connection, Connection::State::kBusy, std::chrono::milliseconds(0));
  ++busy;
  UpdateStats([](FrontStats& stats) { ++stats.dispatched; });
  front.dispatch_(std::move(request));
}

void ConnectionFront::Loop::Process(Connection& connection) {
  if (connection.buffer.empty()) return;
  if (connection.state == Connection::State::kIdle) {
    Enter(connection, Connection::State::kReading, std::chrono::milliseconds(front.options_.request_timeout_ms));
  }
  FramingVerdict verdict = connection.framing.Scan(connection.buffer);
  switch (verdict.kind) {
    case FramingVerdict::Kind::kIncomplete:
      if (connection.framing.WaitsForContinue() && !connection.continue_sent) {
        SendBestEffort(connection.fd, "HTTP/1.1 100 Continue\r\n\r\n");
        connection.continue_sent = true;
      }
      return;
    case FramingVerdict::Kind::kComplete: DispatchRequest(connection, verdict.request_bytes); return;
    case FramingVerdict::Kind::kRefused: Refuse(connection, verdict.http_status, verdict.reason); return;
  }
}

void ConnectionFront::Loop::Drain(Connection& connection) {
  for (int i = 0; i < kReadsPerEvent; ++i) {
    ssize_t n = ::recv(connection.fd, scratch.data(), scratch.size(), MSG_DONTWAIT);
    if (n > 0) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    Close(connection.id);  // EOF or error: the client has what it will read
    return;
  }
}

void ConnectionFront::Loop::OnReadable(Connection& connection) {
  if (connection.state == Connection::State::kBusy) return;
  if (connection.state == Connection::State::kDraining) {
    Drain(connection);
    return;
  }
  for (int i = 0; i < kReadsPerEvent; ++i) {
    // Into the loop's scratch buffer, so a connection's own buffer holds what it received
    // and not a read's worth of capacity (256 idle connections would keep 16 MiB).
    ssize_t n = ::recv(connection.fd, scratch.data(), scratch.size(), MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (n <= 0) {  // the client closed (mid-request or idle) or reset: nobody to answer
      Close(connection.id);
      return;
    }
    connection.buffer.append(scratch.data(), static_cast<size_t>(n));
    size_t held = connection.buffer.size();
    UpdateStats([held](FrontStats& stats) { stats.max_buffered_bytes = std::max(stats.max_buffered_bytes, held); });
    Process(connection);
    if (connection.state != Connection::State::kIdle && connection.state != Connection::State::kReading) return;
  }
}

// Over max_connections: the oldest draining connection goes first (its answer is sent),
// then the oldest idle one, then the oldest still sending its request. Dispatched ones
// are never closed under a worker.
bool ConnectionFront::Loop::MakeRoom() {
  Connection* victim = nullptr;
  auto rank = [](Connection::State state) {
    switch (state) {
      case Connection::State::kDraining: return 0;
      case Connection::State::kIdle: return 1;
      case Connection::State::kReading: return 2;
      case Connection::State::kBusy: return 3;
    }
    return 3;
  };
  for (auto& [id, connection] : connections) {
    if (connection->state == Connection::State::kBusy) continue;
    if (victim == nullptr || rank(connection->state) < rank(victim->state) ||
        (rank(connection->state) == rank(victim->state) && connection->since < victim->since)) {
      victim = connection.get();
    }
  }
  if (victim == nullptr) return false;
  Close(victim->id);
  UpdateStats([](FrontStats& stats) { ++stats.evicted; });
  return true;
}

void ConnectionFront::Loop::AcceptAll() {
  for (;;) {
    int fd = ::accept4(front.listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO) continue;
      if ((errno == EMFILE || errno == ENFILE) && MakeRoom()) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        // Level-triggered: stop watching the socket until descriptors are back.
        epoll_event event{};
        ::epoll_ctl(front.epoll_fd_, EPOLL_CTL_MOD, front.listen_fd_, &event);
        listening = false;
        accept_paused_until = Clock::now() + kAcceptPause;
      }
      return;  // EAGAIN: all accepted
    }
    if (connections.size() >= front.options_.max_connections && !MakeRoom()) {
      SendBestEffort(fd, RefusalResponse(503, "too many open connections; retry"));
      ::close(fd);
      continue;
    }
    // A response written in more than one send (a streamed body's chunks; httplib sent
    // every head and body separately) would, with Nagle's algorithm, wait for the ACK of
    // the previous piece, which the client delays ~40 ms: every kept-alive request after
    // the first took 41-49 ms.
    int yes = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
    uint64_t id = next_id++;
    auto connection = std::make_unique<Connection>(id, fd, front.options_.limits);
    Enter(*connection, Connection::State::kIdle, std::chrono::milliseconds(front.options_.idle_timeout_ms));
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u64 = id;
    if (::epoll_ctl(front.epoll_fd_, EPOLL_CTL_ADD, fd, &event) != 0) {
      ::close(fd);
      continue;
    }
    connections.emplace(id, std::move(connection));
    UpdateStats([](FrontStats& stats) { ++stats.accepted; });
  }
}

void ConnectionFront::Loop::TakeFinished() {
  uint64_t counter = 0;
  [[maybe_unused]] ssize_t n = ::read(front.wake_fd_, &counter, sizeof(counter));
  std::vector<std::pair<uint64_t, bool>> finished;
  {
    std::lock_guard<std::mutex> lock(front.finished_mutex_);
    finished.swap(front.finished_);
  }
  for (auto [id, keep_alive] : finished) {
    auto it = connections.find(id);
    if (it == connections.end() || it->second->state != Connection::State::kBusy) continue;
    --busy;
    Connection& connection = *it->second;
    if (stopping) {
      Close(id);
      continue;
    }
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u64 = id;
    if (::epoll_ctl(front.epoll_fd_, EPOLL_CTL_ADD, connection.fd, &event) != 0) {
      connection.state = Connection::State::kIdle;  // in no epoll set; Close must not DEL
      Close(id);
      continue;
    }
    if (!keep_alive) {
      StartDraining(connection);  // the response said Connection: close
      continue;
    }
    Enter(connection, Connection::State::kIdle, std::chrono::milliseconds(front.options_.idle_timeout_ms));
    Process(connection);  // a pipelined request may already be complete
  }
}

void ConnectionFront::Loop::ExpireDeadlines() {
  Clock::time_point now = Clock::now();
  std::vector<uint64_t> expired;
  for (auto& [id, connection] : connections) {
    if (connection->state != Connection::State::kBusy && connection->deadline <= now) expired.push_back(id);
  }
  for (uint64_t id : expired) {
    Connection& connection = *connections.at(id);
    if (connection.state == Connection::State::kReading) {
      Refuse(connection, 408,
             "request not received whole within " + std::to_string(front.options_.request_timeout_ms) + " ms");
    } else {
      Close(id);  // idle past the keep-alive timeout, or drained long enough
    }
  }
  if (!listening && !stopping && now >= accept_paused_until) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u64 = kListenId;
    ::epoll_ctl(front.epoll_fd_, EPOLL_CTL_MOD, front.listen_fd_, &event);
    listening = true;
  }
}

int ConnectionFront::Loop::NextTimeoutMs() const {
  Clock::time_point now = Clock::now();
  int timeout = -1;
  for (const auto& [id, connection] : connections) {
    if (connection->state == Connection::State::kBusy) continue;
    int ms = MillisecondsUntil(connection->deadline, now);
    timeout = timeout < 0 ? ms : std::min(timeout, ms);
  }
  if (!listening) {
    int ms = MillisecondsUntil(accept_paused_until, now);
    timeout = timeout < 0 ? ms : std::min(timeout, ms);
  }
  return timeout;
}

// New connections are refused from here on (the socket is closed); requests being read
// are dropped, dispatched ones finish and are answered.
void ConnectionFront::Loop::BeginStop() {
  stopping = true;
  ::epoll_ctl(front.epoll_fd_, EPOLL_CTL_DEL, front.listen_fd_, nullptr);
  ::close(front.listen_fd_);
  front.listen_fd_ = -1;
  std::vector<uint64_t> open;
  for (auto& [id, connection] : connections) {
    if (connection->state != Connection::State::kBusy) open.push_back(id);
  }
  for (uint64_t id : open) Close(id);
}

Status ConnectionFront::Loop::Run() {
  epoll_event events[64];
  for (;;) {
    if (front.stop_requested_.load() && !stopping) BeginStop();
    if (stopping && busy == 0) break;
    int ready = ::epoll_wait(front.epoll_fd_, events, 64, NextTimeoutMs());
    if (ready < 0) {
      if (errno == EINTR) continue;
      return InternalError(std::string("epoll_wait failed: ") + std::strerror(errno));
    }
    for (int i = 0; i < ready; ++i) {
      uint64_t id = events[i].data.u64;
      if (id == kListenId) {
        if (!stopping) AcceptAll();
      } else if (id == kWakeId) {
        TakeFinished();
      } else {
        auto it = connections.find(id);
        if (it != connections.end()) OnReadable(*it->second);
      }
    }
    ExpireDeadlines();
  }
  return OkStatus();
}

ConnectionFront::ConnectionFront(const ConnectionFrontOptions& options, Dispatch dispatch)
    : options_(options), dispatch_(std::move(dispatch)) {}

ConnectionFront::~ConnectionFront() {
  if (listen_fd_ >= 0) ::close(listen_fd_);
  if (epoll_fd_ >= 0) ::close(epoll_fd_);
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

StatusOr<std::unique_ptr<ConnectionFront>> ConnectionFront::Listen(const ConnectionFrontOptions& options,
                                                                   Dispatch dispatch) {
  std::string where = options.bind_address + ":" + std::to_string(options.port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* addresses = nullptr;
  int resolved = ::getaddrinfo(options.bind_address.c_str(), std::to_string(options.port).c_str(), &hints, &addresses);
  if (resolved != 0) return InvalidArgumentError("cannot resolve " + where + ": " + ::gai_strerror(resolved));
  std::unique_ptr<ConnectionFront> front(new ConnectionFront(options, std::move(dispatch)));
  std::string failure = "no address";
  for (addrinfo* a = addresses; a != nullptr && front->listen_fd_ < 0; a = a->ai_next) {
    int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, options.listen_backlog) == 0) {
      front->listen_fd_ = fd;
    } else {
      failure = std::strerror(errno);
      ::close(fd);
    }
  }
  ::freeaddrinfo(addresses);
  if (front->listen_fd_ < 0) return UnavailableError("cannot listen on " + where + ": " + failure);

  sockaddr_storage local{};
  socklen_t length = sizeof(local);
  ::getsockname(front->listen_fd_, reinterpret_cast<sockaddr*>(&local), &length);
  front->port_ = ntohs(local.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&local)->sin6_port
                                                   : reinterpret_cast<sockaddr_in*>(&local)->sin_port);
  front->epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
  front->wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (front->epoll_fd_ < 0 || front->wake_fd_ < 0) return InternalError("cannot create the server's event loop");
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.u64 = kListenId;
  ::epoll_ctl(front->epoll_fd_, EPOLL_CTL_ADD, front->listen_fd_, &event);
  event.data.u64 = kWakeId;
  ::epoll_ctl(front->epoll_fd_, EPOLL_CTL_ADD, front->wake_fd_, &event);
  return front;
}

Status ConnectionFront::Run() {
  Loop loop(*this);
  return loop.Run();
}

void ConnectionFront::Stop() {
  stop_requested_.store(true);
  uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(wake_fd_, &one, sizeof(one));
}

void ConnectionFront::Finished(uint64_t connection_id, bool keep_alive) {
  {
    std::lock_guard<std::mutex> lock(finished_mutex_);
    finished_.emplace_back(connection_id, keep_alive);
  }
  uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(wake_fd_, &one, sizeof(one));
}

FrontStats ConnectionFront::stats() const {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  return stats_;
}

}  // namespace stepscope::server
