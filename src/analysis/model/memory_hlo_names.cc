#include "src/analysis/model/memory_hlo_names.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace stepscope::analysis::internal {
namespace {

// What one buffer allocation holds, in words.
std::string Describe(const hlo::HloModule& module, const hlo::BufferAllocation& allocation) {
  const std::string program = module.name + "(" + std::to_string(module.id) + ")";
  std::string what;
  if (allocation.is_entry_computation_parameter) {
    what = "XLA parameter " + std::to_string(allocation.parameter_number) + " of " + program;
  } else if (allocation.maybe_live_out) {
    what = "XLA output of " + program;
  } else if (allocation.is_constant) {
    what = "XLA constant of " + program;
  } else {
    what = "XLA temporaries of " + program;
  }
  // One logical buffer: the instruction that defines it says more than the role.
  if (allocation.assigned.size() == 1 && module.buffer_assignment) {
    const hlo::BufferAssignment& assignment = *module.buffer_assignment;
    const int32_t buffer = assignment.FindLogicalBuffer(allocation.assigned[0].logical_buffer_id);
    if (buffer >= 0) {
      const int32_t instruction = assignment.logical_buffers[buffer].instruction;
      if (instruction >= 0) what += " (" + module.instructions[instruction].name + ")";
    }
  }
  return what + ", allocation " + std::to_string(allocation.index);
}

}  // namespace

int64_t NameAllocationsFromBufferAssignment(const hlo::HloPrograms& programs, MemoryEvents* memory) {
  std::unordered_map<int64_t, std::vector<std::string>> by_size;
  for (const hlo::HloModule& module : programs.modules) {
    if (!module.buffer_assignment) continue;
    for (const hlo::BufferAllocation& allocation : module.buffer_assignment->allocations) {
      // Thread-local and tuple-index allocations are not device memory an allocator hands out.
      if (allocation.size_bytes <= 0 || allocation.is_thread_local || allocation.is_tuple) continue;
      std::vector<std::string>& candidates = by_size[allocation.size_bytes];
      if (candidates.size() <= static_cast<size_t>(kMaxBufferCandidates)) {
        candidates.push_back(Describe(module, allocation));
      }
    }
  }
  if (by_size.empty()) return 0;
  std::unordered_map<int64_t, uint32_t> name_of_size;  // interned lazily
  int64_t named = 0;
  for (MemoryAllocatorEvents& allocator : memory->allocators) {
    for (MemoryEvent& e : allocator.events) {
      if (e.op_name != 0 || e.requested_bytes <= 0) continue;
      auto it = by_size.find(e.requested_bytes);
      if (it == by_size.end() || it->second.size() > static_cast<size_t>(kMaxBufferCandidates)) continue;
      auto [slot, inserted] = name_of_size.try_emplace(e.requested_bytes, 0);
      if (inserted) {
        std::string name;
        for (const std::string& candidate : it->second) name += (name.empty() ? "" : " or ") + candidate;
        slot->second = static_cast<uint32_t>(memory->names.size());
        memory->names.push_back(std::move(name));
      }
      e.op_name = slot->second;
      ++named;
    }
  }
  return named;
}

}  // namespace stepscope::analysis::internal
