// PyTorch's allocator reports as stepscope memory events (profile_memory). PyTorch's CPU
// allocator (and the CUDA caching allocator) call c10::reportMemoryUsageToProfiler on
// every allocation and free while c10::memoryProfilingEnabled() is true; both look up a
// c10::MemoryReportingInfoBase in the calling thread's c10::ThreadLocalDebugInfo under
// DebugInfoKind::PROFILER_STATE, where torch.profiler puts its own state. While a session
// with profile_memory records (host level >= 2), stepscope's reporter is that object:
// each report becomes stepscope::RecordAllocation / RecordDeallocation with the
// allocator named as the Kineto importer names it ("cpu", "cuda:<n>"), the address, the
// size, the bytes in use (CPU: the session's own allocations still live, counted here;
// other devices: PyTorch's total_allocated), total_reserved - total_allocated as free,
// the running maximum of bytes in use as peak, and as tf_op the innermost op open on the
// thread's RecordFunction stack (torch_op_callback.h): the ATen op that allocated (e.g.
// aten::empty), or the record_function scope when no op is open. Frees carry no op.
//
// Which threads report. ThreadLocalDebugInfo is per thread; PyTorch copies it into the
// threads that run work for a thread (at::ThreadLocalState: autograd's worker threads,
// at::launch / inter-op tasks, torch.jit fork). The reporter is pushed onto the thread
// that starts the session, and onto every thread that runs an ATen op during the
// session (from the RecordFunction callback, before the op runs, so the op's own
// allocations are seen). Not seen: allocations on a thread that runs no op of its own
// while the session records (e.g. OpenMP intra-op workers allocating inside a parallel
// region: the OpenMP backend does not copy the state into them), frees on such threads,
// and everything on a thread where torch.profiler's state is installed (reports go to
// torch.profiler there; stepscope never hides it).
//
// Off (no session, or profile_memory not asked for): the reporter's
// memoryProfilingEnabled() is false and the op callback pays one relaxed load. A thread
// keeps the reporter in its debug info after the session until its own scope ends; it
// answers "not profiling" then. A forked child records nothing (the recorder is off there).
#pragma once

#include <atomic>

namespace stepscope::python {

namespace memory_detail {
extern std::atomic<bool> g_memory_reporting_active;
}  // namespace memory_detail

// Takes effect at the next session start.
void SetProfileMemory(bool enabled);
bool ProfileMemory();

// From TorchOpRecorder's session hooks: activates the reporter when profile_memory is
// set and the session records at host level >= 2; pushes it onto the calling thread.
void StartMemoryReporting(int host_tracer_level);
// Deactivates it; pops it from the calling thread's debug info if it is on top there.
void StopMemoryReporting();

// True while a session reports memory (relaxed: read once per op by the op callback).
inline bool MemoryReportingActive() { return memory_detail::g_memory_reporting_active.load(std::memory_order_relaxed); }

// Pushes the reporter onto this thread's debug info unless a PROFILER_STATE is already
// there (ours, or torch.profiler's).
void AttachMemoryReporterToThisThread();

}  // namespace stepscope::python
