// Import throughput and memory (issues 4 and 11): imports the largest shared test trace and
// a synthetic Kineto-style trace (1 GB unless STEPSCOPE_BENCH_IMPORT_MB says otherwise), plain
// and gzipped, the way `stepscope import` does (into columns, written as an XSpace file),
// each in a forked child so its peak RSS is its own. Writes $STEPSCOPE_BENCH_OUT/import.json with
//   import_mb_per_s                 JSON MB per CPU second, synthetic trace, one thread
//   import_mb_per_s_all_cores       JSON MB per wall second, synthetic trace, one thread
//                                   per core (ImportOptions::threads = 0)
//   import_gz_mb_per_s              the same two for the synthetic trace gzipped (level 6):
//   import_gz_mb_per_s_all_cores    JSON MB (inflated) per CPU / wall second
//   import_threads                  the threads "all cores" used
//   import_events_per_s             trace events per CPU second, synthetic trace
//   import_peak_rss_over_file_size  child peak RSS / file size, synthetic trace
// and the same per input, plus the tokenizer alone (what the JSON parsing costs) and wall
// times. CPU time is the per-core figure because the machine may be shared. The synthetic
// trace is imported once before the import the headline figures come from (a warm-up,
// reported apart as synthetic_import_first_*): on the development VM the first import
// after the gigabyte was written measured 465-689 MB/s and the next one 720-800, the
// memory faulted in first being dearer for a while there, which says nothing of the
// importer.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/common/bench_figures.h"
#include "bench/import_benchmark/synthetic_kineto_trace.h"
#include "src/base/output_file.h"
#include "src/importers/byte_source.h"
#include "src/importers/importer_registry.h"
#include "src/importers/json/trace_json_reader.h"
#include "src/xspace/columnar/columnar_writer.h"

