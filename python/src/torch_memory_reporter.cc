#include "python/src/torch_memory_reporter.h"

#include <c10/core/Allocator.h>
#include <c10/core/Device.h>
#include <c10/util/Exception.h>
#include <c10/util/ThreadLocalDebugInfo.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "python/src/torch_op_callback.h"
#include "stepscope/memory.h"

namespace stepscope::python {
namespace memory_detail {
std::atomic<bool> g_memory_reporting_active{false};
}  // namespace memory_detail

namespace {

std::atomic<bool> g_profile_memory{false};

// The running maximum of bytes in use per (device type, index), reset at session start:
// PyTorch reports no peak. Indices beyond the table share its last slot.
constexpr int kDeviceTypes = static_cast<int>(c10::DeviceType::COMPILE_TIME_MAX_DEVICE_TYPES);
constexpr int kDeviceIndices = 17;  // -1 (CPU) .. 15
std::array<std::atomic<int64_t>, kDeviceTypes * kDeviceIndices> g_peak_bytes{};

std::atomic<int64_t>& PeakOf(const c10::Device& device) {
  const int type = std::clamp(static_cast<int>(device.type()), 0, kDeviceTypes - 1);
  const int index = std::clamp(static_cast<int>(device.index()) + 1, 0, kDeviceIndices - 1);
  return g_peak_bytes[type * kDeviceIndices + index];
}

int64_t RaisePeak(const c10::Device& device, int64_t bytes_in_use) {
  std::atomic<int64_t>& peak = PeakOf(device);
  int64_t seen = peak.load(std::memory_order_relaxed);
  while (bytes_in_use > seen && !peak.compare_exchange_weak(seen, bytes_in_use, std::memory_order_relaxed)) {
  }
  return std::max(seen, bytes_in_use);
}

// PyTorch's CPU allocator counts total_allocated only while some thread profiles memory,
// and a tensor allocated then but freed after the session stays counted (its size table
// keeps it) in every later session of the process. So on the CPU stepscope keeps its own
// count: the allocations of this session, by address, and their total. A free of an
// address this session did not allocate (a tensor from before the session) is not
// recorded. Other devices' allocators (CUDA's caching allocator) keep exact totals of
// their own, which are used as reported.
//
// Every CPU allocation and free of the process passes here while a session records, so
// the table is an open-addressing one (linear probing, deletion by backward shift): no
// node is allocated or freed per report, and a lookup touches one or two cache lines.
// A spin lock guards it: held for a few dozen instructions, never across a call out.
class SessionCpuAllocations {
 public:
  void Clear() {
    SpinLock lock(busy_);
    slots_.assign(kInitialSlots, Slot{});
    used_ = 0;
    in_use_ = 0;
  }
  // The bytes in use after the allocation.
  int64_t Allocate(uint64_t address, int64_t bytes) {
    SpinLock lock(busy_);
    if (slots_.empty() || (used_ + 1) * 2 > slots_.size()) Grow();
    Slot& slot = slots_[Find(address)];
    if (slot.used) {  // a free this session never saw (another thread without the reporter)
      in_use_ -= slot.bytes;
    } else {
      slot.used = true;
      slot.address = address;
      ++used_;
    }
    slot.bytes = bytes;
    in_use_ += bytes;
    return in_use_;
  }
  // The bytes in use after the free, or -1 when this session did not allocate `address`.
  int64_t Free(uint64_t address) {
    SpinLock lock(busy_);
    if (slots_.empty()) return -1;
    size_t at = Find(address);
    if (!slots_[at].used) return -1;
    in_use_ -= slots_[at].bytes;
    Erase(at);
    return in_use_;
  }

 private:
  struct Slot {
    uint64_t address = 0;
    int64_t bytes = 0;
    bool used = false;
  };
  class SpinLock {
   public:
    explicit SpinLock(std::atomic_flag& busy) : busy_(busy) {
      while (busy_.test_and_set(std::memory_order_acquire)) {
        while (busy_.test(std::memory_order_relaxed)) std::this_thread::yield();
      }
    }
    ~SpinLock() { busy_.clear(std::memory_order_release); }

   private:
    std::atomic_flag& busy_;
  };
  static constexpr size_t kInitialSlots = 1024;  // a power of two

  size_t Home(uint64_t address) const {
    // Addresses are 16-byte aligned and close together: mix the bits before masking.
    return static_cast<size_t>((address * 0x9E3779B97F4A7C15ull) >> 20) & (slots_.size() - 1);
  }
  // The slot holding `address`, or the empty slot where it would go.
  size_t Find(uint64_t address) const {
    size_t i = Home(address);
    while (slots_[i].used && slots_[i].address != address) i = (i + 1) & (slots_.size() - 1);
    return i;
  }
  // Empties slot `at`, moving later entries of its probe run back so lookups never stop
  // early at the hole (no tombstones to clean up).
  void Erase(size_t at) {
    const size_t mask = slots_.size() - 1;
    size_t hole = at;
    for (size_t i = (at + 1) & mask; slots_[i].used; i = (i + 1) & mask) {
      const size_t home = Home(slots_[i].address);
      // Move the entry into the hole unless its home lies cyclically in (hole, i].
      const bool stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
      if (stays) continue;
      slots_[hole] = slots_[i];
      hole = i;
    }
    slots_[hole] = Slot{};
    --used_;
  }
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? kInitialSlots : old.size() * 2, Slot{});
    for (const Slot& slot : old) {
      if (slot.used) slots_[Find(slot.address)] = slot;
    }
  }

