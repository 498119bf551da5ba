// Where the profiler server listens: 127.0.0.1 unless asked, every interface with
// bind_address "0.0.0.0", and bad addresses refused. Real sockets, this machine's own
// non-loopback IPv4 address standing in for "another machine on the network".
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <optional>
#include <string>

#include "proto/stepscope/profiler_service.grpc.pb.h"
#include "stepscope/profiler_server.h"

namespace stepscope {
namespace {

// An IPv4 address of an up, non-loopback interface of this machine, if there is one.
std::optional<std::string> NonLoopbackIpv4() {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return std::nullopt;
  std::optional<std::string> found;
  for (ifaddrs* entry = list; entry != nullptr && !found; entry = entry->ifa_next) {
    if (entry->ifa_addr == nullptr || entry->ifa_addr->sa_family != AF_INET) continue;
    if ((entry->ifa_flags & IFF_UP) == 0 || (entry->ifa_flags & IFF_LOOPBACK) != 0) continue;
    in_addr address = reinterpret_cast<sockaddr_in*>(entry->ifa_addr)->sin_addr;
    if ((ntohl(address.s_addr) >> 24) == 127) continue;
    char text[INET_ADDRSTRLEN] = {};
    if (inet_ntop(AF_INET, &address, text, sizeof(text)) != nullptr) found = text;
  }
  freeifaddrs(list);
  return found;
}

// 0 when a TCP connection to ip:port is accepted, else the connect errno.
int ConnectError(const std::string& ip, int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  timeval timeout{2, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, ip.c_str(), &address.sin_addr);
  int result = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 ? 0 : errno;
  ::close(fd);
  return result;
}

// A real RPC answered (Monitor: UNIMPLEMENTED, at once) proves a gRPC server is there.
bool AnswersRpc(const std::string& target) {
  auto stub = tensorflow::ProfilerService::NewStub(grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  tensorflow::MonitorRequest request;
  tensorflow::MonitorResponse response;
  return stub->Monitor(&context, request, &response).error_code() == grpc::StatusCode::UNIMPLEMENTED;
}

TEST(ProfilerServerBindTest, TheDefaultServerListensOnLoopbackOnly) {
  EXPECT_EQ(ProfilerServerOptions().bind_address, "127.0.0.1");
  auto server = StartProfilerServer(0);  // TensorFlow's form: server.start(port)
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  int port = (*server)->port();
  EXPECT_EQ((*server)->listen_address(), "127.0.0.1:" + std::to_string(port));
  EXPECT_EQ((*server)->address(), "127.0.0.1:" + std::to_string(port));
  EXPECT_EQ(ConnectError("127.0.0.1", port), 0);
  EXPECT_TRUE(AnswersRpc((*server)->address()));

  std::optional<std::string> external = NonLoopbackIpv4();
  if (!external) GTEST_SKIP() << "this machine has no non-loopback IPv4 address to try the server from";
  EXPECT_EQ(ConnectError(*external, port), ECONNREFUSED)
      << "the default profiler server must not be reachable on " << *external;
}

TEST(ProfilerServerBindTest, BindAddressZeroListensOnEveryInterface) {
  ProfilerServerOptions options;
  options.bind_address = "0.0.0.0";
  auto server = StartProfilerServer(options);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  int port = (*server)->port();
  EXPECT_EQ((*server)->listen_address(), "0.0.0.0:" + std::to_string(port));
  EXPECT_EQ((*server)->address(), "127.0.0.1:" + std::to_string(port));
  EXPECT_TRUE(AnswersRpc((*server)->address()));

  std::optional<std::string> external = NonLoopbackIpv4();
  if (!external) GTEST_SKIP() << "this machine has no non-loopback IPv4 address to try the server from";
  EXPECT_EQ(ConnectError(*external, port), 0);
  EXPECT_TRUE(AnswersRpc(*external + ":" + std::to_string(port)));
}

TEST(ProfilerServerBindTest, AddressesThatAreNotIpLiteralsAreRefused) {
  ProfilerServerOptions options;
  for (const char* bad : {"", "example.com", "0.0.0.0:6009", "127.0.0.1 ", "[::1"}) {
    options.bind_address = bad;
    auto server = StartProfilerServer(options);
    ASSERT_FALSE(server.ok()) << bad;
    EXPECT_EQ(server.status().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(server.status().message().find("bind_address '" + std::string(bad) + "'"), std::string::npos)
        << server.status().message();
  }
  // An address that is not this machine's cannot be bound.
  options.bind_address = "192.0.2.254";  // TEST-NET-1
  auto foreign = StartProfilerServer(options);
  if (foreign.ok()) GTEST_SKIP() << "192.0.2.254 is an address of this machine";
  EXPECT_EQ(foreign.status().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace stepscope