namespace stepscope::bench {
namespace {

namespace fs = std::filesystem;

// Default size of the synthetic trace: the "1 GB trace".
constexpr uint64_t kDefaultSyntheticMb = 1024;

struct ChildResult {
  int ok = 0;
  double wall_s = 0;
  double cpu_s = 0;
  uint64_t json_bytes = 0;
  uint64_t events = 0;
  uint64_t xevents = 0;
  long peak_rss_kb = 0;  // filled by the parent
};

class NullSink : public importers::TraceJsonSink {
 public:
  void OnEvent(const importers::RawTraceEvent& event) override { ++events; }
  uint64_t events = 0;
};

// Runs `work` in a forked child; the child's peak RSS is taken from wait4().
template <typename Work>
ChildResult RunInChild(Work work) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    ChildResult result = work();
    ssize_t written = write(fds[1], &result, sizeof(result));
    _exit(written == sizeof(result) ? 0 : 1);
  }
  close(fds[1]);
  ChildResult result;
  ssize_t got = read(fds[0], &result, sizeof(result));
  close(fds[0]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  if (got != sizeof(result) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return {};
  result.peak_rss_kb = usage.ru_maxrss;
  return result;
}

// Writes the file's dirty pages to disk now. The synthetic trace is written just before it
// is imported; without this the kernel writes its gigabyte back during the timed imports,
// its writeback threads taking CPU and the disk from them.
void FlushToDisk(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// `threads` as ImportOptions::threads: 1 for the per-core figures, 0 for all cores.
ChildResult ImportInChild(const std::string& path, int threads) {
  return RunInChild([&path, threads] {
    ChildResult result;
    auto wall_start = std::chrono::steady_clock::now();
    double cpu_start = ProcessCpuSeconds();
    // As `stepscope import` does: into columns, written as an XSpace file (without the
    // fsync, which measures the disk, and then discarded).
    xspace::ColumnarXSpace space;
    importers::ImportStats stats;
    importers::ImportOptions options;
    options.threads = threads;
    Status status = importers::ImportTraceFileColumnar(path, options, &space, &stats);
    if (status.ok()) {
      StatusOr<std::unique_ptr<base::OutputFile>> file = base::OutputFile::Open(path + ".xplane.pb", {});
      status = file.ok() ? xspace::WriteColumnarXSpace(space, file->get()) : file.status();
    }  // the temporary file is removed unclosed
    result.cpu_s = ProcessCpuSeconds() - cpu_start;
    result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    result.ok = status.ok() ? 1 : 0;
    if (!status.ok()) std::fprintf(stderr, "import_benchmark: %s\n", status.ToString().c_str());
    result.json_bytes = stats.json_bytes;
    result.events = stats.events_read;
    result.xevents = stats.xevents_written;
    return result;
  });
}

ChildResult TokenizeInChild(const std::string& path) {
  return RunInChild([&path] {
    ChildResult result;
    auto wall_start = std::chrono::steady_clock::now();
    double cpu_start = ProcessCpuSeconds();
    StatusOr<std::unique_ptr<importers::ByteSource>> source = importers::OpenTraceByteSource(path, uint64_t{1} << 40);
    NullSink sink;
    importers::TraceJsonReadResult read;
    Status status = source.ok() ? importers::ReadTraceJson(**source, {}, sink, &read) : source.status();
    result.cpu_s = ProcessCpuSeconds() - cpu_start;
    result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    result.ok = status.ok() ? 1 : 0;
    result.json_bytes = read.json_bytes;
    result.events = read.elements;
    return result;
  });
}

void Report(const std::string& label, const ChildResult& r, uint64_t file_bytes, Figures* figures,
            const std::string& prefix) {
  double mb = r.json_bytes / 1e6;
  std::printf("%-28s %8.1f MB JSON  %9.2f MB/s cpu  %9.2f MB/s wall  %10.0f events/s cpu  peak RSS %7.1f MB (%.2fx file)\n",
              label.c_str(), mb, mb / r.cpu_s, mb / r.wall_s, r.events / r.cpu_s, r.peak_rss_kb / 1024.0,
              r.peak_rss_kb * 1024.0 / static_cast<double>(file_bytes));
  (*figures)[prefix + "mb_per_s"] = mb / r.cpu_s;
  (*figures)[prefix + "mb_per_s_wall"] = mb / r.wall_s;
  (*figures)[prefix + "events_per_s"] = r.events / r.cpu_s;
  (*figures)[prefix + "peak_rss_mb"] = r.peak_rss_kb / 1024.0;
  (*figures)[prefix + "peak_rss_over_file_size"] = r.peak_rss_kb * 1024.0 / static_cast<double>(file_bytes);
  (*figures)[prefix + "json_mb"] = mb;
}

}  // namespace
}  // namespace stepscope::bench

int main() {
  using namespace stepscope::bench;
  Figures figures;
  const char* shared = std::getenv("STEPSCOPE_SHARED_DIR");
  std::string traces = std::string(shared != nullptr ? shared : STEPSCOPE_DEFAULT_SHARED_DIR) + "/testdata/traces";
  const std::string largest = traces + "/hta_ns_resolution_rank-0.pt.trace.json.gz";

  // The largest shared trace (68,692 events; 15 MB of JSON in a 1.15 MB .gz).
  if (fs::exists(largest)) {
    uint64_t file_bytes = fs::file_size(largest);
    ChildResult imported = ImportInChild(largest, 1);
    ChildResult tokenized = TokenizeInChild(largest);
    if (imported.ok && tokenized.ok) {
      Report("largest test trace: import", imported, file_bytes, &figures, "test_trace_import_");
      Report("largest test trace: tokenize", tokenized, file_bytes, &figures, "test_trace_tokenize_");
      figures["test_trace_import_peak_rss_over_json_size"] = imported.peak_rss_kb * 1024.0 / imported.json_bytes;
    }
  } else {
    std::fprintf(stderr, "import_benchmark: %s not found; skipping it\n", largest.c_str());
  }

  // The synthetic trace.
  uint64_t mb = kDefaultSyntheticMb;
  if (const char* env = std::getenv("STEPSCOPE_BENCH_IMPORT_MB")) mb = std::strtoull(env, nullptr, 10);
  fs::path path = fs::temp_directory_path() / ("stepscope_import_bench_" + std::to_string(getpid()) + ".json");
  std::printf("writing a %llu MB synthetic Kineto trace to %s ...\n", static_cast<unsigned long long>(mb), path.c_str());
  std::fflush(stdout);
  auto info = WriteSyntheticKinetoTrace(path.string(), mb << 20);
  if (!info.ok()) {
    std::fprintf(stderr, "import_benchmark: %s\n", info.status().ToString().c_str());
    return 1;
  }
  FlushToDisk(path.string());
  ChildResult tokenized = TokenizeInChild(path.string());
  ChildResult imported_first = ImportInChild(path.string(), 1);  // the warm-up (see the top)
  ChildResult imported = ImportInChild(path.string(), 1);
  ChildResult imported_all_cores = ImportInChild(path.string(), 0);
  // The same trace gzipped, as PyTorch's TensorBoard handler writes it (.pt.trace.json.gz).
  const std::string gz_path = path.string() + ".gz";
  std::printf("gzipping it to %s ...\n", gz_path.c_str());
  std::fflush(stdout);
  stepscope::Status gzipped = GzipFile(path.string(), gz_path);
  fs::remove(path);
  if (!imported_first.ok || !imported.ok || !tokenized.ok || !imported_all_cores.ok || !gzipped.ok()) {
    std::fprintf(stderr, "import_benchmark: the synthetic import failed %s\n", gzipped.ToString().c_str());
    fs::remove(gz_path);
    return 1;
  }
  const uint64_t gz_bytes = fs::file_size(gz_path);
  FlushToDisk(gz_path);
  ChildResult imported_gz = ImportInChild(gz_path, 1);
  ChildResult imported_gz_all_cores = ImportInChild(gz_path, 0);
  fs::remove(gz_path);
  if (!imported_gz.ok || !imported_gz_all_cores.ok) {
    std::fprintf(stderr, "import_benchmark: the gzipped synthetic import failed\n");
    return 1;
  }
  Report("synthetic: tokenize", tokenized, info->bytes, &figures, "synthetic_tokenize_");
  Report("synthetic: import, first (warm-up)", imported_first, info->bytes, &figures,
         "synthetic_import_first_");
  Report("synthetic: import", imported, info->bytes, &figures, "synthetic_import_");
  Report("synthetic: import, all cores", imported_all_cores, info->bytes, &figures, "synthetic_import_all_cores_");
  Report("synthetic .gz: import", imported_gz, gz_bytes, &figures, "synthetic_gz_import_");
  Report("synthetic .gz: all cores", imported_gz_all_cores, gz_bytes, &figures, "synthetic_gz_import_all_cores_");
  figures["synthetic_events"] = static_cast<double>(info->events);
  figures["synthetic_xevents"] = static_cast<double>(imported.xevents);
  figures["synthetic_gz_mb"] = gz_bytes / 1e6;
  figures["import_mb_per_s"] = figures["synthetic_import_mb_per_s"];
  figures["import_mb_per_s_all_cores"] = figures["synthetic_import_all_cores_mb_per_s_wall"];
  figures["import_gz_mb_per_s"] = figures["synthetic_gz_import_mb_per_s"];
  figures["import_gz_mb_per_s_all_cores"] = figures["synthetic_gz_import_all_cores_mb_per_s_wall"];
  figures["import_threads"] = stepscope::importers::ImportThreads({});
  figures["import_events_per_s"] = figures["synthetic_import_events_per_s"];
  figures["import_peak_rss_over_file_size"] = figures["synthetic_import_peak_rss_over_file_size"];
  std::printf("per core %.1f MB/s (.gz %.1f); all %d cores %.1f MB/s (.gz %.1f)\n", figures["import_mb_per_s"],
              figures["import_gz_mb_per_s"], stepscope::importers::ImportThreads({}), figures["import_mb_per_s_all_cores"],
              figures["import_gz_mb_per_s_all_cores"]);

  return WriteFigures("import", figures);
}
