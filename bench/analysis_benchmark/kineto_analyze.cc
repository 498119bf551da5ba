#include "bench/analysis_benchmark/kineto_analyze.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tool_registry.h"
#include "src/importers/importer_registry.h"

extern char** environ;

namespace stepscope::bench {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

struct ProcessRun {
  double wall_ms = -1;  // -1: the process could not start or failed
  double cpu_seconds = 0;
  double peak_rss_bytes = 0;
};

// Runs `args` with stdout to /dev/null: its wall time, CPU time and peak RSS.
ProcessRun RunProcess(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  const Clock::time_point start = Clock::now();
  pid_t pid;
  int spawned = posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ProcessRun run;
  if (spawned != 0) return run;
  int status = 0;
  struct rusage usage{};
  wait4(pid, &status, 0, &usage);
  const double ms = MsSince(start);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return run;
  run.wall_ms = ms;
  run.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                    static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  run.peak_rss_bytes = static_cast<double>(usage.ru_maxrss) * 1024;  // Linux reports KiB
  return run;
}

double TimeProcessMs(std::vector<std::string> args) { return RunProcess(std::move(args)).wall_ms; }

}  // namespace

Figures MeasureAnalyzeProcess(const std::string& stepscope, const std::string& trace, int runs) {
  if (!std::filesystem::exists(stepscope) || !std::filesystem::exists(trace)) return {};
  std::vector<double> analyze, startup;
  for (int run = 0; run < runs; ++run) {
    double ms = TimeProcessMs({stepscope, "analyze", trace, "--tool", "overview_page"});
    if (ms < 0) return {};
    analyze.push_back(ms);
    ms = TimeProcessMs({stepscope, "help"});
    if (ms < 0) return {};
    startup.push_back(ms);
  }
  return {{"kineto_15mb_analyze_ms", Median(analyze)},
          {"kineto_15mb_analyze_min_ms", *std::min_element(analyze.begin(), analyze.end())},
          {"stepscope_startup_ms", Median(startup)}};
}

Figures MeasureAnalyzeCommand(const std::string& stepscope, const std::string& profile, const std::string& tool,
                               int runs) {
  if (!std::filesystem::exists(stepscope) || !std::filesystem::exists(profile)) return {};
  ProcessRun best;
  for (int run = 0; run < runs; ++run) {
    ProcessRun r = RunProcess({stepscope, "analyze", profile, "--tool", tool, "--format", "json"});
    if (r.wall_ms < 0) return {};
    if (best.wall_ms < 0 || r.cpu_seconds < best.cpu_seconds) best.cpu_seconds = r.cpu_seconds;
    if (best.wall_ms < 0 || r.wall_ms < best.wall_ms) best.wall_ms = r.wall_ms;
    best.peak_rss_bytes = std::max(best.peak_rss_bytes, r.peak_rss_bytes);
  }
  ProcessRun startup = RunProcess({stepscope, "help"});
  if (startup.wall_ms < 0) return {};
  return {{"cpu_seconds", best.cpu_seconds},
          {"seconds", best.wall_ms / 1000},
          {"peak_rss", best.peak_rss_bytes},
          {"baseline_rss", startup.peak_rss_bytes}};
}

Figures MeasureAnalyzePhases(const std::string& trace, int runs) {
  if (!std::filesystem::exists(trace)) return {};
  auto tool = analysis::FindTool("overview_page");
  if (!tool.ok()) return {};
  std::vector<double> import_ms, model_ms, tool_ms, total_ms;
  for (int run = 0; run < runs; ++run) {
    const Clock::time_point start = Clock::now();
    Clock::time_point t = start;
    // As load::ImportTraceFileColumnar, with a clock between the steps.
    auto columnar = std::make_shared<xspace::ColumnarXSpace>();
    importers::ImportOptions import_options;
    import_options.fallback_host_name = "bench";
    if (!importers::ImportTraceFileColumnar(trace, import_options, columnar.get()).ok()) return {};
    import_ms.push_back(MsSince(t));
    t = Clock::now();
    analysis::ModelOptions options;
    options.keep_event_tree = false;  // as `stepscope analyze`
    auto model = analysis::BuildProfileModel(std::move(columnar), options);
    if (!model.ok()) return {};
    model_ms.push_back(MsSince(t));
    t = Clock::now();
    auto result = (*tool)->Run(*model, {});
    if (!result.ok()) return {};
    std::string text = (*result)->FormatText({});
    tool_ms.push_back(MsSince(t));
    total_ms.push_back(MsSince(start));
  }
  return {{"kineto_15mb_import_ms", Median(import_ms)},
          {"kineto_15mb_model_ms", Median(model_ms)},
          {"kineto_15mb_tool_ms", Median(tool_ms)},
          {"kineto_15mb_in_process_ms", Median(total_ms)}};
}

}  // namespace stepscope::bench
