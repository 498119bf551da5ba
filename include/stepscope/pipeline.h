// Pipeline instrumentation: declare the stages of an input pipeline once, then time each
// stage's calls. Every call is recorded exactly as tf.data records its iterators, so
// stepscope's tf_data_bottleneck_analysis (and TensorFlow's own tools) can rebuild the
// pipeline, follow elements across threads and name the stage to fix.
//
// Declare, in dataset order (source first), then build:
//
//   stepscope::PipelineBuilder builder;
//   auto read   = builder.Source("FixedLengthRecord");      // file reads
//   auto decode = builder.ParallelMap(read, /*num_workers=*/4);
//   auto batch  = builder.Batch(decode);
//   auto ahead  = builder.Prefetch(batch, /*buffer_size=*/2);
//   stepscope::StatusOr<stepscope::Pipeline> pipeline = std::move(builder).Build();
//
// The last stage no other stage reads from is the root. Each stage gets tf.data's long
// name, root first ("Iterator::Prefetch::Batch::ParallelMap::FixedLengthRecord"), and a
// process-unique iterator id; its parent is the stage that consumes its output.
//
// Record a synchronous stage's call where it produces one output element:
//
//   { stepscope::ScopedStageCall call(pipeline->stage(decode)); Decode(...); }
//
// An asynchronous stage (Prefetch, ParallelMap, or Custom(..., asynchronous=true)) hands
// work to other threads. Its consumer side is a call that waits for an element; the
// worker side wraps the production of that element, including the call into its input
// stage, in a ScopedProduce with the same element id:
//
//   // consumer thread (the caller of the prefetch stage)
//   { stepscope::ScopedStageCall call(prefetch);
//     stepscope::ScopedConsume consume(prefetch, batch_index);
//     batch = queue.Pop(); }
//   // background thread
//   { stepscope::ScopedProduce produce(prefetch, batch_index);
//     stepscope::ScopedStageCall call(batch_stage); BuildBatch(); }
//
// What is written (docs/recording.md, reference: TensorFlow's dataset.cc and
// prefetch_dataset_op.cc): a call is an event named by the long name with int64 stats
// `id` and, below the root, `parent_id` (ParallelMap adds `parallelism`, Prefetch
// `buffer_limit`); ScopedConsume / ScopedProduce are events named "<Kind>Consume" /
// "<Kind>Produce" ("PrefetchProduce", "ParallelMapConsume", ...) with the stat
// `element_id`. Analyses link a produce's first iterator call (its `parent_id`) with the
// consume's enclosing call (its `id`) on equal element ids, as TensorFlow's profiler does.
//
// Cost: all of these record at level 2 (kInfo), as tf.data's iterators do. With
// profiling off or below level 2, a scope is one load and one branch (the TraceMe path of
// annotation.h); on, one event of 24 bytes plus 24 per stat, into this thread's buffer.
//
// Threading: a Pipeline is immutable once built; its stages may be used from any thread.
// A scope must end on the thread that started it, and keeps a reference to its stage: the
// Pipeline must outlive its scopes. Names live for the whole process (a
// few dozen bytes per distinct long name), so pipelines may be built and destroyed while
// a profile is being recorded.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "stepscope/internal/recorder.h"
#include "stepscope/status.h"

namespace stepscope {

enum class StageKind : uint8_t {
  kSource = 0,    // reads records (files, memory); the dataset name says which
  kMap,           // transforms one element on the caller's thread (decode, augment)
  kParallelMap,   // the same on N worker threads (asynchronous)
  kBatch,         // combines elements into a batch
  kShuffle,       // reorders elements through a buffer
  kCache,         // serves elements from memory after the first pass
  kPrefetch,      // produces elements ahead on a background thread (asynchronous)
  kCustom,        // any other dataset, named by the caller
};

// "Source", "Map", "ParallelMap", ... (the kind, not a stage's dataset name).
std::string_view StageKindName(StageKind kind);

// One declared stage: everything recording needs, fixed when the pipeline is built.
class PipelineStage {
 public:
  static constexpr int64_t kNoId = -1;

  // tf.data's long name, "Iterator::Prefetch::Batch::Map". Lives for the whole process.
  const char* long_name() const { return long_name_; }
  // The dataset name: the last part of the long name ("Map", "TFRecord").
  std::string_view dataset_name() const;
  StageKind kind() const { return kind_; }
  int64_t id() const { return id_; }
  // The id of the stage that consumes this one's output; kNoId for the root.
  int64_t parent_id() const { return parent_id_; }
  // Ids of the stages this one reads from (none for a source).
  const std::vector<int64_t>& input_ids() const { return input_ids_; }
  // ParallelMap's workers / Prefetch's buffer size / 0.
  int parallelism() const { return parallelism_; }
  int buffer_size() const { return buffer_size_; }
  bool is_asynchronous() const { return produce_name_ != nullptr; }
  // "<Kind>Produce" / "<Kind>Consume" for asynchronous stages; nullptr otherwise.
  const char* produce_name() const { return produce_name_; }
  const char* consume_name() const { return consume_name_; }

