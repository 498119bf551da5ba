// stepscope::Step and the step-range trigger (ProfileStepRange).
#include "stepscope/step.h"

#include <atomic>
#include <mutex>
#include <optional>
#include <string>

#include "src/base/logging.h"
#include "src/collect/fork_guard.h"
#include "src/collect/session_internal.h"
#include "stepscope/annotation.h"
#include "stepscope/internal/recorder.h"
#include "stepscope/session.h"

namespace stepscope {
namespace {

// TensorFlow's stat names for a step marker: Trace('train', step_num=n, _r=1).
constexpr char kStepNumKey[] = "step_num";
constexpr char kRootLevelKey[] = "_r";

struct StepRange {
  std::string logdir;
  int64_t first_step = 0;
  int64_t last_step = 0;
  ProfileOptions options;
  bool recording = false;
};

// Checked by every Step before taking the lock; steps are ms apart, so the lock itself
// is no cost, but most programs never arm a range.
std::atomic<bool> g_range_armed{false};

// A range armed in the parent is not the forked child's to start (collect/fork_guard.h).
bool RangeArmedHere() {
  return g_range_armed.load(std::memory_order_acquire) && !collect::InForkedChild();
}
std::mutex g_range_mu;
std::optional<StepRange> g_range;  // guarded by g_range_mu

void DisarmLocked() {
  g_range.reset();
  g_range_armed.store(false, std::memory_order_release);
}

void StopRangeLocked() {
  Status stopped = StopProfiling();
  if (!stopped.ok()) base::LogWarning("step range: %s", stopped.ToString().c_str());
  DisarmLocked();
}

void OnStepBegin(int64_t step_num) {
  std::lock_guard<std::mutex> lock(g_range_mu);
  if (!g_range.has_value()) return;
  if (g_range->recording) {
    if (step_num > g_range->last_step) StopRangeLocked();  // never saw the last step end
    return;
  }
  if (step_num < g_range->first_step || step_num > g_range->last_step) return;
  Status started = StartProfiling(g_range->logdir, g_range->options);
  if (!started.ok()) {
    base::LogWarning("step range %lld..%lld not recorded: %s",
                     static_cast<long long>(g_range->first_step),
                     static_cast<long long>(g_range->last_step), started.ToString().c_str());
    DisarmLocked();
    return;
  }
  g_range->recording = true;
}

void OnStepEnd(int64_t step_num) {
  std::lock_guard<std::mutex> lock(g_range_mu);
  if (!g_range.has_value() || !g_range->recording) return;
  if (step_num >= g_range->last_step) StopRangeLocked();
}

}  // namespace

Step::Step(const char* name, int64_t step_num) : static_name_(name), step_num_(step_num) { Begin(); }

Step::Step(std::string_view name, int64_t step_num) : step_num_(step_num) {
  dynamic_name_.assign(name);
  Begin();
}

void Step::Begin() {
  // The trigger runs first so that the first step of a range is itself recorded.
  if (RangeArmedHere()) OnStepBegin(step_num_);
  if (internal::IsLevelEnabled(internal::kLevelCritical)) {
    recording_ = true;
    start_ticks_ = internal::ReadTicks();
  }
}

Step::~Step() {
  if (recording_) {
    uint64_t end_ticks = internal::ReadTicks();
    if (static_name_ != nullptr) {
      const internal::StaticInt64Arg args[] = {{kStepNumKey, step_num_}, {kRootLevelKey, 1}};
      internal::RecordStaticEventWithArgs(static_name_, start_ticks_, end_ticks, args, 2);
    } else {
      std::string encoded = EncodeMetadata(dynamic_name_, {{kStepNumKey, step_num_}, {kRootLevelKey, 1}});
      internal::RecordDynamicEvent(encoded.data(), encoded.size(), start_ticks_, end_ticks);
    }
  }
  // After recording, so the last step of a range is inside the window.
  if (RangeArmedHere()) OnStepEnd(step_num_);
}

Status ProfileStepRange(const std::string& logdir, int64_t first_step, int64_t last_step,
                        const ProfileOptions& options) {
  if (logdir.empty()) return InvalidArgumentError("ProfileStepRange: the logdir is empty");
  if (logdir.find('\0') != std::string::npos || options.run_name.find('\0') != std::string::npos) {
    return InvalidArgumentError("ProfileStepRange: the logdir or run name contains a NUL byte");
  }
  if (first_step < 0 || first_step > last_step) {
    return InvalidArgumentError("ProfileStepRange: need 0 <= first_step <= last_step, got " +
                                std::to_string(first_step) + ".." + std::to_string(last_step));
  }
  std::lock_guard<std::mutex> lock(g_range_mu);
  if (g_range.has_value()) {
    return AlreadyExistsError("ProfileStepRange: a step range is already armed");
  }
  if (collect::IsSessionActive()) {
    return AlreadyExistsError("ProfileStepRange: a profiling session is already active");
  }
  g_range = StepRange{logdir, first_step, last_step, options, false};
  g_range_armed.store(true, std::memory_order_release);
  return OkStatus();
}

void CancelProfileStepRange() {
  std::lock_guard<std::mutex> lock(g_range_mu);
  if (!g_range.has_value()) return;
  if (g_range->recording) {
    StopRangeLocked();
  } else {
    DisarmLocked();
  }
}

}  // namespace stepscope
