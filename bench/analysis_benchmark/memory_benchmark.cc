// memory_benchmark: the memory profile on a synthetic profile of ~10 M allocation events
// (synthetic_xspace.h WriteSyntheticMemoryXSpace; override the count with
// STEPSCOPE_MEMORY_BENCH_EVENTS; STEPSCOPE_MEMORY_BENCH_FILE=path also keeps a copy of
// the file there, e.g. to compare the tool's output before and after a change).
//
// The file is written in a temp dir, then a fresh child process pinned to one CPU builds
// the model from it (memory-mapped read, columnar decode, every model phase including the
// memory events) and runs the memory_profile tool; it reports the CPU time of each part
// (one core's time even on a busy machine) and its peak RSS (VmHWM) minus its RSS before
// reading. The model is built as `stepscope analyze` and the CLI tools build it (no event
// trees: memory events decoded by the reader straight into records); a second child
// builds it as the server does (event trees and columns kept for the trace viewer, memory
// events read from the columns). Writes $STEPSCOPE_BENCH_OUT/memory.json: memory_events,
// memory_file_bytes, memory_model_cpu_s, memory_tool_cpu_s, memory_events_per_s (model +
// tool), memory_tool_events_per_s, memory_peak_rss_over_file_size, and for the server's
// model memory_server_events_per_s, memory_server_peak_rss_over_file_size; and what a
// third child measures of the cost below any decoder: memory_floor_file_pages_cpu_s (the
// file mapped and every cache line read) and memory_floor_record_pages_cpu_s (fresh pages
// for one 96-byte record per event, written). Budgets (issue 14): >= 10 M events/s per
// core, peak RSS <= 2x the file.
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "bench/analysis_benchmark/synthetic_xspace.h"
#include "bench/common/bench_figures.h"
#include "bench/common/measure_child.h"
#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tools/memory_profile.h"
#include "src/xspace/columnar/columnar_memory_events.h"


