#include "examples/mnist_mlp/pipeline.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "examples/mnist_mlp/random.h"
#include "stepscope/annotation.h"

namespace mnist_mlp {

using stepscope::Status;
using stepscope::StatusOr;

namespace {
// Purpose tag for DeriveSeed: per-position augmentation.
constexpr uint64_t kAugmentStream = 4;
// Upper bounds that keep a typo from allocating gigabytes or thousands of threads.
constexpr int kMaxBatchSize = 8192;
constexpr int kMaxInputThreads = 256;
constexpr int kMaxPrefetch = 1024;
constexpr int kMaxInputCost = 1000;
constexpr int kMaxReadDelayUs = 1000000;
}  // namespace

// Decoded examples by dataset index, filled on first decode. Each slot is claimed by
// one writer (CAS empty -> writing), then published (release) as ready; readers copy only
// ready slots (acquire). A reader that finds a slot being written decodes for itself.
class InputPipeline::DecodedCache {
 public:
  explicit DecodedCache(uint64_t num_examples)
      // new[] without value-initialisation: pages are only committed for examples that
      // are actually cached (60k examples would be 188 MB).
      : images_(new float[num_examples * kImagePixels]),
        labels_(new uint8_t[num_examples]),
        state_(new std::atomic<uint8_t>[num_examples]) {
    for (uint64_t i = 0; i < num_examples; ++i) state_[i].store(kEmpty, std::memory_order_relaxed);
  }

  bool Lookup(uint32_t id, float* decoded, uint8_t* label) const {
    if (state_[id].load(std::memory_order_acquire) != kReady) return false;
    std::memcpy(decoded, images_.get() + uint64_t{id} * kImagePixels, kImagePixels * sizeof(float));
    *label = labels_[id];
    return true;
  }

  void Insert(uint32_t id, const float* decoded, uint8_t label) {
    uint8_t expected = kEmpty;
    if (!state_[id].compare_exchange_strong(expected, kWriting, std::memory_order_acquire)) return;
    std::memcpy(images_.get() + uint64_t{id} * kImagePixels, decoded, kImagePixels * sizeof(float));
    labels_[id] = label;
    state_[id].store(kReady, std::memory_order_release);
  }

 private:
  static constexpr uint8_t kEmpty = 0, kWriting = 1, kReady = 2;
  std::unique_ptr<float[]> images_;
  std::unique_ptr<uint8_t[]> labels_;
  std::unique_ptr<std::atomic<uint8_t>[]> state_;
};

StatusOr<stepscope::Pipeline> InputPipeline::DeclareStages(const PipelineOptions& options, StageRefs* refs) {
  // tf.data's shape for this configuration: "FixedLengthRecord" marks the file reads;
  // ParallelMap and Prefetch are the stages that run ahead of their consumer.
  stepscope::PipelineBuilder builder;
  refs->read = builder.Source("FixedLengthRecord");
  refs->map = options.input_threads > 0 ? builder.ParallelMap(refs->read, options.input_threads)
                                        : builder.Map(refs->read);
  refs->batch = builder.Batch(refs->map);
  refs->prefetch = options.prefetch > 0 ? builder.Prefetch(refs->batch, options.prefetch) : -1;
  return std::move(builder).Build();
}

StatusOr<std::unique_ptr<InputPipeline>> InputPipeline::Create(const Dataset* dataset,
                                                               const PipelineOptions& options) {
  auto check = [](int value, int lo, int hi, const char* name) -> Status {
    if (value < lo || value > hi) {
      return stepscope::InvalidArgumentError(std::string(name) + " must be in [" + std::to_string(lo) + ", " +
                                             std::to_string(hi) + "], got " + std::to_string(value));
    }
    return stepscope::OkStatus();
  };
  for (const Status& status : {check(options.batch_size, 1, kMaxBatchSize, "batch_size"),
                               check(options.input_threads, 0, kMaxInputThreads, "input_threads"),
                               check(options.prefetch, 0, kMaxPrefetch, "prefetch"),
                               check(options.input_cost, 1, kMaxInputCost, "input_cost"),
                               check(options.read_delay_us, 0, kMaxReadDelayUs, "read_delay_us"),
                               check(options.slow_decode_us, 0, kMaxReadDelayUs, "slow_decode_us")}) {
    if (!status.ok()) return status;
  }
  if (dataset == nullptr || dataset->num_examples() == 0) {
    return stepscope::InvalidArgumentError("the input pipeline needs a non-empty dataset");
  }
  StageRefs refs;
  StatusOr<stepscope::Pipeline> stages = DeclareStages(options, &refs);
  if (!stages.ok()) return stages.status();
  return std::unique_ptr<InputPipeline>(new InputPipeline(dataset, options, std::move(*stages), refs));
}

InputPipeline::InputPipeline(const Dataset* dataset, const PipelineOptions& options, stepscope::Pipeline stages,
                             StageRefs refs)
    : dataset_(dataset),
      options_(options),
      stages_(std::move(stages)),
      refs_(refs),
      order_(dataset->num_examples(), options.seed, options.shuffle),
      scratch_(options.input_threads + 1) {
  if (options.cache) cache_ = std::make_unique<DecodedCache>(dataset->num_examples());
  if (options.input_threads > 0) workers_ = std::make_unique<WorkerPool>(options.input_threads, "input_worker");
  if (options.prefetch > 0) prefetch_thread_ = std::thread(&InputPipeline::PrefetchLoop, this);
}

InputPipeline::~InputPipeline() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  queue_changed_.notify_all();
  if (prefetch_thread_.joinable()) prefetch_thread_.join();
  workers_.reset();
}

