// The example's input pipeline, shaped like a tf.data pipeline
//
//   FixedLengthRecord(shards) -> [Parallel]Map(read, decode, cache, augment) -> Batch -> [Prefetch]
//
// Every batch is a pure function of (dataset, seed, batch index): the shuffle order of
// each epoch and each example's augmentation derive from the seed and the example's
// position in the stream, so the threading and caching options change how fast batches
// arrive, never what they contain.
//
// Threading (the knobs that make the same program input bound or not):
//   input_threads = 0, prefetch = 0  everything runs on the caller's thread inside
//                                    GetNext: the training loop waits for every read,
//                                    decode and augmentation.
//   input_threads = N > 0            examples of a batch are processed by N worker
//                                    threads ("input_worker/<i>"); the batching thread waits.
//   prefetch = K > 0                 a background thread ("input_prefetch") builds up to K
//                                    batches ahead; GetNext only dequeues.
//   cache                            decoded examples are kept in memory, so from the
//                                    second time an example is used (the next epoch) it is
//                                    neither read nor decoded again; augmentation still runs.
//
// Instrumented with the stepscope pipeline API (stepscope/pipeline.h), which records
// tf.data's iterator events: FixedLengthRecord -> Map (or ParallelMap with N workers) ->
// Batch [-> Prefetch], so the calls read "Iterator::Prefetch::Batch::ParallelMap::
// FixedLengthRecord" etc. and the worker and prefetch threads are linked to their
// consumers by *Produce / *Consume events (the batch index is the element id). As in
// tf.data, a ParallelMap's function runs inside ParallelMapProduce on the workers, so its
// time is the ParallelMap stage's wait, and the read is the iterator call inside it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "examples/mnist_mlp/dataset.h"
#include "examples/mnist_mlp/example_order.h"
#include "examples/mnist_mlp/preprocess.h"
#include "examples/mnist_mlp/worker_pool.h"
#include "stepscope/pipeline.h"
#include "stepscope/status.h"

namespace mnist_mlp {

struct PipelineOptions {
  int batch_size = 64;
  int input_threads = 0;  // 0: examples are processed on the batching thread
  int prefetch = 0;       // batches built ahead on a background thread; 0: built in GetNext
  bool cache = false;     // keep decoded examples in memory
  bool shuffle = true;    // a new permutation each epoch; false: dataset order
  Augmentation augmentation = Augmentation::kShift;
  int input_cost = 1;     // times the per-example decode/augment work is done (>= 1)
  int read_delay_us = 0;  // extra latency per record read, simulating slow storage
  int slow_decode_us = 0;  // extra latency per decode (not on cache hits): a known slow stage for tests
  uint64_t seed = 1;
};

struct Batch {
  int64_t index = -1;                 // 0, 1, 2, ... in delivery order
  std::vector<float> images;          // batch_size x kImagePixels, standardised
  std::vector<uint8_t> labels;        // batch_size
  std::vector<uint32_t> example_ids;  // dataset index of each row
  int size() const { return static_cast<int>(labels.size()); }
};

struct PipelineCounters {
  uint64_t records_read = 0;  // examples read from the shard files
  uint64_t cache_hits = 0;    // examples served from the decoded cache
};

class InputPipeline {
 public:
  // `dataset` must outlive the pipeline. Starts the threads the options ask for.
  static stepscope::StatusOr<std::unique_ptr<InputPipeline>> Create(const Dataset* dataset,
                                                                    const PipelineOptions& options);
  // Stops and joins the pipeline's threads; batches in flight are discarded.
  ~InputPipeline();
  InputPipeline(const InputPipeline&) = delete;
  InputPipeline& operator=(const InputPipeline&) = delete;

  // The next batch in order. Blocks until it is ready. After an error (a failed read)
  // every later call returns that error. Call from one thread.
  stepscope::Status GetNext(Batch* batch);

  PipelineCounters counters() const;
  const PipelineOptions& options() const { return options_; }

 private:
  // The declared stages (StageRef indices into stages_); prefetch is -1 without prefetch.
  struct StageRefs {
    int read = -1, map = -1, batch = -1, prefetch = -1;
  };
  class DecodedCache;

  InputPipeline(const Dataset* dataset, const PipelineOptions& options, stepscope::Pipeline stages,
                StageRefs refs);
  static stepscope::StatusOr<stepscope::Pipeline> DeclareStages(const PipelineOptions& options, StageRefs* refs);
  const stepscope::PipelineStage& stage(int ref) const { return stages_.stage(ref); }

  // Fills `batch` with batch number `index`. Runs on the batching thread (the caller of
  // GetNext, or the prefetch thread).
  stepscope::Status BuildBatch(int64_t index, Batch* batch);
  // Reads, decodes (or takes from the cache) and augments stream position `position`
  // into row `row` of `batch`.
  stepscope::Status BuildExample(uint64_t position, int row, Batch* batch, PreprocessScratch* scratch);
  // The Map stage's work on one example (read, decode or cache, augment).
  stepscope::Status MapExample(uint64_t position, int row, Batch* batch, PreprocessScratch* scratch);
  void PrefetchLoop();

  const Dataset* dataset_;
  PipelineOptions options_;
  stepscope::Pipeline stages_;
  StageRefs refs_;
  ExampleOrder order_;
  std::unique_ptr<DecodedCache> cache_;
  std::unique_ptr<WorkerPool> workers_;
  // Scratch per worker thread, plus one (the last) for the batching thread.
  std::vector<PreprocessScratch> scratch_;
  std::atomic<uint64_t> records_read_{0};
  std::atomic<uint64_t> cache_hits_{0};

  int64_t next_batch_ = 0;  // consumer side: the next batch GetNext returns

  // Prefetch mode: a bounded queue of ready batches, filled by prefetch_thread_.
  std::mutex mutex_;
  std::condition_variable queue_changed_;
  std::deque<Batch> ready_;       // guarded by mutex_
  std::vector<Batch> free_;       // recycled buffers; guarded by mutex_
  stepscope::Status error_;       // first producer error; guarded by mutex_
  bool stopping_ = false;         // guarded by mutex_
  std::thread prefetch_thread_;
};

}  // namespace mnist_mlp
