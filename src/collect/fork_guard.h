// What a process forked from a recording process may do: nothing.
//
// A fork() child inherits the parent's memory but only the forking thread: the session,
// the per-thread buffers of the other threads, the collector thread and any lock one of
// them held are copies with nobody behind them. PyTorch's DataLoader (num_workers > 0)
// and Python's multiprocessing fork while the parent profiles. So, once this process has
// started a session, a child forked from it records nothing and never writes a profile:
// the child handler turns recording off before the child runs any code, and the API
// refuses to start, stop or flush there (kFailedPrecondition) and skips the exit-time
// write, without touching a lock that a parent thread may have held at the fork.
// A process that never started a session forks as if stepscope were not there.
#pragma once

namespace stepscope::collect {

// Installs the fork handler (once; called by every session start). Thread-safe.
void InstallForkGuard();
// True in a process forked from one that had started a session.
bool InForkedChild();
// Why the API refuses to work in such a child (one line, for kFailedPrecondition).
const char* ForkedChildMessage();

}  // namespace stepscope::collect
