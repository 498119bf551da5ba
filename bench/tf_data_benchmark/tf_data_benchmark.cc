// tf_data_benchmark: how fast tf_data_bottleneck_analysis walks a large pipeline.
//
// Builds, in memory, the events a Prefetch -> Batch -> ParallelMap(8) -> TFRecord
// pipeline records over many fetches (per fetch: the root call and its consume on the
// training thread; the produce and the Batch call on the prefetch thread; per element a
// ParallelMap call, a produce and the source call on eight worker threads), then times
// AnalyzePipelineEvents (best of three). XProf's tool walks every root call recursively
// and is known to hang on large pipelines; this one must stay linear (n log n at most).
//
// Flags: --events N (iterator events, default 2 M). Figures: tf_data_events_per_s
// (pipeline events analysed per second), tf_data_analysis_ms, tf_data_iterator_events.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/common/bench_figures.h"
#include "src/analysis/tools/tf_data_bottleneck.h"

namespace stepscope::bench {
namespace {

using analysis::PipelineEvent;
using analysis::PipelineEventKind;
using analysis::PipelineEvents;
using analysis::PipelineIteratorStats;
using Clock = std::chrono::steady_clock;

constexpr int kElementsPerBatch = 32;
constexpr int kWorkers = 8;
constexpr int64_t kUs = 1'000'000;

class Generator {
 public:
  explicit Generator(int64_t iterator_events) {
    out_.names = {"Iterator::Prefetch", "PrefetchConsume", "PrefetchProduce", "Iterator::Prefetch::Batch",
                  "Iterator::Prefetch::Batch::ParallelMap", "ParallelMapConsume", "ParallelMapProduce",
                  "Iterator::Prefetch::Batch::ParallelMap::TFRecord"};
    out_.threads = {"train", "input_prefetch"};
    for (int w = 0; w < kWorkers; ++w) out_.threads.push_back("worker/" + std::to_string(w));
    // Iterator events per batch: root + batch + parallel map + one source call per element.
    const int64_t per_batch = 3 + kElementsPerBatch;
    batches_ = std::max<int64_t>(1, iterator_events / per_batch);
    per_thread_.resize(out_.threads.size());
    for (int64_t b = 0; b < batches_; ++b) AddBatch(b);
    for (auto& thread : per_thread_) {
      const int32_t base = static_cast<int32_t>(out_.events.size());
      for (PipelineEvent e : thread) {
        if (e.enclosing >= 0) e.enclosing += base;
        out_.events.push_back(e);
      }
    }
  }
  PipelineEvents& events() { return out_; }

 private:
  int32_t Add(uint32_t thread, uint32_t name, PipelineEventKind kind, int64_t begin_us, int64_t end_us,
              int32_t enclosing, int64_t id, int64_t parent, int64_t element) {
    PipelineEvent e;
    e.kind = kind;
    e.name = name;
    e.thread = thread;
    e.begin_ps = begin_us * kUs;
    e.end_ps = end_us * kUs;
    e.enclosing = enclosing;  // index within the thread until merged
    if (kind == PipelineEventKind::kIterator) {
      e.flags |= PipelineEvent::kHasId;
      if (parent >= 0) e.flags |= PipelineEvent::kHasParentId;
      e.stats = StatsIndex({.id = id, .parent_id = std::max<int64_t>(parent, 0)});
    } else {
      e.element_id = element;
      e.flags |= PipelineEvent::kHasElementId;
    }
    per_thread_[thread].push_back(e);
    return static_cast<int32_t>(per_thread_[thread].size() - 1);
  }

  // The shared entry of these iterator stats (a handful of iterators: a linear search).
  uint32_t StatsIndex(const PipelineIteratorStats& stats) {
    for (size_t i = 0; i < out_.iterator_stats.size(); ++i) {
      if (out_.iterator_stats[i] == stats) return static_cast<uint32_t>(i);
    }
    out_.iterator_stats.push_back(stats);
    return static_cast<uint32_t>(out_.iterator_stats.size() - 1);
  }

  void AddBatch(int64_t b) {
    const int64_t t = b * 1000;
    // Training thread: the fetch waits for the batch the prefetch thread builds meanwhile.
    const int32_t root = Add(0, 0, PipelineEventKind::kIterator, t + 600, t + 1000, -1, 1, -1, 0);
    Add(0, 1, PipelineEventKind::kConsume, t + 601, t + 999, root, 0, 0, b);
    // Prefetch thread.
    const int32_t produce = Add(1, 2, PipelineEventKind::kProduce, t, t + 990, -1, 0, 0, b);
    const int32_t batch = Add(1, 3, PipelineEventKind::kIterator, t, t + 990, produce, 2, 1, 0);
    const int32_t map = Add(1, 4, PipelineEventKind::kIterator, t + 1, t + 989, batch, 3, 2, 0);
    Add(1, 5, PipelineEventKind::kConsume, t + 2, t + 988, map, 0, 0, b);
    // Workers: each element's produce holds its source call and the map function.
    for (int e = 0; e < kElementsPerBatch; ++e) {
      const uint32_t worker = 2 + static_cast<uint32_t>(e % kWorkers);
      const int64_t w = t + 3 + (e / kWorkers) * 240;
      const int32_t p = Add(worker, 6, PipelineEventKind::kProduce, w, w + 230, -1, 0, 0, b);
      Add(worker, 7, PipelineEventKind::kIterator, w, w + 20, p, 4, 3, 0);
    }
  }

  PipelineEvents out_;
  std::vector<std::vector<PipelineEvent>> per_thread_;
  int64_t batches_ = 0;
};

int Main(int argc, char** argv) {
  int64_t iterator_events = 2'000'000;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--events") == 0) iterator_events = std::atoll(argv[i + 1]);
  }
  Generator generator(iterator_events);
  const PipelineEvents& events = generator.events();
  int64_t iterators = 0;
  for (const PipelineEvent& e : events.events) iterators += e.kind == PipelineEventKind::kIterator;
  std::printf("tf_data_benchmark: %lld pipeline events (%lld iterator calls)\n",
              static_cast<long long>(events.events.size()), static_cast<long long>(iterators));

  double best_s = 1e30;
  analysis::TfDataBottleneckResult result;
  for (int run = 0; run < 3; ++run) {
    const Clock::time_point start = Clock::now();
    result = analysis::AnalyzePipelineEvents(events, /*total_step_time_ps=*/0);
    best_s = std::min(best_s, std::chrono::duration<double>(Clock::now() - start).count());
  }
  if (result.pipelines.empty() || !result.bottleneck_stage.has_value()) {
    std::fprintf(stderr, "tf_data_benchmark: the analysis found no pipeline or bottleneck\n");
    return 1;
  }
  std::printf("bottleneck: %s (%lld linked producers)\n", result.stages[*result.bottleneck_stage].long_name.c_str(),
              static_cast<long long>(result.counts.linked_producers));
  Figures figures;
  figures["tf_data_iterator_events"] = static_cast<double>(iterators);
  figures["tf_data_events_per_s"] = static_cast<double>(events.events.size()) / best_s;
  figures["tf_data_analysis_ms"] = best_s * 1000.0;
  figures["tf_data_peak_rss_bytes"] = static_cast<double>(PeakRssBytes());
  return WriteFigures("tf_data", figures);
}

}  // namespace
}  // namespace stepscope::bench

int main(int argc, char** argv) { return stepscope::bench::Main(argc, argv); }
