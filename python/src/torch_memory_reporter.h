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
// that starts the session, from start to stop (popped at stop when the same thread
// stops it), and onto any other thread for the outermost ATen op or scope it runs
// during the session (from the RecordFunction callback: pushed before the op runs,
// popped when it ends), so that thread's ops' allocations, and frees inside them, are
// seen. Not seen: frees on those other threads outside any op (a Python thread dropping
// a tensor: the allocation then shows as never freed), allocations on a thread that runs
// no op of its own (OpenMP intra-op workers inside a parallel region: the OpenMP backend
// does not copy the state), and everything on a thread where torch.profiler's state is
// installed (reports go to torch.profiler there). Why not keep it on every thread until
// stop: a thread cannot pop another's debug info, and torch.profiler refuses to start on
// a thread that carries any PROFILER_STATE ("Profiler is already enabled on this thread"),
// so a leftover entry would break torch.profiler on that thread after the session. For
// the same reason torch.profiler cannot start on the session's own thread while a
// profile_memory session records.
//
// Off (no session, or profile_memory not asked for): nothing is installed and the op
// callback pays one relaxed load. The reporter's memoryProfilingEnabled() is false once
// the session stops and in a forked child (the recorder is off there).
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
// there (ours, or torch.profiler's); true if it pushed.
bool AttachMemoryReporterToThisThread();
// Pops the reporter from this thread's debug info if it is the top entry there.
void DetachMemoryReporterFromThisThread();

}  // namespace stepscope::python
