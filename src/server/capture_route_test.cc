// POST /api/capture: the route on its own (validation, a dead worker, a live in-process
// profiler server) and through a real HTTP server (method, Origin and Content-Type guards).
#include "src/server/capture_route.h"

#include <httplib.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "src/server/http_server.h"
#include "src/xspace/logdir.h"
#include "src/xspace/xspace_io.h"
#include "stepscope/profiler_server.h"
#include "stepscope/step.h"

namespace stepscope::server {
namespace {

std::string FreshLogdir(const std::string& name) {
  std::string dir = std::string(::testing::TempDir()) + "/capture_route_" + std::to_string(getpid()) + "_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

int FreePort() {
  ProfilerServerOptions options;
  auto probe = StartProfilerServer(options);
  return probe.ok() ? (*probe)->port() : 1;
}

TEST(CaptureRouteTest, RequestsAreValidatedBeforeAnyConnection) {
  CaptureRoute route(FreshLogdir("validate"));
  EXPECT_EQ(route.Handle("text/plain", R"({"service_addresses": "h:1"})").status, 415);
  EXPECT_EQ(route.Handle("application/x-www-form-urlencoded", "service_addresses=h:1").status, 415);
  HttpReply reply = route.Handle("application/json", "{not json");
  EXPECT_EQ(reply.status, 400);
  EXPECT_NE(reply.body.find("not valid JSON"), std::string::npos);
  reply = route.Handle("application/json", R"({"duration_ms": 100})");
  EXPECT_EQ(reply.status, 400);
  EXPECT_NE(reply.body.find("missing service_addresses"), std::string::npos);
  reply = route.Handle("application/json", R"({"service_addresses": "localhost", "duration_ms": 100})");
  EXPECT_EQ(reply.status, 400);
  EXPECT_NE(reply.body.find("no port"), std::string::npos);
  reply = route.Handle("application/json; charset=utf-8", R"({"service_addresses": "h:1", "duration_ms": 0})");
  EXPECT_EQ(reply.status, 400);
  EXPECT_NE(reply.body.find("duration_ms"), std::string::npos);
  reply = route.Handle("application/json", R"({"service_addresses": "h:1", "host_tracer_level": 9})");
  EXPECT_EQ(reply.status, 400);
  reply = route.Handle("application/json", R"({"service_addresses": "h:1", "bogus": 1})");
  EXPECT_EQ(reply.status, 400);
  EXPECT_NE(reply.body.find("unknown field 'bogus'"), std::string::npos);
  reply = route.Handle("application/json", R"({"service_addresses": "h:1", "run": "../escape"})");
  EXPECT_EQ(reply.status, 400);
  // A run name the server would refuse to serve is refused when it is named.
  reply = route.Handle("application/json", R"({"service_addresses": "h:1", "run": "a\u001b[2Jb"})");
  EXPECT_EQ(reply.status, 400);
  EXPECT_NE(reply.body.find("control character"), std::string::npos) << reply.body;
  // gRPC would read "unix:1234" as a socket named 1234 in the server's directory.
  for (const char* unix_target : {"grpc://unix:1234", "unix:1234", "unix:/tmp/worker.sock"}) {
    reply = route.Handle("application/json", std::string(R"({"service_addresses": ")") + unix_target + R"("})");
    EXPECT_EQ(reply.status, 400) << unix_target;
  }
}

// POST /api/capture with "run" naming a symbolic link, inside the logdir, to a directory
// outside it: the capture must not write through it.
TEST(CaptureRouteTest, ASymlinkedRunDirectoryIsRefused) {
  std::string logdir = FreshLogdir("symlink");
  std::string outside = FreshLogdir("symlink_outside");
  std::filesystem::create_directories(logdir + "/plugins/profile");
  std::filesystem::create_directory_symlink(outside, logdir + "/plugins/profile/evil");
  CaptureRoute route(logdir);
  HttpReply reply = route.Handle("application/json", R"({"service_addresses": "127.0.0.1:1", "run": "evil"})");
  EXPECT_EQ(reply.status, 400) << reply.body;
  EXPECT_NE(reply.body.find("symbolic link"), std::string::npos) << reply.body;
  EXPECT_TRUE(std::filesystem::is_empty(outside));
}

TEST(CaptureRouteTest, WorkerAndResponseCapsAreEnforcedBeforeAnyConnection) {
  std::string logdir = FreshLogdir("caps");
  // 257 distinct addresses (nothing listens on 127.0.0.2): over the default cap of 256.
  std::string many;
  for (int i = 0; i <= remote::kDefaultMaxCaptureWorkers; ++i) {
    many += (many.empty() ? "" : ",") + std::string("127.0.0.2:") + std::to_string(10000 + i);
  }
  CaptureRoute route(logdir);
  auto start = std::chrono::steady_clock::now();
  HttpReply reply = route.Handle("application/json", R"({"service_addresses": ")" + many + R"("})");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  EXPECT_EQ(reply.status, 400);
  EXPECT_NE(reply.body.find("257 workers in one capture, over the limit of 256 (max_workers)"), std::string::npos)
      << reply.body;

  CaptureRoute capped(logdir, CaptureLimits{.max_workers = 2, .max_response_bytes = uint64_t{2} << 20});
  reply = capped.Handle("application/json", R"({"service_addresses": "h:1,h:2,h:3"})");
  EXPECT_EQ(reply.status, 400);
  EXPECT_NE(reply.body.find("over the limit of 2 (max_workers)"), std::string::npos) << reply.body;
  // Two workers share 2 MiB: 1 MiB each is allowed; three would be refused by the byte cap.
  CaptureRoute budget(logdir, CaptureLimits{.max_workers = 8, .max_response_bytes = uint64_t{2} << 20});
  reply = budget.Handle("application/json", R"({"service_addresses": "h:1,h:2,h:3"})");
  EXPECT_EQ(reply.status, 400);
  EXPECT_NE(reply.body.find("max_response_bytes 2097152 leaves"), std::string::npos) << reply.body;
  EXPECT_FALSE(std::filesystem::exists(logdir + "/plugins")) << "nothing may be written for a refused request";
}

TEST(CaptureRouteTest, LiveAndDeadWorkersAreReportedPerWorker) {
  ProfilerServerOptions server_options;
  auto server = StartProfilerServer(server_options);
  ASSERT_TRUE(server.ok());
  std::atomic<bool> stop{false};
  std::thread training([&] {
    for (int64_t n = 0; !stop; ++n) {
      Step step("train", n);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  std::string logdir = FreshLogdir("live");
  CaptureRoute route(logdir);
  std::string dead = "127.0.0.1:" + std::to_string(FreePort());
  std::string body = R"({"service_addresses": ["grpc://)" + (*server)->address() + R"(", "grpc://)" + dead +
                     R"("], "duration_ms": 200, "retries": 0, "run": "from_ui"})";
  HttpReply reply = route.Handle("application/json", body);
  // The same run again, while the program still trains: the worker's file is there, and
  // is not replaced.
  HttpReply again = route.Handle("application/json", R"({"service_addresses": ")" + (*server)->address() +
                                                         R"(", "duration_ms": 100, "retries": 0, "run": "from_ui"})");
  stop = true;
  training.join();
  EXPECT_EQ(reply.status, 200) << reply.body;
  EXPECT_NE(reply.body.find(R"("run":"from_ui")"), std::string::npos) << reply.body;
  EXPECT_NE(reply.body.find(R"("succeeded":1,"failed":1)"), std::string::npos) << reply.body;
  EXPECT_NE(reply.body.find(R"("address":")" + dead + R"(","host":")"), std::string::npos);
  EXPECT_NE(reply.body.find("UNAVAILABLE"), std::string::npos);
  EXPECT_NE(reply.body.find(R"("dropped_events":0,)"), std::string::npos) << reply.body;    // the live worker
  EXPECT_NE(reply.body.find(R"("dropped_events":null,)"), std::string::npos) << reply.body;  // the dead one
  // The device level defaults to 1 (TensorBoard's default); this worker has no device
  // tracer and says so.
  EXPECT_NE(reply.body.find("device tracer level 1 requested"), std::string::npos) << reply.body;
  auto hosts = xspace::ListHosts(logdir + "/plugins/profile/from_ui");
  ASSERT_TRUE(hosts.ok());
  ASSERT_EQ(hosts->size(), 1u);
  EXPECT_EQ(again.status, 200);
  EXPECT_NE(again.body.find(R"("succeeded":0,"failed":1)"), std::string::npos) << again.body;
  EXPECT_NE(again.body.find("already exists"), std::string::npos) << again.body;
  auto kept = xspace::ReadXSpaceFile(hosts->front().path);
  EXPECT_TRUE(kept.ok()) << "the first capture's file is whole";

  reply = route.Handle("application/json", R"({"service_addresses": ")" + dead + R"(", "duration_ms": 100, "retries": 0})");
  EXPECT_EQ(reply.status, 200);
  EXPECT_NE(reply.body.find(R"("succeeded":0,"failed":1)"), std::string::npos) << reply.body;
  EXPECT_NE(reply.body.find("no worker was captured"), std::string::npos);
}

TEST(CaptureRouteTest, HttpGuardsAllowOnlySameOriginJsonPosts) {
  ServerOptions options;
  options.logdir = FreshLogdir("http");
  options.port = 0;
  auto server = HttpServer::Create(options);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  std::thread serving([&] { (*server)->Run().IgnoreError(); });
  httplib::Client client("127.0.0.1", (*server)->port());
  std::string dead = "127.0.0.1:" + std::to_string(FreePort());
  std::string body = R"({"service_addresses": ")" + dead + R"(", "duration_ms": 100, "retries": 0})";

  auto result = client.Post("/api/capture", body, "application/json");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, 200) << result->body;  // reached the route: the worker is dead
  EXPECT_NE(result->body.find(R"("succeeded":0)"), std::string::npos) << result->body;
  result = client.Post("/api/capture", body, "text/plain");  // a cross-site form could send this
  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, 415);
  httplib::Headers foreign = {{"Origin", "http://evil.example"}};
  result = client.Post("/api/capture", foreign, body, "application/json");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, 403);
  httplib::Headers same = {{"Origin", "http://127.0.0.1:" + std::to_string((*server)->port())}};
  result = client.Post("/api/capture", same, body, "application/json");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, 200);
  EXPECT_NE(result->body.find(R"("succeeded":0)"), std::string::npos) << result->body;
  result = client.Post("/api/runs", "{}", "application/json");  // every other POST stays refused
  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, 405);
  (*server)->Stop();
  serving.join();
}

}  // namespace
}  // namespace stepscope::server
