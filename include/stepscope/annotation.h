// Scoped annotations: mark a region of code so it appears as an event on this thread's
// line of the `/host:CPU` plane (TensorFlow's TraceMe, Tracy's ZoneScoped).
//
//   void Forward() {
//     STEPSCOPE_ANNOTATE("forward");                     // static name, level 1
//     ...
//   }
//   {
//     STEPSCOPE_ANNOTATE_LEVEL("matmul", 2);             // recorded at host_tracer_level >= 2
//     stepscope::ScopedAnnotation read([&] {             // dynamic name, built only when on
//       return stepscope::EncodeMetadata("read", {{"file", path}, {"bytes", n}});
//     });                                                // -> "read#file=...,bytes=123#"
//   }
//   stepscope::SetCurrentThreadName("input_worker/0");   // names this thread's line
//
// Cost: with profiling off, one load and one branch; the name lambda is not called. With
// profiling on, two timestamps and one 24-byte write into a per-thread buffer (see
// docs/recording.md for measured figures). Define STEPSCOPE_DISABLE_ANNOTATIONS to
// compile the macros out entirely.
//
// Names: a `const char*` is stored by pointer, so it must point to a string with static
// storage duration (a literal, or a string that outlives the profiling session). Anything
// else goes through the lambda or the std::string_view form, which copy the text.
// A name may carry TraceMe metadata, "name#key=value,key2=value2#"; each pair becomes a
// stat of the event (ints, then unsigned, then doubles, else strings), as in TensorFlow.
//
// Threading: annotations may be used from any thread; each thread records into its own
// buffer. A ScopedAnnotation must be destroyed on the thread that created it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "stepscope/internal/recorder.h"

namespace stepscope {

// One key=value pair of TraceMe metadata. Numbers are formatted without allocation.
// Keys and values must not contain '#'; values containing ',' should be quoted or
// bracketed ("[1,2]") so the decoder keeps them whole.
class MetadataArg {
 public:
  MetadataArg(std::string_view key, std::string_view value) : key_(key), text_(value) {}
  MetadataArg(std::string_view key, const char* value) : key_(key), text_(value) {}
  MetadataArg(std::string_view key, const std::string& value) : key_(key), text_(value) {}
  // Bools are written as 1/0 so they decode as int64 stats, the way TensorFlow stores them.
  MetadataArg(std::string_view key, bool value) : key_(key), text_(value ? "1" : "0") {}
  MetadataArg(std::string_view key, double value);
  MetadataArg(std::string_view key, float value) : MetadataArg(key, static_cast<double>(value)) {}
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                             std::is_signed_v<T>, int> = 0>
  MetadataArg(std::string_view key, T value) : key_(key) {
    FormatSigned(static_cast<int64_t>(value));
  }
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                             std::is_unsigned_v<T>, int> = 0>
  MetadataArg(std::string_view key, T value) : key_(key) {
    FormatUnsigned(static_cast<uint64_t>(value));
  }

  std::string_view key() const { return key_; }
  std::string_view value() const {
    return number_size_ > 0 ? std::string_view(number_, number_size_) : text_;
  }

 private:
  void FormatSigned(int64_t value);
  void FormatUnsigned(uint64_t value);

  std::string_view key_;
  std::string_view text_;
  // Formatted numbers live inside the object (no self-pointer, so copies stay valid).
  char number_[32];
  uint8_t number_size_ = 0;
};

// "name#k1=v1,k2=v2#" (TraceMe encoding); just "name" when `args` is empty.
std::string EncodeMetadata(std::string_view name, std::initializer_list<MetadataArg> args);

// The same for an argument list built at run time (e.g. Python keyword arguments).
std::string EncodeMetadataList(std::string_view name, std::span<const MetadataArg> args);

// Appends more metadata to an already-encoded name:
// AppendMetadata("a#x=1#", {{"y", 2}}) == "a#x=1,y=2#", AppendMetadata("a", ...) == "a#...#".
std::string AppendMetadata(std::string_view encoded_name, std::initializer_list<MetadataArg> args);

// Names the calling thread's line in profiles (default: the OS thread name). Cheap enough
// to call once per thread at start-up; takes a lock.
void SetCurrentThreadName(std::string_view name);

class ScopedAnnotation {
 public:
  // `name` must have static storage duration (stored by pointer).
  explicit ScopedAnnotation(const char* name, int level = internal::kLevelCritical) {
    if (__builtin_expect(internal::IsLevelEnabled(level), 0)) {
      head_ = reinterpret_cast<uintptr_t>(name);
      start_ticks_ = internal::ReadTicks();
    }
  }

