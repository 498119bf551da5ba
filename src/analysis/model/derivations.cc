#include "src/analysis/model/derivations.h"

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace stepscope::analysis {

// One slot per derivation: a once-flag and the value. std::call_once makes the first
// caller compute while concurrent callers wait, and publishes the value to all of them.
template <typename T>
class Slot {
 public:
  template <typename Compute>
  const T& Get(std::atomic<int64_t>& computations, Compute&& compute) {
    std::call_once(once_, [&] {
      value_.emplace(compute());
      done_.store(true, std::memory_order_release);
      computations.fetch_add(1, std::memory_order_relaxed);
    });
    return *value_;
  }
  // The value if computed already, else null; never computes (MemoryBytes).
  const T* computed() const { return done_.load(std::memory_order_acquire) ? &*value_ : nullptr; }

 private:
  std::once_flag once_;
  std::optional<T> value_;
  std::atomic<bool> done_{false};
};

class ModelDerivations {
 public:
  std::atomic<int64_t> computations{0};  // derivations computed so far
  Slot<FrameworkGuess> framework;
  Slot<StepTimeSummary> step_summary;
  Slot<std::vector<StepTimeRow>> step_rows;
  Slot<InputPipelineAnalysis> input;
  Slot<TfDataBottleneckResult> tf_data;
  Slot<MemoryProfileResult> memory;
  Slot<MultiGpuResult> multi_gpu;
  Slot<KernelSummary> kernels;
  Slot<OpPlacement> placement;
  Slot<std::vector<HloOpMetrics>> hlo_ops;
  Slot<HloOpSummary> hlo_summary;
  Slot<AdvisorReport> advice;
};

DerivationCache::DerivationCache() : slots_(std::make_unique<ModelDerivations>()) {}
DerivationCache::~DerivationCache() = default;
DerivationCache::DerivationCache(const DerivationCache&) : slots_(std::make_unique<ModelDerivations>()) {}
DerivationCache& DerivationCache::operator=(const DerivationCache& other) {
  if (this != &other) slots_ = std::make_unique<ModelDerivations>();
  return *this;
}
// The moved-from cache gets fresh slots, so a moved-from model stays usable.
DerivationCache::DerivationCache(DerivationCache&& other) noexcept
    : slots_(std::exchange(other.slots_, std::make_unique<ModelDerivations>())) {}
DerivationCache& DerivationCache::operator=(DerivationCache&& other) noexcept {
  if (this != &other) slots_ = std::exchange(other.slots_, std::make_unique<ModelDerivations>());
  return *this;
}

namespace {

template <typename T>
size_t VectorBytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

size_t MemoryResultBytes(const MemoryProfileResult& r) {
  size_t bytes = sizeof(r) + VectorBytes(r.allocators);
  for (const PerAllocatorMemoryProfile& a : r.allocators) {
    bytes += VectorBytes(a.active_snapshots) + VectorBytes(a.active_allocations) +
             VectorBytes(a.special_allocations) + VectorBytes(a.sampled_timeline) + VectorBytes(a.heap_at_step_end);
    // Each snapshot's metadata owns up to four strings (op, region, data type, shape);
    // their heap parts, at about one short string each.
    bytes += (a.active_snapshots.size() + a.sampled_timeline.size()) * 32;
  }
  return bytes;
}

}  // namespace

// The derivations are small next to the model except the memory analysis (timelines and
// the breakdown at the peak, per memory id), the input and tf.data tables and the HLO op
// rows; those are counted, the rest by their size.
int64_t DerivationCache::computations() const { return slots_->computations.load(std::memory_order_relaxed); }

size_t DerivationCache::MemoryBytes() const {
  size_t bytes = sizeof(ModelDerivations);
  const ModelDerivations& d = *slots_;
  if (const auto* m = d.memory.computed()) bytes += MemoryResultBytes(*m);
  if (const auto* i = d.input.computed()) bytes += VectorBytes(i->input_ops) + VectorBytes(i->steps) + 64 * i->input_ops.size();
  if (const auto* r = d.step_rows.computed()) bytes += VectorBytes(*r) + 32 * r->size();
  if (const auto* t = d.tf_data.computed()) {
    bytes += VectorBytes(t->pipelines) + VectorBytes(t->stages) + VectorBytes(t->critical_path) + 64 * t->stages.size();
  }
  if (const auto* h = d.hlo_ops.computed()) bytes += VectorBytes(*h) + 96 * h->size();
  if (const auto* g = d.multi_gpu.computed()) {
    bytes += VectorBytes(g->devices) + VectorBytes(g->collective_rows) + VectorBytes(g->step_rows);
  }
  return bytes;
}

namespace {

// WithFreshDerivations' cache for one model on this thread (null: none).
struct FreshScope {
  const ProfileModel* model;
  ModelDerivations* slots;
};
thread_local const FreshScope* tls_fresh = nullptr;

// The slot's value, computed on first use: in the model's cache, or in the fresh scope's
// when this thread runs one for this model.
template <typename T, typename Compute>
const T& Derive(const ProfileModel& m, Slot<T> ModelDerivations::*slot, Compute&& compute) {
  ModelDerivations& d = tls_fresh != nullptr && tls_fresh->model == &m ? *tls_fresh->slots : m.derived.slots();
  return (d.*slot).Get(d.computations, std::forward<Compute>(compute));
}

}  // namespace

void RunWithFreshDerivations(const ProfileModel& model, const std::function<void()>& compute) {
  ModelDerivations slots;
  const FreshScope scope{&model, &slots};
  const FreshScope* outer = std::exchange(tls_fresh, &scope);
  compute();
  tls_fresh = outer;
}

const FrameworkGuess& FrameworkOf(const ProfileModel& m) {
  return Derive(m, &ModelDerivations::framework, [&] { return DetectFramework(m); });
}
const StepTimeSummary& StepSummaryOf(const ProfileModel& m) {
  return Derive(m, &ModelDerivations::step_summary, [&] { return SummarizeSteps(m); });
}
const std::vector<StepTimeRow>& StepRowsOf(const ProfileModel& m) {
  return Derive(m, &ModelDerivations::step_rows, [&] { return ComputeStepTimeRows(m); });
}
const InputPipelineAnalysis& InputAnalysisOf(const ProfileModel& m) {
  return Derive(m, &ModelDerivations::input, [&] { return AnalyzeInputPipeline(m); });
}
const TfDataBottleneckResult& TfDataAnalysisOf(const ProfileModel& m) {
  return Derive(m, &ModelDerivations::tf_data, [&] { return AnalyzeTfDataPipelines(m); });
}
const MemoryProfileResult& MemoryAnalysisOf(const ProfileModel& m) {
  return Derive(m, &ModelDerivations::memory, [&] { return AnalyzeMemory(m, m.step_group, {}); });
}
const MultiGpuResult& MultiGpuOf(const ProfileModel& m) {
  return Derive(m, &ModelDerivations::multi_gpu, [&] { return AnalyzeMultiGpu(m); });
}
const KernelSummary& KernelSummaryOf(const ProfileModel& m) {
  return Derive(m, &ModelDerivations::kernels, [&] { return SummarizeKernels(m); });
}
const OpPlacement& OpPlacementOf(const ProfileModel& m) {
  return Derive(m, &ModelDerivations::placement, [&] { return ComputeOpPlacement(m); });
}
const std::vector<HloOpMetrics>& HloOpsOf(const ProfileModel& m) {
  return Derive(m, &ModelDerivations::hlo_ops, [&] { return ComputeHloOpMetrics(m); });
}
const HloOpSummary& HloSummaryOf(const ProfileModel& m) {
  return Derive(m, &ModelDerivations::hlo_summary, [&] { return SummarizeHloOps(m, HloOpsOf(m)); });
}
const AdvisorReport& AdviceOf(const ProfileModel& m) {
  return Derive(m, &ModelDerivations::advice, [&] { return EvaluateAdvice(m); });
}

}  // namespace stepscope::analysis