  std::atomic_flag busy_;
  std::vector<Slot> slots_;  // guarded by busy_; size a power of two (or empty)
  size_t used_ = 0;          // guarded by busy_
  int64_t in_use_ = 0;       // guarded by busy_
};

SessionCpuAllocations& CpuAllocations() {
  static auto* allocations = new SessionCpuAllocations();
  return *allocations;
}

// The Kineto importer's names for the same device (importers/kineto_json), so a live
// profile and an imported torch.profiler trace show the same memory ids.
const std::string& AllocatorName(const c10::Device& device) {
  static const std::string kCpu = "cpu";
  if (device.type() == c10::DeviceType::CPU) return kCpu;
  // Built when the thread's device changes, not per report.
  thread_local std::string name;
  thread_local c10::Device named(c10::DeviceType::CPU);
  if (name.empty() || device != named) {
    const int index = std::max<int>(device.index(), 0);
    name = device.type() == c10::DeviceType::CUDA
               ? "cuda:" + std::to_string(index)
               : "device_type_" + std::to_string(static_cast<int>(device.type())) + ":" + std::to_string(index);
    named = device;
  }
  return name;
}

// Whether `name` survives as a TraceMe metadata value (annotation.h): record_function
// scopes may contain '#' (the DataLoader's "enumerate(DataLoader)#...__next__"), which
// ends the metadata, or ',' and quotes, which split it. Other names are left to the
// analysis, which names an event without tf_op after the innermost event around it on
// its thread: the same op, recorded under its full name.
bool IsMetadataValue(std::string_view name) { return name.find_first_of("#,'\"") == std::string_view::npos; }

class StepscopeMemoryReporter : public c10::MemoryReportingInfoBase {
 public:
  void reportMemoryUsage(void* ptr, int64_t alloc_size, int64_t total_allocated, int64_t total_reserved,
                         c10::Device device) override {
    if (!memoryProfilingEnabled() || alloc_size == 0) return;
    const uint64_t address = reinterpret_cast<uintptr_t>(ptr);
    if (device.type() == c10::DeviceType::CPU) {
      total_allocated = alloc_size > 0 ? CpuAllocations().Allocate(address, alloc_size) : CpuAllocations().Free(address);
      if (total_allocated < 0) return;  // freeing a tensor from before the session
      total_reserved = 0;
    }
    AllocatorState state;
    state.bytes_in_use = total_allocated;
    state.peak_bytes_in_use = RaisePeak(device, total_allocated);
    // PyTorch's reserved pool holds what is allocated plus what is cached but free (CPU: 0).
    state.bytes_available = total_reserved > total_allocated ? total_reserved - total_allocated : 0;
    const std::string& allocator = AllocatorName(device);
    if (alloc_size > 0) {
      AllocationInfo info;
      info.allocator_name = allocator;
      info.address = address;
      info.requested_bytes = alloc_size;
      info.allocation_bytes = alloc_size;
      const char* op = InnermostOpName();
      if (op != nullptr && IsMetadataValue(op)) info.op_name = op;
      RecordAllocation(info, state);
    } else {
      RecordDeallocation(allocator, address, alloc_size == INT64_MIN ? INT64_MAX : -alloc_size, state);
    }
  }

  // Read by PyTorch's allocators on every allocation and free of a thread that carries
  // the reporter; false outside sessions and in a forked child (recording is off there),
  // so PyTorch then keeps no size table either.
  bool memoryProfilingEnabled() const override {
    return MemoryReportingActive() && stepscope::internal::IsLevelEnabled(stepscope::internal::kLevelInfo);
  }
};

// Process-wide and never destroyed: threads may keep it in their debug info after a session.
const std::shared_ptr<StepscopeMemoryReporter>& Reporter() {
  static auto* reporter = new std::shared_ptr<StepscopeMemoryReporter>(std::make_shared<StepscopeMemoryReporter>());
  return *reporter;
}

}  // namespace

void SetProfileMemory(bool enabled) { g_profile_memory.store(enabled); }
bool ProfileMemory() { return g_profile_memory.load(); }

bool AttachMemoryReporterToThisThread() {
  if (c10::ThreadLocalDebugInfo::get(c10::DebugInfoKind::PROFILER_STATE) != nullptr) return false;
  c10::ThreadLocalDebugInfo::_push(c10::DebugInfoKind::PROFILER_STATE, Reporter());
  return true;
}

void DetachMemoryReporterFromThisThread() {
  // _peek throws when the top entry is of another kind (or there is none); then ours is
  // not on top, and popping would take someone else's.
  try {
    if (c10::ThreadLocalDebugInfo::_peek(c10::DebugInfoKind::PROFILER_STATE) == Reporter()) {
      c10::ThreadLocalDebugInfo::_pop(c10::DebugInfoKind::PROFILER_STATE);
    }
  } catch (const c10::Error&) {
  }
}

void StartMemoryReporting(int host_tracer_level) {
  if (!g_profile_memory.load() || host_tracer_level < stepscope::internal::kLevelInfo) return;
  for (std::atomic<int64_t>& peak : g_peak_bytes) peak.store(0, std::memory_order_relaxed);
  CpuAllocations().Clear();
  memory_detail::g_memory_reporting_active.store(true);
  AttachMemoryReporterToThisThread();
}

void StopMemoryReporting() {
  if (!memory_detail::g_memory_reporting_active.exchange(false)) return;
  CpuAllocations().Clear();  // the session's table is not needed any more
  DetachMemoryReporterFromThisThread();
}

}  // namespace stepscope::python
