#include "python/src/session_hooks.h"

#include <memory>

#include "src/collect/tracer.h"
#include "stepscope/memory.h"

namespace stepscope::python {
namespace {

// _torch reports PyTorch's allocations (torch_memory_reporter.h) through the one recorder
// in this library: nothing here calls RecordMemoryEvent, so without this reference the
// linker would leave src/collect/memory.cc out and _torch could not load.
[[maybe_unused]] __attribute__((used)) void (*const kKeepRecordMemoryEvent)(bool, const AllocationInfo&,
                                                                           const AllocatorState&) =
    &internal::RecordMemoryEvent;

// A tracer that records nothing itself: it tells an observer when the session starts
// and stops; what the observer records goes through the host tracer's buffers.
class ObserverTracer : public collect::Tracer {
 public:
  ObserverTracer(const char* name, SessionObserver* observer, ProfileOptions options)
      : name_(name), observer_(observer), options_(std::move(options)) {}
  const char* name() const override { return name_; }
  Status Start() override {
    observer_->OnSessionStart(options_);
    return OkStatus();
  }
  Status Stop() override {
    observer_->OnSessionStop();
    return OkStatus();
  }
  Status CollectData(const collect::SessionTimes&, xspace::XSpace*) override { return OkStatus(); }

 private:
  const char* name_;
  SessionObserver* observer_;
  ProfileOptions options_;
};

}  // namespace

void AddSessionObserver(const char* name, SessionObserver* observer) {
  collect::RegisterTracerFactory([name, observer](const ProfileOptions& options) -> std::unique_ptr<collect::Tracer> {
    // Observers feed the host tracer's buffers: nothing to do when it is off.
    if (options.host_tracer_level <= 0) return nullptr;
    return std::make_unique<ObserverTracer>(name, observer, options);
  });
}

}  // namespace stepscope::python