  // Interns `name` when profiling is on (no copy kept). Prefer the lambda form when
  // building the name costs anything: it is skipped entirely when off.
  explicit ScopedAnnotation(std::string_view name, int level = internal::kLevelCritical) {
    if (__builtin_expect(internal::IsLevelEnabled(level), 0)) StartDynamic(name);
  }
  // A temporary std::string would be built even when profiling is off; pass a lambda
  // returning the string instead.
  explicit ScopedAnnotation(std::string&& name, int level = internal::kLevelCritical) = delete;

  // `name_generator()` returns something convertible to std::string_view (e.g. a
  // std::string); it runs only when profiling is on at this level.
  template <typename NameGenerator,
            std::enable_if_t<std::is_invocable_v<NameGenerator&>, int> = 0>
  explicit ScopedAnnotation(NameGenerator&& name_generator, int level = internal::kLevelCritical) {
    if (__builtin_expect(internal::IsLevelEnabled(level), 0)) {
      const auto& name = name_generator();
      StartDynamic(std::string_view(name));
    }
  }

  ~ScopedAnnotation() {
    if (__builtin_expect(head_ != 0, 0)) {
      internal::RecordEvent(head_, start_ticks_, internal::ReadTicks());
    }
  }

  ScopedAnnotation(const ScopedAnnotation&) = delete;
  ScopedAnnotation& operator=(const ScopedAnnotation&) = delete;

  // True when this scope is being recorded.
  bool is_recording() const { return head_ != 0; }

 private:
  void StartDynamic(std::string_view name) {
    // The name goes into this thread's buffer now (once per distinct name and session);
    // the scope keeps only its id. 0 when the buffer is full: not recorded.
    head_ = internal::InternDynamicName(name.data(), name.size());
    if (head_ != 0) start_ticks_ = internal::ReadTicks();
  }

  // The record head this scope ends with: the static name pointer or a dynamic-name
  // event head; 0 when not recording. Trivial members only, so on the off path the
  // compiler keeps nothing but the level check.
  uint64_t head_ = 0;
  uint64_t start_ticks_ = 0;
};

}  // namespace stepscope

#define STEPSCOPE_ANNOTATION_CONCAT_INNER(a, b) a##b
#define STEPSCOPE_ANNOTATION_CONCAT(a, b) STEPSCOPE_ANNOTATION_CONCAT_INNER(a, b)

#ifdef STEPSCOPE_DISABLE_ANNOTATIONS
#define STEPSCOPE_ANNOTATE(name) \
  do {                           \
  } while (false)
#define STEPSCOPE_ANNOTATE_LEVEL(name, level) \
  do {                                        \
  } while (false)
#else
// Annotates the rest of the enclosing scope with a static name at level 1.
#define STEPSCOPE_ANNOTATE(name)                                                       \
  ::stepscope::ScopedAnnotation STEPSCOPE_ANNOTATION_CONCAT(stepscope_annotation_, \
                                                            __LINE__)(name)
// Same, at an explicit level (1 critical, 2 info, 3 verbose).
#define STEPSCOPE_ANNOTATE_LEVEL(name, level)                                          \
  ::stepscope::ScopedAnnotation STEPSCOPE_ANNOTATION_CONCAT(stepscope_annotation_, \
                                                            __LINE__)(name, level)
#endif
