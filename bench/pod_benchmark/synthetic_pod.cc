// synthetic_pod DIR HOSTS EVENTS_PER_HOST GPUS: writes a pod profile for the pod benchmark,
// DIR/plugins/profile/pod/host<NNNN>.xplane.pb, one synthetic host per file (8 GPUs each in
// the benchmark; bench/analysis_benchmark/synthetic_xspace.h says what a host holds), on
// every core. Prints "<hosts> <bytes>" when done.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "bench/analysis_benchmark/synthetic_xspace.h"
#include "src/base/cores.h"

namespace {

bool ParseInt(const char* text, int64_t* value) {
  const std::string_view s(text);
  auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), *value);
  return error == std::errc() && end == s.data() + s.size() && *value > 0;
}

}  // namespace

int main(int argc, char** argv) {
  int64_t hosts = 0, events = 0, gpus = 0;
  if (argc != 5 || !ParseInt(argv[2], &hosts) || !ParseInt(argv[3], &events) || !ParseInt(argv[4], &gpus)) {
    std::fprintf(stderr, "usage: synthetic_pod DIR HOSTS EVENTS_PER_HOST GPUS\n");
    return 2;
  }
  const std::filesystem::path run = std::filesystem::path(argv[1]) / "plugins" / "profile" / "pod";
  std::filesystem::create_directories(run);
  std::atomic<int64_t> next{0}, bytes{0}, failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < std::max(1, stepscope::base::UsableCores()); ++t) {
    threads.emplace_back([&] {
      for (int64_t h = next++; h < hosts; h = next++) {
        char name[48];
        std::snprintf(name, sizeof(name), "host%04lld.xplane.pb", static_cast<long long>(h));
        auto written = stepscope::bench::WriteSyntheticXSpace(
            (run / name).string(), static_cast<uint64_t>(events),
            {.gpus = static_cast<int>(gpus), .host_index = static_cast<int>(h)});
        if (!written.ok()) {
          std::fprintf(stderr, "synthetic_pod: %s\n", written.status().ToString().c_str());
          ++failed;
          continue;
        }
        bytes += static_cast<int64_t>(written->file_bytes);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  if (failed > 0) return 1;
  std::printf("%lld %lld\n", static_cast<long long>(hosts), static_cast<long long>(bytes.load()));
  return 0;
}
