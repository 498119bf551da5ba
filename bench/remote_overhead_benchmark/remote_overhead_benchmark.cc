// What an idle profiler server costs a training program (issue 7): the example's mean
// step time with `--profiler_port` (a gRPC server waiting for captures) against without,
// measured in alternating runs of the real mnist_mlp binary so that drift in the
// machine's load hits both sides alike. The headline is the ratio of the medians.
//
// Writes $STEPSCOPE_BENCH_OUT/remote_overhead.json: step_ms_without_server,
// step_ms_with_idle_server (medians over kPairs runs each), idle_server_overhead_percent,
// and the spread of each side (max - min over its runs) so the noise is visible.
#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/common/bench_figures.h"

namespace stepscope::bench {
namespace {

constexpr int kPairs = 7;
constexpr const char* kTrainFlags =
    " --steps 300 --input_threads 2 --prefetch 8 --cache --log_every 0 --train_examples 8192";

// A port nothing listens on right now (the kernel picks it).
int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  int port = 0;
  if (fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  if (fd >= 0) close(fd);
  return port;
}

// Runs the example and returns its own mean step time (mean_step_ms=... on stdout), or a
// negative number when it failed.
double MeanStepMs(const std::string& data_dir, int profiler_port) {
  std::string command = std::string("'") + MNIST_MLP_PATH + "'" + kTrainFlags + " --data_dir '" + data_dir + "'";
  if (profiler_port > 0) command += " --profiler_port " + std::to_string(profiler_port);
  FILE* child = popen((command + " 2>&1").c_str(), "r");
  if (child == nullptr) return -1;
  std::string output;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), child)) > 0) output.append(buffer, n);
  if (pclose(child) != 0) {
    std::fprintf(stderr, "remote_overhead_benchmark: mnist_mlp failed:\n%s\n", output.c_str());
    return -1;
  }
  const size_t at = output.rfind("mean_step_ms=");
  return at == std::string::npos ? -1 : std::strtod(output.c_str() + at + 13, nullptr);
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double Spread(const std::vector<double>& values) {
  auto [low, high] = std::minmax_element(values.begin(), values.end());
  return *high - *low;
}

// One warm-up run (generates the dataset, warms the page cache for both sides), then
// kPairs alternating runs without and with an idle server. False when a run failed.
bool MeasurePairs(const std::string& data_dir, std::vector<double>* without, std::vector<double>* with) {
  if (MeanStepMs(data_dir, 0) < 0) return false;
  for (int pair = 0; pair < kPairs; ++pair) {
    const double off = MeanStepMs(data_dir, 0);
    const double on = MeanStepMs(data_dir, FreePort());
    if (off < 0 || on < 0) return false;
    without->push_back(off);
    with->push_back(on);
    std::printf("pair %d: without server %.3f ms/step, with idle server %.3f ms/step\n", pair, off, on);
  }
  return true;
}

int Run() {
  char dir_template[] = "/tmp/stepscope_remote_bench_XXXXXX";
  if (mkdtemp(dir_template) == nullptr) {
    std::perror("mkdtemp");
    return 1;
  }
  std::vector<double> without, with;
  const bool measured = MeasurePairs(std::string(dir_template) + "/mnist_data", &without, &with);
  std::error_code ignored;
  std::filesystem::remove_all(dir_template, ignored);  // the generated dataset, on every path
  if (!measured) return 1;
  const double off = Median(without), on = Median(with);
  return WriteFigures("remote_overhead", {{"step_ms_without_server", off},
                                          {"step_ms_with_idle_server", on},
                                          {"idle_server_overhead_percent", 100.0 * (on - off) / off},
                                          {"step_ms_without_server_spread", Spread(without)},
                                          {"step_ms_with_idle_server_spread", Spread(with)},
                                          {"pairs", kPairs}});
}

}  // namespace
}  // namespace stepscope::bench

int main() { return stepscope::bench::Run(); }
