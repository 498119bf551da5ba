// Cost of one annotation scope (begin + end), the figure DESIGN.md budgets:
// off <= 1 ns, on <= 25 ns per scope on one core.
//
// Each benchmark run times a fixed batch of scopes per thread with that thread's own CPU
// clock (immune to the other processes on a shared machine) and its wall clock; scopes
// are unrolled 8 per loop trip so loop overhead is not charged to them. The headline
// figures are medians over repetitions of the per-thread CPU ns per scope.
//
// Peer (when built with libtorch): the same loop with RECORD_FUNCTION while a global
// observer whose callbacks only count is installed — a lower bound for any profiler
// built on libtorch's callbacks.
//
// Output: console table, a summary, and one flat JSON object at
// $STEPSCOPE_BENCH_OUT/annotation.json (default: <source>/build/bench).
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/common/bench_figures.h"
#include "benchmark/benchmark.h"
#include "src/collect/tick_clock.h"
#include "stepscope/stepscope.h"

#ifdef STEPSCOPE_HAVE_TORCH_PEER
#include "bench/annotation_benchmark/record_function_peer.h"
#endif

namespace stepscope::bench {
namespace {

// Scopes per thread per run. On-runs keep every event (24 B each): 2M scopes = 48 MB
// per thread, under the 64 MiB budget set below, so nothing is dropped.
constexpr int64_t kScopesOff = 16'000'000;
constexpr int64_t kScopesOn = 2'000'000;
constexpr size_t kOnBufferBytes = 64u << 20;
constexpr int kRepetitions = 7;  // odd, for a true median

uint64_t ClockNs(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// Times `run(scopes)` on this thread and reports per-scope costs averaged over threads.
template <typename Run>
void MeasureScopes(benchmark::State& state, int64_t scopes, Run run) {
  double cpu_ns = 0, wall_ns = 0;
  int64_t total = 0;
  for (auto _ : state) {
    const uint64_t cpu_begin = ClockNs(CLOCK_THREAD_CPUTIME_ID);
    const uint64_t wall_begin = ClockNs(CLOCK_MONOTONIC);
    run(scopes);
    wall_ns += static_cast<double>(ClockNs(CLOCK_MONOTONIC) - wall_begin);
    cpu_ns += static_cast<double>(ClockNs(CLOCK_THREAD_CPUTIME_ID) - cpu_begin);
    total += scopes;
  }
  state.counters["cpu_ns_per_scope"] = benchmark::Counter(cpu_ns / total, benchmark::Counter::kAvgThreads);
  state.counters["wall_ns_per_scope"] = benchmark::Counter(wall_ns / total, benchmark::Counter::kAvgThreads);
  state.SetItemsProcessed(total);
}

#define STEPSCOPE_BENCH_8(scope) scope scope scope scope scope scope scope scope

__attribute__((noinline)) void StaticScopes(int64_t scopes) {
  for (int64_t i = 0; i < scopes; i += 8) {
    STEPSCOPE_BENCH_8({ STEPSCOPE_ANNOTATE("bench_scope"); })
  }
}

__attribute__((noinline)) void LambdaScopes(int64_t scopes) {
  for (int64_t i = 0; i < scopes; i += 8) {
    STEPSCOPE_BENCH_8({
      ScopedAnnotation annotation([&] { return EncodeMetadata("bench_scope", {{"i", i}}); });
    })
  }
}

// One tick read (internal::ReadTicks: rdtsc, or clock_gettime without an invariant
// TSC); a recorded scope reads two, so this shows how much of the "on" figure is the
// clock itself (rdtsc alone costs ~30-40 cycles on AMD Zen).
__attribute__((noinline)) void TickReads(int64_t reads) {
  uint64_t sum = 0;
  for (int64_t i = 0; i < reads; i += 8) {
    STEPSCOPE_BENCH_8({ sum += internal::ReadTicks(); })
  }
  benchmark::DoNotOptimize(sum);
}

// ---- sessions for the "on" runs ----

std::unique_ptr<Session> g_session;
uint64_t g_dropped_events = 0;

void StartSession(const benchmark::State&) {
  ProfileOptions options;
  options.per_thread_buffer_bytes = kOnBufferBytes;
  StatusOr<std::unique_ptr<Session>> session = Session::Start(options);
  if (!session.ok()) {
    std::fprintf(stderr, "annotation_benchmark: %s\n", session.status().ToString().c_str());
    std::exit(1);
  }
  g_session = std::move(session).value();
}

void StopSession(const benchmark::State&) {
  g_session->Stop().IgnoreError();
  g_dropped_events += g_session->dropped_events();
  g_session.reset();  // discards the recorded events uncollected
}

// ---- benchmarks ----

void BM_TickRead(benchmark::State& state) {
  collect::InitTickClock();  // the same clock choice sessions make
  MeasureScopes(state, kScopesOn, TickReads);
}
void BM_AnnotationOff(benchmark::State& state) { MeasureScopes(state, kScopesOff, StaticScopes); }
void BM_AnnotationOffLambda(benchmark::State& state) { MeasureScopes(state, kScopesOff, LambdaScopes); }
void BM_AnnotationOn(benchmark::State& state) { MeasureScopes(state, kScopesOn, StaticScopes); }
void BM_AnnotationOnLambda(benchmark::State& state) { MeasureScopes(state, kScopesOn / 4, LambdaScopes); }

BENCHMARK(BM_TickRead)->Iterations(1)->Repetitions(kRepetitions);
BENCHMARK(BM_AnnotationOff)->Iterations(1)->Repetitions(kRepetitions)->Threads(1)->Threads(2);
BENCHMARK(BM_AnnotationOffLambda)->Iterations(1)->Repetitions(kRepetitions);
BENCHMARK(BM_AnnotationOn)
    ->Setup(StartSession)
    ->Teardown(StopSession)
    ->Iterations(1)
    ->Repetitions(kRepetitions)
    ->Threads(1)
    ->Threads(2);
BENCHMARK(BM_AnnotationOnLambda)
    ->Setup(StartSession)
    ->Teardown(StopSession)
    ->Iterations(1)
    ->Repetitions(kRepetitions);

#ifdef STEPSCOPE_HAVE_TORCH_PEER
uint64_t g_unobserved_scopes = 0;

void AddObserver(const benchmark::State&) { AddCountingObserver(); }
void RemoveObserver(const benchmark::State&) { RemoveCountingObserver(); }

void BM_RecordFunction(benchmark::State& state) {
  const uint64_t observed_before = ObservedCallsOnThisThread();
  MeasureScopes(state, kScopesOn, RunRecordFunctionScopes);
  const uint64_t observed = ObservedCallsOnThisThread() - observed_before;
  const uint64_t expected = static_cast<uint64_t>(state.iterations()) * kScopesOn;
  if (observed != expected) g_unobserved_scopes += expected - observed;
}
BENCHMARK(BM_RecordFunction)
    ->Setup(AddObserver)
    ->Teardown(RemoveObserver)
    ->Iterations(1)
    ->Repetitions(kRepetitions)
    ->Threads(1)
    ->Threads(2);
#endif

// ---- figures ----

// Collects the median per-scope CPU figure of each benchmark and thread count.
class FigureReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Aggregate || run.aggregate_name != "median") continue;
      std::string key = run.run_name.function_name + "/threads:" + std::to_string(run.threads);
      auto cpu = run.counters.find("cpu_ns_per_scope");
      auto wall = run.counters.find("wall_ns_per_scope");
      if (cpu != run.counters.end()) cpu_ns_[key] = cpu->second.value;
      if (wall != run.counters.end()) wall_ns_[key] = wall->second.value;
    }
    ConsoleReporter::ReportRuns(runs);
  }

  // Median CPU ns per scope, or a negative number when the benchmark did not run.
  double Cpu(const std::string& function, int threads) const { return Find(cpu_ns_, function, threads); }
  double Wall(const std::string& function, int threads) const { return Find(wall_ns_, function, threads); }

 private:
  static double Find(const std::map<std::string, double>& figures, const std::string& function, int threads) {
    auto it = figures.find(function + "/threads:" + std::to_string(threads));
    return it == figures.end() ? -1.0 : it->second;
  }
  std::map<std::string, double> cpu_ns_;
  std::map<std::string, double> wall_ns_;
};

