#include "python/src/torch_op_callback.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "python/src/op_name_cache.h"
#include "python/src/torch_memory_reporter.h"
#include "stepscope/annotation.h"
#include "stepscope/internal/recorder.h"

namespace stepscope::python {
namespace {

// Kineto's argument names, so the trace viewer shows what torch.profiler shows.
constexpr char kSequenceNumberKey[] = "Sequence number";
constexpr char kFwdThreadIdKey[] = "Fwd thread id";

std::atomic<bool> g_record_shapes{false};
// Bumped at each session start: names interned in earlier sessions are not reused.
std::atomic<uint64_t> g_session_epoch{0};

std::mutex g_handle_mu;
std::optional<at::CallbackHandle> g_handle;  // guarded by g_handle_mu; set while a session records

// One open RecordFunction on this thread. Matched by address at the end: the callback
// gets no id unless every op pays for a global counter (needsIds).
struct OpenOp {
  const at::RecordFunction* fn;
  uint64_t start_ticks;
  uint64_t head;  // interned at the start when it carries input shapes; 0: fn->name() at the end
  uint64_t epoch;  // the session it started in (`head` is valid only there)
};

// Everything the callback keeps per thread, behind one thread_local pointer: a module
// loaded with dlopen reaches each of its thread_locals through a __tls_get_addr call, and
// the callback runs twice per ATen op.
struct ThreadOps {
  std::vector<OpenOp> open_ops;
  OpNameCache names;
  bool thread_named = false;
  // The op for which this thread carries the memory reporter (pushed at its start), if any.
  const at::RecordFunction* memory_reporter_op = nullptr;
};

// initial-exec: one 8-byte slot of the static TLS block (glibc keeps spare room for
// dlopen'ed modules), read without a call. The state itself is freed at thread exit by
// the guard below, which only the first use of a thread touches.
constinit thread_local ThreadOps* t_ops __attribute__((tls_model("initial-exec"))) = nullptr;

// Set once the thread's teardown has destroyed its state: ops it still runs then are not
// recorded (recreating the state would construct a thread_local during destruction).
constinit thread_local bool t_ops_gone __attribute__((tls_model("initial-exec"))) = false;

struct ThreadOpsOwner {
  std::unique_ptr<ThreadOps> ops;
  ~ThreadOpsOwner() {
    t_ops = nullptr;
    t_ops_gone = true;
  }
};
thread_local ThreadOpsOwner t_ops_owner;

ThreadOps* CreateThreadOps() {
  if (t_ops_gone) return nullptr;
  t_ops_owner.ops = std::make_unique<ThreadOps>();
  t_ops_owner.ops->open_ops.reserve(64);
  t_ops = t_ops_owner.ops.get();
  return t_ops;
}

// This thread's state, or nullptr during its teardown.
inline ThreadOps* CurrentThreadOps() {
  if (__builtin_expect(t_ops != nullptr, 1)) return t_ops;
  return CreateThreadOps();
}

int LevelOf(at::RecordScope scope) {
  return scope == at::RecordScope::USER_SCOPE ? internal::kLevelCritical : internal::kLevelInfo;
}

// Kineto's forms: "[[32,64],[64]]" and "[float,float]" (non-tensor inputs: [] and the
// IValue's kind, e.g. Scalar / int[]).
std::string EncodeWithShapes(const at::RecordFunction& fn) {
  std::string dims = "[";
  std::string types = "[";
  bool first = true;
  for (const c10::IValue& input : fn.inputs()) {
    if (!first) {
      dims += ',';
      types += ',';
    }
    first = false;
    dims += '[';
    if (input.isTensor()) {
      const at::Tensor& tensor = input.toTensor();
      if (tensor.defined()) {
        bool first_dim = true;
        for (int64_t size : tensor.sizes()) {
          if (!first_dim) dims += ',';
          first_dim = false;
          dims += std::to_string(size);
        }
        types += std::string(tensor.dtype().name());
      }
    } else if (input.isScalar()) {
      types += "Scalar";
    } else {
      types += input.tagKind();
    }
    dims += ']';
  }
  dims += ']';
  types += ']';
  return EncodeMetadata(fn.name(), {{"Input Dims", dims}, {"Input type", types}});
}

// Once per thread, the first time it records: lines for the threads PyTorch starts.
void NameThreadOnce(ThreadOps& ops, const at::RecordFunction& fn) {
  ops.thread_named = true;
  if (static_cast<pid_t>(syscall(SYS_gettid)) == getpid()) return;  // the main thread keeps its name
  if (at::in_parallel_region()) {
    SetCurrentThreadName("pytorch intra-op " + std::to_string(at::get_thread_num()));
  } else if (fn.scope() == at::RecordScope::BACKWARD_FUNCTION && fn.forwardThreadId() != 0 &&
             fn.forwardThreadId() != at::RecordFunction::currentThreadId()) {
    // Backward of a graph another thread built: an autograd engine worker (accelerator
    // devices, reentrant backward). A thread that runs its own backward keeps its name.
    SetCurrentThreadName("pytorch autograd");
  }
}

std::unique_ptr<at::ObserverContext> OnOpStart(const at::RecordFunction& fn) {
  ThreadOps* ops = CurrentThreadOps();
  if (ops == nullptr) return nullptr;
  // Before the op runs, so that its own allocations reach the reporter on this thread;
  // removed when this op ends (torch_memory_reporter.h says why not later).
  if (MemoryReportingActive() && ops->memory_reporter_op == nullptr && AttachMemoryReporterToThisThread()) {
    ops->memory_reporter_op = &fn;
  }
  if (!internal::IsLevelEnabled(LevelOf(fn.scope()))) return nullptr;
  if (__builtin_expect(!ops->thread_named, 0)) NameThreadOnce(*ops, fn);
  const uint64_t epoch = g_session_epoch.load(std::memory_order_relaxed);
  uint64_t head = 0;
  if (fn.needsInputs()) {
    const std::string encoded = EncodeWithShapes(fn);
    head = internal::InternDynamicName(encoded.data(), encoded.size());
    if (head == 0) return nullptr;  // this thread's buffer is full: counted as dropped
  }
  ops->open_ops.push_back({&fn, internal::ReadTicks(), head, epoch});
  return nullptr;
}

void OnOpEnd(const at::RecordFunction& fn, at::ObserverContext*) {
  const uint64_t end_ticks = internal::ReadTicks();
  ThreadOps* ops = t_ops;  // an op that started on this thread created it
  if (ops == nullptr) return;
  if (ops->memory_reporter_op == &fn) {
    ops->memory_reporter_op = nullptr;
    DetachMemoryReporterFromThisThread();
  }
  // Normally the top entry; an op whose end never came (an exception path that skipped
  // it) is dropped with everything above it. An end on another thread finds nothing.
  std::vector<OpenOp>& open = ops->open_ops;
  size_t index = open.size();
  while (index > 0 && open[index - 1].fn != &fn) --index;
  if (index == 0) return;
  const OpenOp op = open[index - 1];
  open.resize(index - 1);
  if (!internal::IsLevelEnabled(LevelOf(fn.scope()))) return;  // the session stopped meanwhile

  const uint64_t epoch = g_session_epoch.load(std::memory_order_relaxed);
  if (op.epoch != epoch) return;  // started in an earlier session
  // operator_name() copies the schema's name: only when a cache entry is filled.
  const uint64_t head =
      op.head != 0 ? op.head : ops->names.Head(fn.name(), epoch, [&fn] { return fn.operator_name().has_value(); });
  if (head == 0) return;  // this thread's buffer is full: counted as dropped
  internal::StaticInt64Arg args[2];
  size_t count = 0;
  if (fn.seqNr() >= 0) args[count++] = {kSequenceNumberKey, fn.seqNr()};
  if (fn.scope() == at::RecordScope::BACKWARD_FUNCTION && fn.forwardThreadId() != 0) {
    args[count++] = {kFwdThreadIdKey, static_cast<int64_t>(fn.forwardThreadId())};
  }
  internal::RecordEventWithArgs(head, op.start_ticks, end_ticks, args, count);
}

// The callback's registration at a host level: the noop benchmark callback registers
// through this too, so that PyTorch does for it exactly what it does for ours.
at::RecordFunctionCallback CallbackFor(at::RecordFunctionCallback::StartCallback start,
                                       at::RecordFunctionCallback::EndCallback end, int host_tracer_level) {
  // Only the scopes this level records: PyTorch's dispatcher builds a RecordFunction (about
  // 75 ns) for every op of a scope some callback observes, so at level 1 ATen ops and
  // autograd nodes must not be observed at all.
  std::unordered_set<at::RecordScope, std::hash<at::RecordScope>> scopes = {at::RecordScope::USER_SCOPE};
  if (host_tracer_level >= internal::kLevelInfo) {
    scopes.insert(at::RecordScope::FUNCTION);
    scopes.insert(at::RecordScope::BACKWARD_FUNCTION);
  }
  return at::RecordFunctionCallback(start, end)
      .needsInputs(g_record_shapes.load() && host_tracer_level >= internal::kLevelInfo)
      .scopes(scopes);
}

std::unique_ptr<at::ObserverContext> NoopStart(const at::RecordFunction&) { return nullptr; }
void NoopEnd(const at::RecordFunction&, at::ObserverContext*) {}

}  // namespace

const char* InnermostOpName() {
  const ThreadOps* ops = t_ops;
  return ops == nullptr || ops->open_ops.empty() ? nullptr : ops->open_ops.back().fn->name();
}

TorchOpRecorder& TorchOpRecorder::Get() {
  static auto* recorder = new TorchOpRecorder();
  return *recorder;
}

void TorchOpRecorder::set_record_shapes(bool record_shapes) { g_record_shapes.store(record_shapes); }
bool TorchOpRecorder::record_shapes() const { return g_record_shapes.load(); }

bool TorchOpRecorder::callback_installed() const {
  std::lock_guard<std::mutex> lock(g_handle_mu);
  return g_handle.has_value();
}

void TorchOpRecorder::OnSessionStart(const ProfileOptions& options) {
  std::lock_guard<std::mutex> lock(g_handle_mu);
  if (g_handle.has_value()) return;
  StartMemoryReporting(options.host_tracer_level);
  g_session_epoch.fetch_add(1, std::memory_order_relaxed);
  g_handle = at::addGlobalCallback(CallbackFor(&OnOpStart, &OnOpEnd, options.host_tracer_level));
}

void TorchOpRecorder::OnSessionStop() {
  std::lock_guard<std::mutex> lock(g_handle_mu);
  if (!g_handle.has_value()) return;
  StopMemoryReporting();
  at::removeCallback(*g_handle);
  g_handle.reset();
}

bool SetNoopCallbackForBenchmark(bool installed) {
  static std::optional<at::CallbackHandle> handle;  // guarded by g_handle_mu
  std::lock_guard<std::mutex> lock(g_handle_mu);
  if (installed && !handle.has_value()) {
    handle = at::addGlobalCallback(CallbackFor(&NoopStart, &NoopEnd, internal::kLevelInfo));
  } else if (!installed && handle.has_value()) {
    at::removeCallback(*handle);
    handle.reset();
  }
  return handle.has_value();
}

}  // namespace stepscope::python
