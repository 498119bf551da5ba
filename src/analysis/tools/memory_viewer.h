// memory_viewer: what an XLA module's compiled buffers occupy over its program order
// (XProf's memory viewer). From the module's buffer assignment alone (static, what the
// compiler planned; the memory_profile tool shows what the allocator did at run time):
//   - the heap-size curve: bytes allocated at each point of the buffer assigner's heap
//     simulation (one point per alloc/free event, program order), padded (the logical
//     buffers' sizes) and unpadded (the sizes their shapes need without layout padding);
//   - the peak, and the logical buffers live at the peak, largest first, with shape,
//     size, defining HLO op and allocation type.
// As in XProf: the heap trace shown is the one of the module's temporary allocation (else
// the one with the most events in memory space 0); buffers the trace never mentions that
// live in non-thread-local allocations (parameters, outputs, constants) are live for the
// whole program and are added to every point; SHARE_WITH events reuse a freed buffer's
// memory, which counts again only while one of its sharers is live.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/analysis/tool.h"
#include "src/analysis/tools/hlo_module_choice.h"
#include "src/hlo/hlo_module.h"

namespace stepscope::analysis {

// One point of the heap-size curve: after `position` events of the heap trace.
struct MemoryViewerPoint {
  int64_t position = 0;       // event index in the heap trace (program order)
  int64_t heap_bytes = 0;     // padded: logical buffer sizes, whole-program buffers included
  int64_t unpadded_bytes = 0;  // the same buffers at their shapes' unpadded sizes
  std::string instruction;    // the instruction the event belongs to
  int64_t schedule_index = -1;  // its index in the module's schedule; -1 without one
};

// A logical buffer (or a whole allocation, for allocations holding several buffers that
// live for the whole program) live at the peak.
struct MemoryViewerBuffer {
  int64_t logical_buffer_id = -1;  // -1 for an allocation row
  std::string instruction;         // defining instruction ("fusion.3", "{1}" appended for tuple parts)
  std::string opcode;
  std::string op_name;  // framework op (metadata op_name)
  std::string shape;
  int64_t size_bytes = 0;
  int64_t unpadded_bytes = 0;
  std::string allocation_type;  // parameter, output, thread-local, constant, temporary
  int64_t allocation_index = -1;
  // Heap-trace positions the buffer is live over; -1/-1 for whole-program buffers.
  int64_t live_from = -1;
  int64_t live_to = -1;
};

struct MemoryViewerAllocation {
  int64_t index = 0;
  int64_t size_bytes = 0;
  std::string type;
  int64_t logical_buffers = 0;
  int64_t color = 0;
};

struct MemoryViewerResult {
  std::vector<HloModuleChoice> modules;
  std::string module;  // the one shown ("jit_train_step(5)")
  bool has_buffer_assignment = false;
  std::string message;  // why nothing is shown, when nothing is
  int64_t memory_color = 0;
  int64_t heap_trace_index = -1;  // -1: no heap trace (only whole-program buffers)
  int64_t heap_trace_events = 0;
  bool has_schedule = false;

  int64_t peak_bytes = 0;
  int64_t peak_unpadded_bytes = 0;
  int64_t peak_position = -1;  // heap-trace event index of the peak; -1 without a trace
  std::string peak_instruction;
  // Bytes live for the whole program (added to every point), and the allocations by type.
  int64_t whole_program_bytes = 0;
  int64_t parameter_bytes = 0;
  int64_t output_bytes = 0;
  int64_t constant_bytes = 0;
  int64_t temporary_bytes = 0;
  int64_t thread_local_bytes = 0;
  int64_t total_allocation_bytes = 0;

  std::vector<MemoryViewerPoint> timeline;  // down-sampled to kMaxPoints, the peak kept
  bool timeline_downsampled = false;
  std::vector<MemoryViewerBuffer> peak_buffers;  // largest first
  std::vector<MemoryViewerAllocation> allocations;
  std::vector<std::string> diagnostics;
};

inline constexpr size_t kMemoryViewerMaxPoints = 2000;

// The memory view of one module (no module list; the tool adds it).
MemoryViewerResult ComputeMemoryViewer(const hlo::HloModule& module, int64_t memory_color = 0);

void WriteResultJson(const MemoryViewerResult& result, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const MemoryViewerResult& result);
std::string FormatResultText(const MemoryViewerResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeMemoryViewerTool();

}  // namespace stepscope::analysis
