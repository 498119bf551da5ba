// stepscope::StartProfilerServer: a grpc::Server hosting ProfilerServiceImpl.
#include "stepscope/profiler_server.h"

#include <arpa/inet.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/resource_quota.h>

#include <climits>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "src/base/file_io.h"
#include "src/remote/profiler_service.h"
#include "src/remote/repository.h"

namespace stepscope {
namespace {

// Threads the server may use. A capture holds one for its duration; the rest answer
// Terminate and refuse concurrent captures. Bounds what a flood of requests can cost
// the training process (further RPCs get RESOURCE_EXHAUSTED).
constexpr int kMaxServerThreads = 6;
// How long Stop() lets in-flight RPCs finish before cancelling them. A capture is woken
// at once by BeginShutdown, so this only covers collecting and sending a profile.
constexpr std::chrono::seconds kShutdownGrace{2};

// The bind address as gRPC wants it ("127.0.0.1:6009", "[::]:6009", "localhost:6009"), or
// kInvalidArgument. Only IP literals and "localhost": a host name could resolve to any
// interface, and a typo must not silently bind every one.
StatusOr<std::string> GrpcListenAddress(const std::string& bind_address, int port) {
  std::string host = bind_address;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  in_addr v4{};
  in6_addr v6{};
  if (host == "localhost" || inet_pton(AF_INET, host.c_str(), &v4) == 1) {
    return host + ":" + std::to_string(port);
  }
  if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) return "[" + host + "]:" + std::to_string(port);
  return InvalidArgumentError("profiler server bind_address '" + bind_address +
                              "' is not an IP address (127.0.0.1 for this machine only, 0.0.0.0 or :: for "
                              "every interface)");
}

// "host:port" a client on this machine can dial: the bound address, or loopback for a
// wildcard bind.
std::string LocalDialAddress(const std::string& listen_address, int port) {
  std::string host = listen_address.substr(0, listen_address.rfind(':'));
  if (host == "0.0.0.0") host = "127.0.0.1";
  if (host == "[::]" || host == "[0:0:0:0:0:0:0:0]") host = "[::1]";
  return host + ":" + std::to_string(port);
}

class GrpcProfilerServer final : public ProfilerServer {
 public:
  GrpcProfilerServer(std::unique_ptr<remote::ProfilerServiceImpl> service,
                     std::unique_ptr<grpc::Server> server, int port, std::string listen_host)
      : service_(std::move(service)), server_(std::move(server)), port_(port),
        listen_address_(listen_host + ":" + std::to_string(port)) {}
  ~GrpcProfilerServer() override { Stop(); }

  int port() const override { return port_; }
  std::string address() const override { return LocalDialAddress(listen_address_, port_); }
  std::string listen_address() const override { return listen_address_; }

  void Stop() override {
    std::lock_guard<std::mutex> lock(stop_mu_);
    if (server_ == nullptr) return;
    service_->BeginShutdown();
    server_->Shutdown(std::chrono::system_clock::now() + kShutdownGrace);
    server_->Wait();
    server_.reset();
  }

 private:
  std::mutex stop_mu_;
  std::unique_ptr<remote::ProfilerServiceImpl> service_;
  std::unique_ptr<grpc::Server> server_;  // null once stopped; guarded by stop_mu_
  const int port_;
  const std::string listen_address_;  // "127.0.0.1:6009", "[::]:6009"
};

}  // namespace

StatusOr<std::unique_ptr<ProfilerServer>> StartProfilerServer(const ProfilerServerOptions& options) {
  if (options.port < 0 || options.port > 65535) {
    return InvalidArgumentError("profiler server port must be 0..65535, got " + std::to_string(options.port));
  }
  if (options.max_duration_ms == 0) return InvalidArgumentError("max_duration_ms must be > 0");
  if (options.max_request_bytes <= 0) return InvalidArgumentError("max_request_bytes must be > 0");
  StatusOr<std::string> bind_address = GrpcListenAddress(options.bind_address, options.port);
  if (!bind_address.ok()) return bind_address.status();
  ProfilerServerOptions service_options = options;
  if (!options.repository_root.empty()) {
    StatusOr<std::string> root = remote::NormalizeRepositoryRoot(options.repository_root);
    if (!root.ok()) return root.status();
    Status created = base::CreateDirectories(*root);
    if (!created.ok()) return created.WithContext("profiler server repository_root");
    service_options.repository_root = *root;
  }

  auto service = std::make_unique<remote::ProfilerServiceImpl>(service_options);
  grpc::ServerBuilder builder;
  int bound_port = 0;
  builder.AddListeningPort(*bind_address, grpc::InsecureServerCredentials(), &bound_port);
  builder.RegisterService(service.get());
  builder.SetMaxReceiveMessageSize(options.max_request_bytes);
  builder.SetMaxSendMessageSize(INT_MAX);
  // gRPC sets SO_REUSEPORT by default, which would let a second process "bind" the same
  // port and receive half the connections. A port belongs to one profiler server.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  grpc::ResourceQuota quota("stepscope_profiler_server");
  quota.SetMaxThreads(kMaxServerThreads);
  builder.SetResourceQuota(quota);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || bound_port == 0) {
    return UnavailableError("the profiler server could not listen on " + *bind_address +
                            " (port in use, address not on this machine, or not permitted)");
  }
  std::string host = bind_address->substr(0, bind_address->rfind(':'));
  return std::unique_ptr<ProfilerServer>(
      new GrpcProfilerServer(std::move(service), std::move(server), bound_port, host));
}

StatusOr<std::unique_ptr<ProfilerServer>> StartProfilerServer(int port) {
  ProfilerServerOptions options;
  options.port = port;
  return StartProfilerServer(options);
}

}  // namespace stepscope