namespace {

using stepscope::bench::FigureLines;
using stepscope::bench::Figures;
using stepscope::bench::ParseFigureLines;
using stepscope::bench::PeakRssBytes;
using stepscope::bench::ProcessCpuSeconds;
using stepscope::bench::ProcStatusBytes;

constexpr uint64_t kDefaultEvents = 10'000'000;


int Measure(const std::string& file, const std::string& out_path, bool keep_event_tree) {
  stepscope::bench::PinToOneCpu();
  const int64_t baseline = ProcStatusBytes("VmRSS:");
  const double start = ProcessCpuSeconds();
  stepscope::analysis::ModelOptions options;
  options.keep_event_tree = keep_event_tree;
  auto model = stepscope::analysis::BuildProfileModelFromFile(file, options);
  if (!model.ok()) {
    std::fprintf(stderr, "memory_benchmark: %s\n", model.status().ToString().c_str());
    return 1;
  }
  const double built = ProcessCpuSeconds();
  stepscope::analysis::MemoryProfileResult result = stepscope::analysis::ComputeMemoryProfile(*model);
  const double done = ProcessCpuSeconds();
  std::ofstream out(out_path);
  out << FigureLines({{"events", static_cast<double>(model->memory.size())},
                      {"allocators", static_cast<double>(result.allocators.size())},
                      {"model_cpu_s", built - start},
                      {"tool_cpu_s", done - built},
                      {"baseline_rss", static_cast<double>(baseline)},
                      {"peak_rss", static_cast<double>(PeakRssBytes())}});
  return out ? 0 : 1;
}

// Child: what any reading of this file into 96-byte records costs on this machine before
// a single field is decoded (one core, as Measure): the file mapped and every cache line
// of it loaded, and as many fresh pages as the records take, written. On a VM, first
// touches of memory are slow, and both are a large share of the per-core budget.
int MeasureFloor(const std::string& file, uint64_t events, const std::string& out_path) {
  stepscope::bench::PinToOneCpu();
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 1;
  struct stat info{};
  if (::fstat(fd, &info) != 0) {
    ::close(fd);
    return 1;
  }
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  double start = ProcessCpuSeconds();
  void* mapped = ::mmap(nullptr, info.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (mapped == MAP_FAILED) return 1;
  ::madvise(mapped, info.st_size, MADV_SEQUENTIAL);
  uint64_t sum = 0;
  // Every cache line: a decoder reads every byte.
  for (size_t i = 0; i < static_cast<size_t>(info.st_size); i += 64) sum += static_cast<const uint8_t*>(mapped)[i];
  ::munmap(mapped, info.st_size);
  const double file_pages = ProcessCpuSeconds() - start;
  const size_t record_bytes = events * sizeof(stepscope::xspace::MemoryEvent);
  start = ProcessCpuSeconds();
  void* records = ::mmap(nullptr, record_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (records == MAP_FAILED) return 1;
  for (size_t i = 0; i < record_bytes; i += page) static_cast<volatile uint8_t*>(records)[i] = static_cast<uint8_t>(sum);
  ::munmap(records, record_bytes);
  const double record_pages = ProcessCpuSeconds() - start;
  std::ofstream out(out_path);
  out << FigureLines({{"file_pages_cpu_s", file_pages}, {"record_pages_cpu_s", record_pages}});
  return out ? 0 : 1;
}

Figures RunChild(const std::string& file, const std::string& dir, bool keep_event_tree) {
  return stepscope::bench::RunMeasuringChild({keep_event_tree ? "--measure-tree" : "--measure", file},
                                             dir + "/child.txt");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--measure") return Measure(argv[2], argv[3], false);
  if (argc == 4 && std::string(argv[1]) == "--measure-tree") return Measure(argv[2], argv[3], true);
  if (argc == 5 && std::string(argv[1]) == "--floor") {
    return MeasureFloor(argv[2], std::strtoull(argv[3], nullptr, 10), argv[4]);
  }
  uint64_t target = kDefaultEvents;
  if (const char* n = std::getenv("STEPSCOPE_MEMORY_BENCH_EVENTS")) target = std::strtoull(n, nullptr, 10);
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("stepscope_memory_bench_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "memory.xplane.pb").string();
  auto written = stepscope::bench::WriteSyntheticMemoryXSpace(file, target);
  if (!written.ok()) {
    std::fprintf(stderr, "memory_benchmark: %s\n", written.status().ToString().c_str());
    return 1;
  }
  if (const char* keep = std::getenv("STEPSCOPE_MEMORY_BENCH_FILE")) {
    std::error_code error;
    std::filesystem::copy_file(file, keep, std::filesystem::copy_options::overwrite_existing, error);
    if (error) std::fprintf(stderr, "memory_benchmark: cannot keep the file at %s: %s\n", keep, error.message().c_str());
  }
  Figures r = RunChild(file, dir.string(), false);
  Figures server = RunChild(file, dir.string(), true);
  Figures floor = r.empty() ? Figures{}
                            : stepscope::bench::RunMeasuringChild(
                                  {"--floor", file, std::to_string(static_cast<uint64_t>(r["events"]))},
                                  (dir / "floor.txt").string());
  std::filesystem::remove_all(dir);
  if (r.empty() || server.empty() || floor.empty()) {
    std::fprintf(stderr, "memory_benchmark: the measuring child failed\n");
    return 1;
  }
  const double events = r["events"];
  const double file_bytes = static_cast<double>(written->file_bytes);
  Figures figures = {
      {"memory_events", events},
      {"memory_file_bytes", file_bytes},
      {"memory_model_cpu_s", r["model_cpu_s"]},
      {"memory_tool_cpu_s", r["tool_cpu_s"]},
      {"memory_events_per_s", events / (r["model_cpu_s"] + r["tool_cpu_s"])},
      {"memory_tool_events_per_s", r["tool_cpu_s"] > 0 ? events / r["tool_cpu_s"] : 0},
      {"memory_peak_rss_over_file_size", (r["peak_rss"] - r["baseline_rss"]) / file_bytes},
      {"memory_server_events_per_s", server["events"] / (server["model_cpu_s"] + server["tool_cpu_s"])},
      {"memory_server_peak_rss_over_file_size", (server["peak_rss"] - server["baseline_rss"]) / file_bytes},
      // Before any decoding: the file's pages and the records' fresh pages (MeasureFloor).
      {"memory_floor_file_pages_cpu_s", floor["file_pages_cpu_s"]},
      {"memory_floor_record_pages_cpu_s", floor["record_pages_cpu_s"]},
  };
  return stepscope::bench::WriteFigures("memory", figures);
}
