#include "torch_op_callback.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "stepscope/annotation.h"
#include "stepscope/internal/recorder.h"
#include "torch_memory_reporter.h"

namespace stepscope::python {
namespace {

// Kineto's argument names, so the trace viewer shows what torch.profiler shows.
constexpr char kSequenceNumberKey[] = "Sequence number";
constexpr char kFwdThreadIdKey[] = "Fwd thread id";

std::atomic<bool> g_record_shapes{false};

std::mutex g_handle_mu;
std::optional<at::CallbackHandle> g_handle;  // guarded by g_handle_mu; set while a session records

// One open RecordFunction on this thread. Matched by address at the end: the callback
// gets no id unless every op pays for a global counter (needsIds).
struct OpenOp {
  const at::RecordFunction* fn;
  uint64_t start_ticks;
  std::string encoded_name;  // with input shapes; empty: use fn->name() at the end
};
thread_local std::vector<OpenOp> t_open_ops;
thread_local bool t_thread_named = false;
// The op for which this thread carries the memory reporter (pushed at its start), if any.
thread_local const at::RecordFunction* t_memory_reporter_op = nullptr;

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
void NameThreadOnce(const at::RecordFunction& fn) {
  t_thread_named = true;
  if (static_cast<pid_t>(syscall(SYS_gettid)) == getpid()) return;  // the main thread keeps its name
  if (at::in_parallel_region()) {
    SetCurrentThreadName("pytorch intra-op " + std::to_string(at::get_thread_num()));
  } else if (fn.scope() == at::RecordScope::BACKWARD_FUNCTION) {
    SetCurrentThreadName("pytorch autograd");
  }
}

std::unique_ptr<at::ObserverContext> OnOpStart(const at::RecordFunction& fn) {
  // Before the op runs, so that its own allocations reach the reporter on this thread;
  // removed when this op ends (torch_memory_reporter.h says why not later).
  if (MemoryReportingActive() && t_memory_reporter_op == nullptr && AttachMemoryReporterToThisThread()) {
    t_memory_reporter_op = &fn;
  }
  if (!internal::IsLevelEnabled(LevelOf(fn.scope()))) return nullptr;
  if (!t_thread_named) NameThreadOnce(fn);
  OpenOp op{&fn, 0, {}};
  if (fn.needsInputs()) op.encoded_name = EncodeWithShapes(fn);
  t_open_ops.push_back(std::move(op));
  t_open_ops.back().start_ticks = internal::ReadTicks();
  return nullptr;
}

void OnOpEnd(const at::RecordFunction& fn, at::ObserverContext*) {
  const uint64_t end_ticks = internal::ReadTicks();
  if (t_memory_reporter_op == &fn) {
    t_memory_reporter_op = nullptr;
    DetachMemoryReporterFromThisThread();
  }
  // Normally the top entry; an op whose end never came (an exception path that skipped
  // it) is dropped with everything above it. An end on another thread finds nothing.
  size_t index = t_open_ops.size();
  while (index > 0 && t_open_ops[index - 1].fn != &fn) --index;
  if (index == 0) return;
  OpenOp op = std::move(t_open_ops[index - 1]);
  t_open_ops.resize(index - 1);
  if (!internal::IsLevelEnabled(LevelOf(fn.scope()))) return;  // the session stopped meanwhile

  uint64_t head = 0;
  if (op.encoded_name.empty()) {
    const char* name = fn.name();
    head = internal::InternDynamicName(name, std::strlen(name));
  } else {
    head = internal::InternDynamicName(op.encoded_name.data(), op.encoded_name.size());
  }
  if (head == 0) return;  // this thread's buffer is full: counted as dropped
  internal::StaticInt64Arg args[2];
  size_t count = 0;
  if (fn.seqNr() >= 0) args[count++] = {kSequenceNumberKey, fn.seqNr()};
  if (fn.scope() == at::RecordScope::BACKWARD_FUNCTION && fn.forwardThreadId() != 0) {
    args[count++] = {kFwdThreadIdKey, static_cast<int64_t>(fn.forwardThreadId())};
  }
  internal::RecordEventWithArgs(head, op.start_ticks, end_ticks, args, count);
}

}  // namespace

const char* InnermostOpName() { return t_open_ops.empty() ? nullptr : t_open_ops.back().fn->name(); }

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
  g_handle = at::addGlobalCallback(at::RecordFunctionCallback(&OnOpStart, &OnOpEnd)
                                       .needsInputs(g_record_shapes.load())
                                       .scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION,
                                                at::RecordScope::USER_SCOPE}));
}

void TorchOpRecorder::OnSessionStop() {
  std::lock_guard<std::mutex> lock(g_handle_mu);
  if (!g_handle.has_value()) return;
  StopMemoryReporting();
  at::removeCallback(*g_handle);
  g_handle.reset();
}

}  // namespace stepscope::python
