#include "bench/common/bench_figures.h"

#include <time.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace stepscope::bench {

int64_t ProcStatusBytes(std::string_view key) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (std::string_view(line).substr(0, key.size()) == key) {
      return std::strtoll(line.c_str() + key.size(), nullptr, 10) * 1024;
    }
  }
  return 0;
}

double ProcessCpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

int WriteFigures(std::string_view bench_name, const Figures& figures) {
  const char* out_dir = std::getenv("STEPSCOPE_BENCH_OUT");
  const std::filesystem::path dir = out_dir != nullptr && *out_dir != '\0' ? out_dir : STEPSCOPE_DEFAULT_BENCH_OUT;
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  const std::filesystem::path path = dir / (std::string(bench_name) + ".json");
  std::ostringstream json;
  json.precision(9);
  json << "{";
  bool first = true;
  for (const auto& [name, value] : figures) {
    // JSON has no NaN or infinity; a figure that could not be measured is left out.
    if (!std::isfinite(value)) continue;
    json << (first ? "\n" : ",\n") << "  \"" << name << "\": " << value;
    first = false;
  }
  json << "\n}\n";
  std::printf("%s", json.str().c_str());
  std::ofstream out(path);
  out << json.str();
  out.close();
  if (!out) {
    std::fprintf(stderr, "%.*s: could not write %s\n", static_cast<int>(bench_name.size()), bench_name.data(),
                 path.c_str());
    return 1;
  }
  std::printf("figures written to %s\n", path.c_str());
  return 0;
}

std::string FigureLines(const Figures& figures) {
  std::ostringstream out;
  out.precision(17);
  for (const auto& [name, value] : figures) out << name << ' ' << value << '\n';
  return out.str();
}

Figures ParseFigureLines(std::string_view text) {
  Figures figures;
  std::istringstream in{std::string(text)};
  std::string name;
  double value;
  while (in >> name >> value) figures[name] = value;
  return figures;
}

}  // namespace stepscope::bench