int ReportFigures(const FigureReporter& reporter) {
  Figures figures;
  auto put = [&](const char* name, double value) {
    if (value >= 0) figures[name] = value;
  };
  put("annotation_off_ns", reporter.Cpu("BM_AnnotationOff", 1));
  put("annotation_off_2threads_ns", reporter.Cpu("BM_AnnotationOff", 2));
  put("annotation_off_lambda_ns", reporter.Cpu("BM_AnnotationOffLambda", 1));
  put("annotation_on_ns", reporter.Cpu("BM_AnnotationOn", 1));
  put("annotation_on_2threads_ns", reporter.Cpu("BM_AnnotationOn", 2));
  put("annotation_on_lambda_metadata_ns", reporter.Cpu("BM_AnnotationOnLambda", 1));
  put("annotation_on_wall_ns", reporter.Wall("BM_AnnotationOn", 1));
  put("annotation_on_2threads_wall_ns", reporter.Wall("BM_AnnotationOn", 2));
  put("record_function_ns", reporter.Cpu("BM_RecordFunction", 1));
  put("record_function_2threads_ns", reporter.Cpu("BM_RecordFunction", 2));
  put("tick_read_ns", reporter.Cpu("BM_TickRead", 1));
  if (figures.count("tick_read_ns") && figures.count("annotation_on_ns")) {
    // What recording costs beyond the two clock reads every timed scope needs; <= 0
    // means the record write is hidden behind the clock reads' latency.
    figures["annotation_on_minus_two_tick_reads_ns"] = figures["annotation_on_ns"] - 2 * figures["tick_read_ns"];
  }
  if (figures.count("record_function_ns") && figures.count("annotation_on_ns") && figures["annotation_on_ns"] > 0) {
    figures["record_function_over_annotation_on_ratio"] = figures["record_function_ns"] / figures["annotation_on_ns"];
  }
  figures["annotation_on_dropped_events"] = static_cast<double>(g_dropped_events);
  figures["timestamps_from_tsc"] = collect::TicksAreTsc() ? 1 : 0;
#ifdef STEPSCOPE_HAVE_TORCH_PEER
  figures["record_function_unobserved_scopes"] = static_cast<double>(g_unobserved_scopes);
#endif

  std::printf("\nheadline figures (ns per scope = begin+end, median CPU time per thread):\n");
  return WriteFigures("annotation", figures);
}

}  // namespace
}  // namespace stepscope::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  stepscope::bench::FigureReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return stepscope::bench::ReportFigures(reporter);
}
