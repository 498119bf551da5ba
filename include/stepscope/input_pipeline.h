// Input-pipeline instrumentation, in tf.data's naming convention, so the pipeline graph
// and the time the training loop waits for input can be recovered from the profile.
//
// Producer side: wrap each stage's "produce one element" in a ScopedIterator named with
// the tf.data long name, outermost stage first:
//
//   // the batching stage, fed by a map stage, fed by a range source
//   stepscope::ScopedIterator it("Iterator::Batch::Map::Range");
//
// `id` and `parent_id` (optional) identify this iterator and the iterator that consumes
// its output, as tf.data's `id` / `parent_id` stats do; they let analyses link stages
// that run on different threads. Iterators record at level 2 (kInfo), as tf.data's do.
//
// Consumer side: wrap "fetch the next batch" in the training loop, inside the step:
//
//   stepscope::Step step("train", n);
//   { stepscope::ScopedGetNext get_next; batch = pipeline.Next(); }
//
// ScopedGetNext records an event named "IteratorGetNext" at level 1. Analyses treat
// events whose name starts with "IteratorGetNext" as the step waiting for input, as
// TensorFlow's profiler does.
#pragma once

#include <cstdint>

#include "stepscope/internal/recorder.h"

namespace stepscope {

// Event name recorded by ScopedGetNext.
inline constexpr const char kGetNextEventName[] = "IteratorGetNext";

class ScopedIterator {
 public:
  static constexpr int64_t kNoId = -1;

  // `long_name` must have static storage duration, e.g. "Iterator::Prefetch::Batch".
  explicit ScopedIterator(const char* long_name, int64_t id = kNoId, int64_t parent_id = kNoId,
                          int level = internal::kLevelInfo)
      : name_(long_name), id_(id), parent_id_(parent_id) {
    if (__builtin_expect(internal::IsLevelEnabled(level), 0)) {
      recording_ = true;
      start_ticks_ = internal::ReadTicks();
    }
  }
  ~ScopedIterator() {
    if (__builtin_expect(recording_, 0)) End();
  }

  ScopedIterator(const ScopedIterator&) = delete;
  ScopedIterator& operator=(const ScopedIterator&) = delete;

 private:
  void End() {
    uint64_t end_ticks = internal::ReadTicks();
    internal::StaticInt64Arg args[2];
    size_t count = 0;
    if (id_ != kNoId) args[count++] = {"id", id_};
    if (parent_id_ != kNoId) args[count++] = {"parent_id", parent_id_};
    internal::RecordStaticEventWithArgs(name_, start_ticks_, end_ticks, args, count);
  }

  const char* name_;
  int64_t id_;
  int64_t parent_id_;
  uint64_t start_ticks_ = 0;
  bool recording_ = false;
};

class ScopedGetNext {
 public:
  ScopedGetNext() {
    if (__builtin_expect(internal::IsLevelEnabled(internal::kLevelCritical), 0)) {
      recording_ = true;
      start_ticks_ = internal::ReadTicks();
    }
  }
  ~ScopedGetNext() {
    if (__builtin_expect(recording_, 0)) {
      internal::RecordStaticEvent(kGetNextEventName, start_ticks_, internal::ReadTicks());
    }
  }

  ScopedGetNext(const ScopedGetNext&) = delete;
  ScopedGetNext& operator=(const ScopedGetNext&) = delete;

 private:
  uint64_t start_ticks_ = 0;
  bool recording_ = false;
};

}  // namespace stepscope
