// How many CPU cores this process may run on: its affinity mask (taskset, a container's
// cpuset), not the machine's count that std::thread::hardware_concurrency() gives. Thread
// pools size themselves by it, so a process pinned to two of sixteen cores starts two
// workers, not sixteen that take turns.
#pragma once

#include <pthread.h>
#include <sched.h>

namespace stepscope::base {

// At least 1.
int UsableCores();

// The calling thread's allowed CPUs split in two disjoint halves, for two threads that
// feed each other (a tokenizer and the parser that takes its batches): each enters its
// own half, so the scheduler cannot put both on one core. It would: a producer and a
// consumer that wake each other look like one task's work to a scheduler that packs
// wakees next to their wakers (or packs a VM's load onto few vCPUs), and then they take
// turns on one core while another idles (15 MB Kineto analyze, 2-core VM, 150 spawns:
// p75 21.0 -> 19.5 ms, p90 26.9 -> 23.6 ms with the halves). Inactive (Enter, Place and
// Leave do nothing) when the thread may run on fewer than two CPUs.
class CoreHalves {
 public:
  // Half 1 holds the CPU the calling thread runs on now: the caller, entering it, stays.
  static CoreHalves OfCallingThread();
  // The halves of `allowed` with `current_cpu` in half 1 (if it is in `allowed`).
  static CoreHalves Of(const cpu_set_t& allowed, int current_cpu);

  bool active() const { return active_; }
  // Restricts the calling thread to half 0 or 1. Best effort: a refusal leaves it as it was.
  void Enter(int half) const;
  // Restricts `thread` to half 0 or 1, as Enter does. Moving a thread that waits costs
  // nothing now; moving one that runs waits for a slot on the other half.
  void Place(pthread_t thread, int half) const;
  // Gives the calling thread back the whole mask of the thread that made the halves.
  void Leave() const;
  const cpu_set_t& half(int index) const { return halves_[index == 0 ? 0 : 1]; }

 private:
  bool active_ = false;
  cpu_set_t all_{};
  cpu_set_t halves_[2]{};
};

}  // namespace stepscope::base
