// analysis_benchmark: how fast and how lean profile-model building is.
//
// Generates a synthetic XSpace of ~10 M events (synthetic_xspace.h; override with
// STEPSCOPE_ANALYSIS_BENCH_EVENTS) in a temp dir, then builds the model from the file -
// memory-mapped read, columnar decode and the whole model - in a fresh child process
// pinned to one CPU, so the generator's memory is not counted and the figure is per core.
// The child reports its CPU time (user + system; the build is single-threaded, so this is
// one core's time even when the shared machine is busy - wall time is reported too) and
// its peak RSS (VmHWM) minus its RSS before reading. Each measurement runs three times;
// the fastest time and the largest peak are kept.
//
// `stepscope analyze <file> --tool all --format json` beside `--tool overview_page`
// (analyze_all_tools_*: what the advisor adds on top of the overview page).
//
// Then `stepscope analyze <the largest shared Kineto trace> --tool overview_page` as a
// whole process, median of kKinetoRuns (kineto_15mb_analyze_ms), with the start-up of the
// binary alone and the in-process phases beside it (kineto_analyze.h).
//
// Writes $STEPSCOPE_BENCH_OUT/analysis.json (default <source>/build/bench) with
// model_events_per_s, model_peak_rss_over_file_size, kineto_15mb_analyze_ms and the raw
// numbers behind them. Budgets (DESIGN.md, issue 11): >= 10 M events/s per core, peak RSS
// <= 2x the file size, the Kineto analyze <= 20 ms.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "bench/analysis_benchmark/kineto_analyze.h"
#include "bench/analysis_benchmark/synthetic_xspace.h"
#include "bench/common/bench_figures.h"
#include "bench/common/measure_child.h"
#include "src/analysis/model/build_profile_model.h"
#include "src/base/cores.h"
#include "src/load/profile_loader.h"
#include "src/xspace/columnar/columnar_reader.h"


