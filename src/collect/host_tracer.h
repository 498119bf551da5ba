// The host tracer: turns what threads recorded (annotations, steps, iterators) into the
// `/host:CPU` plane, one XLine per thread, as TensorFlow's host tracer lays it out:
//   line id = OS thread id, line name = thread name, line timestamp = session start
//   (0 after normalisation), events named by the TraceMe name part, with the
//   "#k=v,...#" metadata and int64 arguments as stats.
//
// Window rule: an event is kept iff it started and ended inside [start, stop] of the
// session. Scopes still open at stop are dropped, not closed at stop: their true end is
// unknown, and an invented end would turn an unfinished step into a short one and skew
// step-time statistics. Ends after stop belong to no session: the next start discards
// them, or the window drops them when they land after that start. An event whose
// dynamic name was interned under an earlier session (its id carries the generation;
// the definition went out with that session's records) is outside the window too: the
// scope was opened before this session started, even if its thread was preempted
// between interning and reading its start tick.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "src/collect/recorder/thread_registry.h"
#include "src/collect/tick_clock.h"
#include "src/collect/tracer.h"
#include "src/xspace/xplane.h"

namespace stepscope::collect {

struct HostConversionStats {
  uint64_t events = 0;               // events written to the plane
  uint64_t outside_window = 0;       // events dropped by the window rule (or opened under
                                     // an earlier session's generation)
  uint64_t dropped_events = 0;       // events lost to full buffers (from the threads)
  uint64_t unresolved_names = 0;     // dynamic-name events whose definition was missing
  uint64_t malformed_records = 0;    // records that could not be decoded (a bug if > 0)
  // On threads that record steps: input fetches (events named IteratorGetNext*) and
  // how many of them were not inside a step marker (the anti-pattern TensorFlow's
  // guide warns about: input time outside the step is invisible to step analysis).
  uint64_t get_next_events = 0;
  uint64_t get_next_outside_step = 0;
};

// Writes the host events of `threads` into `plane` (which should be named
// xspace::kHostThreadsPlaneName). Times are relative to times.start_monotonic_ns.
// `name_generation` is the session's generation (ThreadRegistry::AdvanceGeneration).
HostConversionStats ConvertThreadsToHostPlane(const std::vector<DrainedThread>& threads,
                                              const TickConverter& converter,
                                              const SessionTimes& times, uint64_t name_generation,
                                              xspace::XPlane* plane);

// The Tracer that owns the per-thread buffers for a session. The session turns the
// recording level on after Start() and off before Stop().
class HostTracer : public Tracer {
 public:
  explicit HostTracer(const ProfileOptions& options);
  const char* name() const override { return "host"; }
  TracerKind kind() const override { return TracerKind::kHost; }
  Status Start() override;
  Status Stop() override;
  Status CollectData(const SessionTimes& times, xspace::XSpace* space) override;

  // Valid after Stop().
  uint64_t dropped_events() const { return dropped_events_; }

 private:
  ProfileOptions options_;
  std::vector<DrainedThread> drained_;
  TickSample stop_sample_;
  uint64_t name_generation_ = 0;  // this session's, set by Start()
  uint64_t dropped_events_ = 0;
  bool stopped_ = false;
};

}  // namespace stepscope::collect
