// The memory budget of one stepscope process: what every reader of a profile may make
// the process hold, whatever a crafted file asks for.
//
// `--max_memory_mb` (every command and `serve`) sets it; the default is three quarters of
// the memory this machine (or its cgroup) has. Readers derive their limits from it: the
// gzip inflation cap, the decoded size of a file's events and strings, its XLA programs
// over all of them, the server's model cache. A file over a limit is refused early with
// one line naming what is too large, not half-built.
//
// Thread-safe: set once at start, read anywhere.
#pragma once

#include <cstdint>
#include <string>

namespace stepscope::base {

// Physical memory, or the cgroup's limit (memory.max) when that is smaller.
uint64_t MachineMemoryBytes();
// Three quarters of MachineMemoryBytes(), at least kMinMemoryBudgetBytes.
uint64_t DefaultMemoryBudgetBytes();

inline constexpr uint64_t kMinMemoryBudgetBytes = uint64_t{64} << 20;

// The process's budget: the last SetMemoryBudgetBytes, else the default.
uint64_t MemoryBudgetBytes();
void SetMemoryBudgetBytes(uint64_t bytes);

// "the memory budget of 1024 MiB (--max_memory_mb)": the words every refusal uses.
std::string MemoryBudgetText();

}  // namespace stepscope::base
