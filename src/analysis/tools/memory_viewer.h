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
#include <optional>
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
  int64_t rank = 0;  // 1 = the largest
  int64_t logical_buffer_id = -1;  // -1 for an allocation row
  std::string instruction;         // defining instruction ("fusion.3", "{1}" appended for tuple parts)
  std::string opcode;
  std::string op_name;  // framework op (metadata op_name)
  std::string shape;
  int64_t size_bytes = 0;
  int64_t unpadded_bytes = 0;
  double peak_percent = 0;  // of peak_bytes
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

// ---- The result's declaration (output/schema.h): its JSON, tables, TypeScript and docs. ----

namespace memory_viewer_fields {
// A heap-trace position or index where there is one, else absent (JSON null).
inline std::optional<int64_t> IndexIfAny(int64_t index) { return output::OptionalIf(index >= 0, index); }
inline constexpr output::FieldInfo kUnpadded{
    .label = "Unpadded (B)",
    .unit = "bytes",
    .description = "the same buffers at their shapes' sizes without layout padding"};
inline constexpr std::string_view kByType =
    "allocations of this type (parameter > output > thread-local > constant > temporary, the first that applies)";
inline constexpr output::FieldInfo kAllocationIndex{
    .label = "Allocation #", .unit = "count", .description = "the buffer allocation's index; null when none"};
}  // namespace memory_viewer_fields

constexpr auto DescribeRecord(std::type_identity<MemoryViewerPoint>) {
  using R = MemoryViewerPoint;
  namespace f = memory_viewer_fields;
  return output::Record(
      "MemoryViewerPoint",
      output::Field("position", &R::position,
                    {.label = "Program point",
                     .unit = "count",
                     .description = "event index in the heap trace (program order)"}),
      output::Field("instruction", &R::instruction,
                    {.label = "Instruction", .description = "the instruction the event belongs to", .max_width = 40}),
      output::Computed<R>("schedule_index", [](const R& p) { return f::IndexIfAny(p.schedule_index); },
                          {.label = "Schedule #", .unit = "count",
                           .description = "the instruction's index in the module's schedule; null without one"}),
      output::Field("heap_bytes", &R::heap_bytes,
                    {.label = "Allocated (B)", .unit = "bytes",
                     .description = "padded bytes allocated at this point of the compiler's heap simulation: the "
                                    "logical buffers' sizes, buffers live for the whole program (parameters, "
                                    "outputs, constants) included; not the allocator's heap (memory_profile)"}),
      output::Field("unpadded_bytes", &R::unpadded_bytes, f::kUnpadded));
}

constexpr auto DescribeRecord(std::type_identity<MemoryViewerBuffer>) {
  using R = MemoryViewerBuffer;
  namespace f = memory_viewer_fields;
  return output::Record(
      "MemoryViewerBuffer",
      output::Field("rank", &R::rank, {.label = "#", .unit = "count", .description = "1 = the largest"}),
      output::Field("instruction", &R::instruction,
                    {.label = "Defined by",
                     .description = "the defining instruction (`{i}` appended for a tuple's part); for a "
                                    "whole-program allocation holding several buffers `allocation N (k buffers)`",
                     .max_width = 40}),
      output::Field("opcode", &R::opcode, {.label = "Opcode", .max_width = 20}),
      output::Field("shape", &R::shape, {.label = "Shape", .max_width = 40}),
      output::Field("size_bytes", &R::size_bytes, {.label = "Size (B)", .unit = "bytes", .description = "padded"}),
      output::Field("unpadded_bytes", &R::unpadded_bytes, f::kUnpadded),
      output::Field("peak_percent", &R::peak_percent, {.label = "% of peak", .unit = "%", .decimals = 1}),
      output::Field("allocation_type", &R::allocation_type,
                    {.label = "Allocation",
                     .description = "parameter, output, thread-local, constant or temporary",
                     .max_width = 12}),
      output::Computed<R>("allocation_index", [](const R& b) { return f::IndexIfAny(b.allocation_index); },
                          f::kAllocationIndex),
      output::Computed<R>("logical_buffer_id", [](const R& b) { return f::IndexIfAny(b.logical_buffer_id); },
                          {.label = "Buffer id", .unit = "count",
                           .description = "null for a whole allocation (one holding several buffers live for the "
                                          "whole program)"}),
      output::Computed<R>("live_from", [](const R& b) { return f::IndexIfAny(b.live_from); },
                          {.label = "Live from", .unit = "count",
                           .description = "the heap-trace position it is live from; null: the whole program"}),
      output::Computed<R>("live_to", [](const R& b) { return f::IndexIfAny(b.live_to); },
                          {.label = "Live to", .unit = "count", .description = "as live_from"}),
      output::Field("op_name", &R::op_name,
                    {.label = "Framework op", .description = "metadata op_name", .max_width = 50}));
}