PipelineCounters InputPipeline::counters() const {
  return {records_read_.load(std::memory_order_relaxed), cache_hits_.load(std::memory_order_relaxed)};
}

Status InputPipeline::GetNext(Batch* batch) {
  if (options_.prefetch == 0) {
    // The root iterator here is Batch itself: BuildBatch records it, on the caller's thread.
    return BuildBatch(next_batch_++, batch);
  }
  // Batches arrive in order, so the element this call consumes is batch next_batch_.
  const stepscope::PipelineStage& prefetch = stage(refs_.prefetch);
  stepscope::ScopedStageCall root(prefetch);
  stepscope::ScopedConsume consume(prefetch, next_batch_);
  std::unique_lock<std::mutex> lock(mutex_);
  queue_changed_.wait(lock, [this] { return !ready_.empty() || !error_.ok(); });
  if (ready_.empty()) return error_;
  // Hand the caller's old buffer back to the producer instead of freeing it.
  free_.push_back(std::move(*batch));
  *batch = std::move(ready_.front());
  ready_.pop_front();
  ++next_batch_;
  lock.unlock();
  queue_changed_.notify_all();
  return stepscope::OkStatus();
}

void InputPipeline::PrefetchLoop() {
  stepscope::SetCurrentThreadName("input_prefetch");
  int64_t index = 0;
  while (true) {
    Batch batch;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      queue_changed_.wait(lock, [this] {
        return stopping_ || static_cast<int>(ready_.size()) < options_.prefetch;
      });
      if (stopping_) return;
      if (!free_.empty()) {
        batch = std::move(free_.back());
        free_.pop_back();
      }
    }
    Status status;
    {
      stepscope::ScopedProduce produce(stage(refs_.prefetch), index);
      status = BuildBatch(index, &batch);
    }
    ++index;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!status.ok()) {
        error_ = status;
      } else {
        ready_.push_back(std::move(batch));
      }
    }
    queue_changed_.notify_all();
    if (!status.ok()) return;
  }
}

Status InputPipeline::BuildBatch(int64_t index, Batch* batch) {
  stepscope::ScopedStageCall batch_call(stage(refs_.batch));
  const int size = options_.batch_size;
  batch->index = index;
  batch->images.resize(static_cast<size_t>(size) * kImagePixels);
  batch->labels.resize(size);
  batch->example_ids.resize(size);
  const uint64_t first_position = static_cast<uint64_t>(index) * size;

  if (workers_ == nullptr) {
    PreprocessScratch* scratch = &scratch_.back();
    for (int row = 0; row < size; ++row) {
      if (Status status = BuildExample(first_position + row, row, batch, scratch); !status.ok()) return status;
    }
    return stepscope::OkStatus();
  }
  // ParallelMap, as tf.data's: the batching thread waits for the batch's elements (the
  // consume); each worker's produce holds the read (the input stage's call) and the map
  // function. The batch index is the element id linking the two.
  const stepscope::PipelineStage& map = stage(refs_.map);
  stepscope::ScopedStageCall map_call(map);
  stepscope::ScopedConsume consume(map, index);
  std::mutex error_mutex;
  Status first_error;
  workers_->ParallelFor(size, [&](int row, int worker) {
    stepscope::ScopedProduce produce(map, index);
    Status status = MapExample(first_position + row, row, batch, &scratch_[worker]);
    if (!status.ok()) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (first_error.ok()) first_error = status;
    }
  });
  return first_error;
}

Status InputPipeline::BuildExample(uint64_t position, int row, Batch* batch, PreprocessScratch* scratch) {
  stepscope::ScopedStageCall map_call(stage(refs_.map));
  return MapExample(position, row, batch, scratch);
}

Status InputPipeline::MapExample(uint64_t position, int row, Batch* batch, PreprocessScratch* scratch) {
  const uint32_t id = order_.ExampleAt(position);
  float* decoded = scratch->decoded.data();
  uint8_t label = 0;
  const bool cached = cache_ != nullptr && cache_->Lookup(id, decoded, &label);
  if (cached) {
    cache_hits_.fetch_add(1, std::memory_order_relaxed);
  } else {
    {
      stepscope::ScopedStageCall read_call(stage(refs_.read));
      if (Status status = dataset_->Read(id, scratch->raw.data(), &label); !status.ok()) return status;
      if (options_.read_delay_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(options_.read_delay_us));
    }
    records_read_.fetch_add(1, std::memory_order_relaxed);
    for (int repeat = 0; repeat < options_.input_cost; ++repeat) DecodeImage(scratch->raw.data(), decoded, scratch);
    if (options_.slow_decode_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(options_.slow_decode_us));
    if (cache_ != nullptr) cache_->Insert(id, decoded, label);
  }
  float* out = batch->images.data() + static_cast<size_t>(row) * kImagePixels;
  const uint64_t seed = DeriveSeed(options_.seed, kAugmentStream, position);
  for (int repeat = 0; repeat < options_.input_cost; ++repeat) {
    AugmentImage(decoded, options_.augmentation, seed, out, scratch);
  }
  batch->labels[row] = label;
  batch->example_ids[row] = id;
  return stepscope::OkStatus();
}

}  // namespace mnist_mlp
