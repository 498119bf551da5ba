// server_benchmark: request latency of `stepscope serve` under keep-alive and beside
// clients that never read.
//
// A real server (in process, loopback) over a synthetic run. Measures, for GET /api/runs:
//   - keepalive_p50_ms / keepalive_p99_ms: 2,000 requests on one kept-alive connection
//     (each answered before the next is sent). Head and body went out in two writes
//     without TCP_NODELAY, and every request after the first waited ~40 ms for the
//     client's delayed ACK;
//   - new_connection_p50_ms: 500 requests, each on a fresh connection;
//   - slow_readers_worst_ms: the worst of 20 requests while 16 connections that asked for
//     a trace export never read it (the server has 2 workers), which was 10 s with a
//     fixed pool of workers.
// Writes $STEPSCOPE_BENCH_OUT/server.json. Run by ./dev bench server.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench/common/bench_figures.h"
#include "src/server/http_server.h"
#include "src/xspace/logdir.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"
#include "tests/integration/http_test_client.h"

namespace stepscope::bench {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// `steps` steps of three events each on one host thread: 3 MB of export at 30 k steps.
xspace::XSpace SyntheticRun(int steps) {
  xspace::XSpace space;
  xspace::XPlaneBuilder plane(space.add_planes());
  plane.SetName(xspace::kHostThreadsPlaneName);
  xspace::XLineBuilder line = plane.GetOrCreateLine(1);
  line.SetName("main");
  for (int i = 0; i < steps; ++i) {
    const int64_t begin_ps = int64_t{i} * 10'000'000'000;
    xspace::XEventBuilder step = line.AddEvent(*plane.GetOrCreateEventMetadata("train"));
    step.SetOffsetPs(begin_ps);
    step.SetDurationPs(9'000'000'000);
    step.AddStatValue(*plane.GetOrCreateStatMetadata("step_num"), int64_t{i});
    step.AddStatValue(*plane.GetOrCreateStatMetadata("_r"), int64_t{1});
    line.AddEvent(*plane.GetOrCreateEventMetadata("IteratorGetNext")).SetOffsetPs(begin_ps + 1'000'000);
    line.AddEvent(*plane.GetOrCreateEventMetadata("MatMul")).SetOffsetPs(begin_ps + 3'000'000'000);
  }
  return space;
}

double Percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, static_cast<size_t>(p * static_cast<double>(values.size())))];
}

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

int Run() {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("stepscope_server_bench_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const std::string logdir = (dir / "logdir").string();
  if (!xspace::WriteXSpaceToLogdir(logdir, "run", "worker0", SyntheticRun(30'000)).ok()) return 1;
  std::filesystem::create_directories(dir / "ui");
  std::ofstream(dir / "ui" / "index.html") << "<!doctype html><title>bench</title>";
  server::ServerOptions options;
  options.logdir = logdir;
  options.port = 0;
  options.ui_dir = (dir / "ui").string();
  options.worker_threads = 2;
  auto created = server::HttpServer::Create(options);
  if (!created.ok()) {
    std::fprintf(stderr, "server_benchmark: %s\n", created.status().ToString().c_str());
    return 1;
  }
  std::unique_ptr<server::HttpServer> server = std::move(created).value();
  std::thread serving([&] { server->Run().IgnoreError(); });
  const std::string host = "Host: 127.0.0.1:" + std::to_string(server->port()) + "\r\n";
  const std::string runs = "GET /api/runs HTTP/1.1\r\n" + host + "\r\n";

  // The front closes a connection after 100 requests: connections of 99 until 2,000.
  std::vector<double> keepalive;
  for (int c = 0; c < 25 && keepalive.size() < 2000; ++c) {
    testing::HttpTestConnection connection(server->port());
    for (int i = 0; i < 99; ++i) {
      Clock::time_point start = Clock::now();
      if (!connection.Send(runs) || connection.Read(milliseconds(5000)).status != 200) break;
      keepalive.push_back(Ms(Clock::now() - start));
    }
  }
  std::vector<double> fresh;
  const std::string close = "GET /api/runs HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n";
  for (int i = 0; i < 500; ++i) {
    Clock::time_point start = Clock::now();
    testing::HttpTestConnection connection(server->port());
    if (!connection.Send(close) || connection.Read(milliseconds(5000)).status != 200) break;
    fresh.push_back(Ms(Clock::now() - start));
  }
  std::vector<std::unique_ptr<testing::HttpTestConnection>> stalled;
  for (int i = 0; i < 16; ++i) {
    stalled.push_back(std::make_unique<testing::HttpTestConnection>(server->port(), milliseconds(2000), 4096));
    stalled.back()->Send("GET /api/trace/export?run=run HTTP/1.1\r\n" + host + "\r\n");
  }
  std::this_thread::sleep_for(milliseconds(500));
  double worst = 0;
  for (int i = 0; i < 20; ++i) {
    Clock::time_point start = Clock::now();
    testing::HttpTestConnection connection(server->port());
    int status = connection.Send(close) ? connection.Read(milliseconds(15000)).status : 0;
    worst = std::max(worst, status == 200 ? Ms(Clock::now() - start) : 15000.0);
  }
  stalled.clear();
  server->Stop();
  serving.join();
  std::filesystem::remove_all(dir);
  if (keepalive.empty() || fresh.empty()) {
    std::fprintf(stderr, "server_benchmark: requests failed\n");
    return 1;
  }
  return WriteFigures("server", {{"keepalive_p50_ms", Percentile(keepalive, 0.5)},
                                 {"keepalive_p99_ms", Percentile(keepalive, 0.99)},
                                 {"keepalive_requests", static_cast<double>(keepalive.size())},
                                 {"new_connection_p50_ms", Percentile(fresh, 0.5)},
                                 {"slow_readers_worst_ms", worst}});
}

}  // namespace
}  // namespace stepscope::bench

int main() { return stepscope::bench::Run(); }