constexpr auto DescribeRecord(std::type_identity<MemoryViewerAllocation>) {
  using R = MemoryViewerAllocation;
  return output::Record(
      "MemoryViewerAllocation", output::Field("index", &R::index, {.label = "Allocation #", .unit = "count"}),
      output::Field("type", &R::type, {.label = "Type", .max_width = 12}),
      output::Field("size_bytes", &R::size_bytes, {.label = "Size (B)", .unit = "bytes"}),
      output::Field("logical_buffers", &R::logical_buffers, {.label = "Buffers", .unit = "count"}),
      output::Field("color", &R::color, {.label = "Memory space"}));
}

constexpr auto DescribeRecord(std::type_identity<MemoryViewerResult>) {
  using R = MemoryViewerResult;
  namespace f = memory_viewer_fields;
  return output::Record(
      "MemoryViewerResult", output::Constant("tool", "memory_viewer"),
      output::Field("module", &R::module, {.description = "the module shown (`jit_train_step(5)`)"}),
      output::TableField("modules", &R::modules, "XLA modules", {.description = "every module, for the selector"}),
      output::Field("has_buffer_assignment", &R::has_buffer_assignment,
                    {.description = "whether there is anything to show (`message` says why not)"}),
      output::Field("message", &R::message, {.description = "why nothing is shown, when nothing is"}),
      output::Field("memory_color", &R::memory_color, {.description = "the memory space shown"}),
      output::Field("heap_trace_index", &R::heap_trace_index,
                    {.description = "the heap simulation trace shown; -1: none (then only whole-program buffers "
                                    "count)"}),
      output::Field("heap_trace_events", &R::heap_trace_events, {.unit = "count", .description = "its length"}),
      output::Field("has_schedule", &R::has_schedule, {.description = "the module has an `HloScheduleProto`"}),
      output::Field("peak_bytes", &R::peak_bytes,
                    {.unit = "bytes", .description = "the highest point of the curve (padded)"}),
      output::Field("peak_unpadded_bytes", &R::peak_unpadded_bytes,
                    {.unit = "bytes", .description = "the unpadded size at that point"}),
      output::Field("peak_position", &R::peak_position,
                    {.description = "heap-trace event index of the peak; -1 without a trace"}),
      output::Field("peak_instruction", &R::peak_instruction, {.description = "the instruction of the peak's event"}),
      output::Field("whole_program_bytes", &R::whole_program_bytes,
                    {.unit = "bytes",
                     .description = "bytes added to every point (parameters, outputs, constants not in the trace)"}),
      output::Field("parameter_bytes", &R::parameter_bytes, {.unit = "bytes", .description = f::kByType}),
      output::Field("output_bytes", &R::output_bytes, {.unit = "bytes", .description = f::kByType}),
      output::Field("constant_bytes", &R::constant_bytes, {.unit = "bytes", .description = f::kByType}),
      output::Field("temporary_bytes", &R::temporary_bytes, {.unit = "bytes", .description = f::kByType}),
      output::Field("thread_local_bytes", &R::thread_local_bytes, {.unit = "bytes", .description = f::kByType}),
      output::Field("total_allocation_bytes", &R::total_allocation_bytes,
                    {.unit = "bytes", .description = "every allocation"}),
      output::Field("timeline_downsampled", &R::timeline_downsampled,
                    {.description = "the timeline has more than 2000 points: each point shown is the largest of its "
                                    "span, so the peak is kept"}),
      output::TableField("peak_buffers", &R::peak_buffers, "Buffers live at the peak",
                         {.description = "largest first"}),
      output::TableField("timeline", &R::timeline, "Heap size over program order"),
      output::TableField("allocations", &R::allocations, "Buffer allocations"),
      output::Field("diagnostics", &R::diagnostics,
                    {.description = "what was skipped in the buffer assignment and why"}));
}

std::string FormatResultText(const MemoryViewerResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeMemoryViewerTool();

}  // namespace stepscope::analysis