namespace {

using stepscope::analysis::BuildProfileModelFromFile;
using stepscope::bench::FigureLines;
using stepscope::bench::Figures;
using stepscope::bench::ParseFigureLines;
using stepscope::bench::PeakRssBytes;
using stepscope::bench::ProcessCpuSeconds;
using stepscope::bench::ProcStatusBytes;
using stepscope::bench::WriteFigures;
using stepscope::StatusOr;
using stepscope::analysis::ProfileModel;

constexpr uint64_t kDefaultEvents = 10'000'000;  // the size
constexpr int kRuns = 3;                          // best of three: the machine is shared
constexpr int kKinetoRuns = 15;                   // the whole-process figure is a median of these


// The Release `stepscope` binary next to this one.
std::string StepscopeBinary() {
  return (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "stepscope").string();
}

// Child: build (or only decode) and print "key value" lines to `out_path`. One core,
// except for "hosts", "model_all_cores" and "command" (`stepscope analyze` itself), which
// use every core they may.
int Measure(const std::string& mode, const std::string& file, const std::string& out_path) {
  if (mode == "command" || mode == "command_all") {
    // `stepscope analyze` spawned from this fresh child: a spawned process's peak RSS
    // (getrusage) starts from its parent's, which here is a few MB, not the generator's.
    Figures figures = stepscope::bench::MeasureAnalyzeCommand(
        StepscopeBinary(), file, mode == "command" ? "overview_page" : "all", 1);
    if (figures.empty()) return 1;
    std::ofstream out(out_path);
    out << FigureLines(figures);
    return out ? 0 : 1;
  }
  if (mode != "hosts" && mode != "model_all_cores") stepscope::bench::PinToOneCpu();
  const int64_t baseline = ProcStatusBytes("VmRSS:");
  auto start = std::chrono::steady_clock::now();
  const double cpu_start = ProcessCpuSeconds();
  uint64_t events = 0;
  int64_t steps = 0;
  size_t columnar_bytes = 0;
  if (mode == "hosts") {  // `file` is a run directory: every host's model, in parallel, combined
    auto files = stepscope::load::ListRunFiles(file);
    if (!files.ok()) {
      std::fprintf(stderr, "%s\n", files.status().ToString().c_str());
      return 1;
    }
    auto model = stepscope::load::LoadCombinedModel(*files);
    if (!model.ok()) {
      std::fprintf(stderr, "%s\n", model.status().ToString().c_str());
      return 1;
    }
    events = static_cast<uint64_t>(model->total_events);
    steps = static_cast<int64_t>(model->steps.size());
  } else if (mode == "decode") {
    auto space = stepscope::xspace::ReadColumnarXSpaceFile(file);
    if (!space.ok()) {
      std::fprintf(stderr, "%s\n", space.status().ToString().c_str());
      return 1;
    }
    events = space->num_events();
    columnar_bytes = space->MemoryBytes();
  } else {
    auto model = BuildProfileModelFromFile(file);
    if (!model.ok()) {
      std::fprintf(stderr, "%s\n", model.status().ToString().c_str());
      return 1;
    }
    events = static_cast<uint64_t>(model->total_events);
    steps = static_cast<int64_t>(model->steps.size());
    columnar_bytes = model->source ? model->source->MemoryBytes() : 0;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double cpu_seconds = ProcessCpuSeconds() - cpu_start;
  std::ofstream out(out_path);
  out << FigureLines({{"seconds", seconds},
                      {"cpu_seconds", cpu_seconds},
                      {"events", static_cast<double>(events)},
                      {"steps", static_cast<double>(steps)},
                      {"baseline_rss", static_cast<double>(baseline)},
                      {"peak_rss", static_cast<double>(PeakRssBytes())},
                      {"columnar_bytes", static_cast<double>(columnar_bytes)}});
  return out ? 0 : 1;
}

Figures RunChild(const std::string& mode, const std::string& file, const std::string& dir) {
  return stepscope::bench::RunMeasuringChild({"--measure", mode, file}, dir + "/child_" + mode + ".txt");
}

// Fastest time and largest peak over kRuns fresh children.
Figures Best(const std::string& mode, const std::string& file, const std::string& dir) {
  Figures best;
  for (int run = 0; run < kRuns; ++run) {
    Figures r = RunChild(mode, file, dir);
    if (r.empty()) return {};
    if (best.empty()) {
      best = r;
      continue;
    }
    best["seconds"] = std::min(best["seconds"], r["seconds"]);
    best["cpu_seconds"] = std::min(best["cpu_seconds"], r["cpu_seconds"]);
    best["peak_rss"] = std::max(best["peak_rss"], r["peak_rss"]);
  }
  return best;
}

// A run directory of `hosts` hosts with target / hosts events each (one file, hard-linked
// under every host's name), for the all-cores figure: their models are built in parallel
// and combined, as `stepscope analyze <run>` does. Returns one host's file.
StatusOr<stepscope::bench::SyntheticProfile> WriteRun(const std::string& run_dir, int hosts, uint64_t target) {
  std::error_code error;
  std::filesystem::create_directories(run_dir, error);
  if (error) return stepscope::IoError(run_dir + ": " + error.message());
  const std::string first = run_dir + "/host0.xplane.pb";
  auto generated = stepscope::bench::WriteSyntheticXSpace(first, target / hosts);
  if (!generated.ok()) return generated.status();
  for (int h = 1; h < hosts; ++h) {
    std::filesystem::create_hard_link(first, run_dir + "/host" + std::to_string(h) + ".xplane.pb", error);
    if (error) return stepscope::IoError(run_dir + ": " + error.message());
  }
  return generated;
}

// `stepscope analyze` on the largest shared Kineto trace: the whole process and its
// phases in-process.
Figures KinetoFigures() {
  const char* shared = std::getenv("STEPSCOPE_SHARED_DIR");
  const std::string trace = std::string(shared != nullptr ? shared : STEPSCOPE_DEFAULT_SHARED_DIR) +
                            "/testdata/traces/hta_ns_resolution_rank-0.pt.trace.json.gz";
  const std::string stepscope = StepscopeBinary();
  Figures figures = stepscope::bench::MeasureAnalyzeProcess(stepscope, trace, kKinetoRuns);
  if (figures.empty()) {
    std::fprintf(stderr, "analysis_benchmark: no kineto_15mb_analyze_ms (%s on %s failed or is missing)\n",
                 stepscope.c_str(), trace.c_str());
  }
  figures.merge(stepscope::bench::MeasureAnalyzePhases(trace, kKinetoRuns));
  return figures;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::strcmp(argv[1], "--measure") == 0) return Measure(argv[2], argv[3], argv[4]);
  if (argc == 4 && std::strcmp(argv[1], "--generate") == 0) {  // for profiling by hand
    auto generated = stepscope::bench::WriteSyntheticXSpace(argv[2], std::strtoull(argv[3], nullptr, 10));
    if (!generated.ok()) std::fprintf(stderr, "%s\n", generated.status().ToString().c_str());
    return generated.ok() ? 0 : 1;
  }

  // The 15 MB Kineto figures first: the 10 M-event runs below allocate and free ~GBs,
  // and on a VM freshly faulted memory can then cost many times more for a while (this
  // development VM: 64 MiB of huge pages first-touched in 3 ms one time, 100-160 ms
  // another), and a 20 ms process that faults in ~35 MB would measure that instead.
  Figures kineto = KinetoFigures();

  uint64_t target = kDefaultEvents;
  if (const char* env = std::getenv("STEPSCOPE_ANALYSIS_BENCH_EVENTS")) target = std::strtoull(env, nullptr, 10);
  std::string tmpl = (std::filesystem::temp_directory_path() / "stepscope_analysis_bench_XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) {
    std::perror("mkdtemp");
    return 1;
  }
  const std::string dir = tmpl;
  const std::string file = dir + "/synthetic.xplane.pb";
  auto generated = stepscope::bench::WriteSyntheticXSpace(file, target);
  if (!generated.ok()) {
    std::fprintf(stderr, "%s\n", generated.status().ToString().c_str());
    return 1;
  }
  std::printf("synthetic XSpace: %llu events, %lld steps, %.1f MB\n",
              static_cast<unsigned long long>(generated->events), static_cast<long long>(generated->steps),
              generated->file_bytes / 1e6);

  Figures decode = Best("decode", file, dir);
  Figures model = Best("model", file, dir);
  Figures one_host_all_cores = Best("model_all_cores", file, dir);
  // The command users run builds the model without event trees (and every core may
  // help): its memory is what they see.
  Figures command = Best("command", file, dir);
  // `--tool all`: the overview page and the advisor, whose shared derivations (input
  // classification, memory peaks, collectives) should cost once, not once per tool.
  Figures command_all = Best("command_all", file, dir);
  std::filesystem::remove(file);
  const int hosts = stepscope::base::UsableCores();
  auto run = WriteRun(dir + "/run", hosts, target);
  if (!run.ok()) {
    std::fprintf(stderr, "%s\n", run.status().ToString().c_str());
    return 1;
  }
  Figures all_cores = Best("hosts", dir + "/run", dir);
  std::filesystem::remove_all(dir);
  if (decode.empty() || model.empty() || one_host_all_cores.empty() || all_cores.empty()) {
    std::fprintf(stderr, "measurement child failed\n");
    return 1;
  }

  const double file_bytes = static_cast<double>(generated->file_bytes);
  const double events = model["events"];
  const double model_eps = events / model["cpu_seconds"];
  const double model_wall_eps = events / model["seconds"];
  const double model_peak = model["peak_rss"] - model["baseline_rss"];
  const double decode_eps = decode["events"] / decode["cpu_seconds"];
  const double decode_peak = decode["peak_rss"] - decode["baseline_rss"];

  Figures figures = {
      {"model_events_per_s", model_eps},
      {"model_peak_rss_over_file_size", model_peak / file_bytes},
      {"model_build_cpu_seconds", model["cpu_seconds"]},
      {"model_build_wall_seconds", model["seconds"]},
      {"model_wall_events_per_s", model_wall_eps},
      {"model_peak_rss_bytes_absolute", model["peak_rss"]},
      {"model_peak_rss_bytes", model_peak},
      {"decode_events_per_s", decode_eps},
      {"decode_peak_rss_over_file_size", decode_peak / file_bytes},
      {"columnar_bytes", model["columnar_bytes"]},
      {"events", events},
      {"steps", model["steps"]},
      {"file_bytes", file_bytes},
      {"budget_events_per_s", 10'000'000},
      {"budget_peak_rss_over_file_size", 2},
      {"budget_kineto_15mb_analyze_ms", 20},
  };
  const double run_bytes = static_cast<double>(run->file_bytes) * hosts;
  figures["model_events_per_s_all_cores"] = all_cores["events"] / all_cores["seconds"];
  figures["model_all_cores_hosts"] = hosts;
  // One host on every core: its planes are parsed in parallel (the rest is sequential).
  figures["model_one_host_events_per_s_all_cores"] = events / one_host_all_cores["seconds"];
  figures["model_all_cores_events"] = all_cores["events"];
  figures["model_all_cores_wall_seconds"] = all_cores["seconds"];
  figures["model_all_cores_cpu_seconds"] = all_cores["cpu_seconds"];
  figures["model_all_cores_peak_rss_over_file_size"] = (all_cores["peak_rss"] - all_cores["baseline_rss"]) / run_bytes;
  if (command.empty()) {
    std::fprintf(stderr, "analysis_benchmark: no analyze_* figures (%s failed or is missing)\n",
                 StepscopeBinary().c_str());
  } else {
    figures["analyze_cpu_events_per_s"] = events / command["cpu_seconds"];
    figures["analyze_wall_seconds"] = command["seconds"];
    figures["analyze_peak_rss_over_file_size"] = (command["peak_rss"] - command["baseline_rss"]) / file_bytes;
  }
  if (!command_all.empty()) {
    figures["analyze_all_tools_wall_seconds"] = command_all["seconds"];
    figures["analyze_all_tools_cpu_seconds"] = command_all["cpu_seconds"];
    if (!command.empty()) {
      figures["analyze_all_tools_extra_cpu_seconds"] = command_all["cpu_seconds"] - command["cpu_seconds"];
    }
  }
  figures.merge(kineto);
  return WriteFigures("analysis", figures);
}