 private:
  friend class PipelineBuilder;
  const char* long_name_ = "";
  StageKind kind_ = StageKind::kCustom;
  int64_t id_ = kNoId;
  int64_t parent_id_ = kNoId;
  std::vector<int64_t> input_ids_;
  int parallelism_ = 0;
  int buffer_size_ = 0;
  const char* produce_name_ = nullptr;
  const char* consume_name_ = nullptr;
};

// A built pipeline: its stages in declaration order (index = the builder's StageRef).
class Pipeline {
 public:
  const PipelineStage& stage(int ref) const { return stages_[static_cast<size_t>(ref)]; }
  const PipelineStage& root() const { return stages_[static_cast<size_t>(root_)]; }
  int root_ref() const { return root_; }
  size_t size() const { return stages_.size(); }
  const std::vector<PipelineStage>& stages() const { return stages_; }

 private:
  friend class PipelineBuilder;
  std::vector<PipelineStage> stages_;
  int root_ = 0;
};

// Declares stages in dataset order; each method returns the new stage's StageRef (its
// index). Mistakes (an unknown input, a stage read by two others, a bad name) are
// reported by Build(), not by the declaring call.
class PipelineBuilder {
 public:
  using StageRef = int;

  // A source. `dataset_name` is tf.data's ("TFRecord", "TextLine", "FixedLengthRecord",
  // "TensorSlice", "Range", "Generator") or any name; file sources are recognised by name
  // (docs/tools.md, tf_data_bottleneck_analysis).
  StageRef Source(std::string_view dataset_name);
  StageRef Map(StageRef input);
  StageRef ParallelMap(StageRef input, int num_workers);
  StageRef Batch(StageRef input);
  StageRef Shuffle(StageRef input);
  StageRef Cache(StageRef input);
  StageRef Prefetch(StageRef input, int buffer_size);
  // Any other dataset ("Filter", "Interleave", "Zip" with several inputs). An
  // asynchronous one records "<dataset_name>Produce" / "<dataset_name>Consume".
  StageRef Custom(std::string_view dataset_name, std::initializer_list<StageRef> inputs,
                  bool asynchronous = false);

  // The pipeline, or kInvalidArgument naming the first problem: no stages, more than one
  // stage that nothing reads from, an input read by two stages or declared later than its
  // reader, a name that is empty, longer than 64 bytes or contains ':', '#', ',' or '='.
  StatusOr<Pipeline> Build() &&;

 private:
  struct Declared {
    StageKind kind;
    std::string dataset_name;
    std::vector<StageRef> inputs;
    int parallelism = 0;
    int buffer_size = 0;
    bool asynchronous = false;
  };
  StageRef Add(Declared stage);
  std::vector<Declared> declared_;
};

// Times one call of a stage (one element produced) on this thread.
class ScopedStageCall {
 public:
  explicit ScopedStageCall(const PipelineStage& stage) : stage_(&stage) {
    if (__builtin_expect(internal::IsLevelEnabled(internal::kLevelInfo), 0)) {
      recording_ = true;
      start_ticks_ = internal::ReadTicks();
    }
  }
  ~ScopedStageCall() {
    if (__builtin_expect(recording_, 0)) End();
  }
  ScopedStageCall(const ScopedStageCall&) = delete;
  ScopedStageCall& operator=(const ScopedStageCall&) = delete;

 private:
  void End();  // out of line: only runs while recording

  const PipelineStage* stage_;
  uint64_t start_ticks_ = 0;
  bool recording_ = false;
};

namespace internal {
// "<Kind>Produce" / "<Kind>Consume" with the `element_id` stat.
class ScopedElementEvent {
 public:
  ScopedElementEvent(const char* name, int64_t element_id) : name_(name), element_id_(element_id) {
    if (__builtin_expect(name != nullptr && IsLevelEnabled(kLevelInfo), 0)) {
      recording_ = true;
      start_ticks_ = ReadTicks();
    }
  }
  ~ScopedElementEvent() {
    if (__builtin_expect(recording_, 0)) {
      StaticInt64Arg arg{"element_id", element_id_};
      RecordStaticEventWithArgs(name_, start_ticks_, ReadTicks(), &arg, 1);
    }
  }
  ScopedElementEvent(const ScopedElementEvent&) = delete;
  ScopedElementEvent& operator=(const ScopedElementEvent&) = delete;

 private:
  const char* name_;
  int64_t element_id_;
  uint64_t start_ticks_ = 0;
  bool recording_ = false;
};
}  // namespace internal

// Consumer side of an asynchronous stage: inside the stage's ScopedStageCall, around
// the wait for element `element_id`. Records nothing for synchronous stages.
class ScopedConsume : public internal::ScopedElementEvent {
 public:
  ScopedConsume(const PipelineStage& stage, int64_t element_id)
      : ScopedElementEvent(stage.consume_name(), element_id) {}
};

// Worker side of an asynchronous stage: around the production of element `element_id`
// (the call into the input stage, then this stage's own work on the element). Several
// produces may share an element id (a ParallelMap whose consumer waits for a whole batch
// of elements at once). Records nothing for synchronous stages.
class ScopedProduce : public internal::ScopedElementEvent {
 public:
  ScopedProduce(const PipelineStage& stage, int64_t element_id)
      : ScopedElementEvent(stage.produce_name(), element_id) {}
};

}  // namespace stepscope
