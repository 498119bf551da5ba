#include "src/analysis/tools/memory_viewer.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "src/analysis/model/sat_math.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"

namespace stepscope::analysis {
namespace {

using hlo::BufferAllocation;
using hlo::BufferAssignment;
using hlo::HeapEvent;
using hlo::HeapSimulatorTrace;
using hlo::HloModule;
using hlo::LogicalBuffer;

// XLA's size of one tuple index-table entry (a pointer), which is all an unpadded tuple
// buffer holds: its elements are buffers of their own.
constexpr int64_t kTuplePointerBytes = 8;

std::string AllocationType(const BufferAllocation& a) {
  if (a.is_entry_computation_parameter) return "parameter";
  if (a.maybe_live_out) return "output";
  if (a.is_thread_local) return "thread-local";
  if (a.is_constant) return "constant";
  return "temporary";
}

// The allocation of the module's temporaries (what the heap trace simulates): none of
// parameter, output, thread-local or constant.
bool IsTemporaryAllocation(const BufferAllocation& a) {
  return !a.is_entry_computation_parameter && !a.maybe_live_out && !a.is_thread_local && !a.is_constant;
}

// Per-module lookups and the sizes every pass needs, built once.
class BufferIndex {
 public:
  BufferIndex(const HloModule& module, std::vector<std::string>* diagnostics)
      : module_(module), assignment_(*module.buffer_assignment) {
    const size_t n = assignment_.logical_buffers.size();
    allocation_of_.assign(n, -1);
    size_.assign(n, 0);
    unpadded_.assign(n, 0);
    buffers_in_allocation_.assign(assignment_.allocations.size(), 0);
    int64_t unknown_assigned = 0, twice = 0, no_shape = 0;
    for (size_t i = 0; i < n; ++i) {
      const LogicalBuffer& b = assignment_.logical_buffers[i];
      size_[i] = b.size_bytes;  // never negative (the reader reads those as 0)
      const hlo::Shape* shape = ShapeOf(b);
      if (shape == nullptr) {
        ++no_shape;
        unpadded_[i] = size_[i];
      } else {
        unpadded_[i] = shape->is_tuple() ? SatMul(kTuplePointerBytes, static_cast<int64_t>(shape->tuple_shapes.size()))
                                         : shape->byte_size;
      }
    }
    for (size_t a = 0; a < assignment_.allocations.size(); ++a) {
      for (const BufferAllocation::Assigned& assigned : assignment_.allocations[a].assigned) {
        const int32_t b = assignment_.FindLogicalBuffer(assigned.logical_buffer_id);
        if (b < 0) {
          ++unknown_assigned;
          continue;
        }
        if (allocation_of_[b] >= 0 && allocation_of_[b] != static_cast<int32_t>(a)) {
          ++twice;
          continue;
        }
        if (allocation_of_[b] < 0) ++buffers_in_allocation_[a];
        allocation_of_[b] = static_cast<int32_t>(a);
      }
    }
    auto note = [&](int64_t count, const std::string& what) {
      if (count > 0) diagnostics->push_back(std::to_string(count) + " " + what);
    };
    note(unknown_assigned, "allocation entries name no logical buffer (ignored)");
    note(twice, "logical buffers are assigned to more than one allocation (the first kept)");
    note(no_shape, "logical buffers name no instruction or shape index that exists (unpadded size = size)");
  }

  const LogicalBuffer& buffer(int32_t b) const { return assignment_.logical_buffers[b]; }
  int64_t size(int32_t b) const { return size_[b]; }
  int64_t unpadded(int32_t b) const { return unpadded_[b]; }
  int32_t allocation_of(int32_t b) const { return allocation_of_[b]; }
  int64_t buffers_in_allocation(int32_t a) const { return buffers_in_allocation_[a]; }

  // The shape of the value a logical buffer holds: its instruction's shape at the shape
  // index; null when either does not exist.
  const hlo::Shape* ShapeOf(const LogicalBuffer& b) const {
    if (b.instruction < 0) return nullptr;
    const hlo::Shape* shape = &module_.instructions[b.instruction].shape;
    for (int64_t i : b.shape_index) {
      if (i < 0 || i >= static_cast<int64_t>(shape->tuple_shapes.size())) return nullptr;
      shape = &shape->tuple_shapes[static_cast<size_t>(i)];
    }
    return shape;
  }

  MemoryViewerBuffer Describe(int32_t b) const {
    const LogicalBuffer& lb = buffer(b);
    MemoryViewerBuffer out;
    out.logical_buffer_id = lb.id;
    out.size_bytes = size_[b];
    out.unpadded_bytes = unpadded_[b];
    std::string name = lb.instruction >= 0 ? module_.instructions[lb.instruction].name : lb.instruction_name;
    if (name.empty()) name = "instruction " + std::to_string(lb.instruction_id);
    if (!lb.shape_index.empty()) {
      name += '{';
      for (size_t i = 0; i < lb.shape_index.size(); ++i) name += (i ? "," : "") + std::to_string(lb.shape_index[i]);
      name += '}';
    }
    out.instruction = std::move(name);
    if (lb.instruction >= 0) {
      const hlo::Instruction& instruction = module_.instructions[lb.instruction];
      out.opcode = instruction.opcode;
      out.op_name = instruction.metadata.op_name;
    }
    if (const hlo::Shape* shape = ShapeOf(lb)) out.shape = shape->ToString();
    const int32_t a = allocation_of_[b];
    if (a >= 0) {
      out.allocation_index = assignment_.allocations[a].index;
      out.allocation_type = AllocationType(assignment_.allocations[a]);
    } else {
      out.allocation_type = "unassigned";
    }
    return out;
  }

 private:
  static int64_t SatMul(int64_t a, int64_t b) {
    int64_t product;
    return __builtin_mul_overflow(a, b, &product) ? INT64_MAX : product;
  }

  const HloModule& module_;
  const BufferAssignment& assignment_;
  std::vector<int32_t> allocation_of_;  // logical buffer -> allocation index (vector index), -1
  std::vector<int64_t> size_;
  std::vector<int64_t> unpadded_;
  std::vector<int64_t> buffers_in_allocation_;
};

// Which heap trace to show: the one simulating the temporary allocation of `color`, else
// the one with the most events for buffers of that colour (XProf's rule); -1 for none.
// (XLA writes one trace per temporary allocation; GPU modules usually have one.)
int64_t ChooseHeapTrace(const BufferAssignment& a, int64_t color) {
  std::unordered_map<int64_t, const BufferAllocation*> by_index;
  for (const BufferAllocation& allocation : a.allocations) by_index.emplace(allocation.index, &allocation);
  for (size_t t = 0; t < a.heap_traces.size(); ++t) {
    // 0 is also what a trace that names no allocation reads as (proto3's default), so, as
    // XProf does, only a non-zero index identifies the allocation.
    const int64_t index = a.heap_traces[t].buffer_allocation_index;
    auto it = by_index.find(index);
    if (index == 0 || it == by_index.end()) continue;
    if (it->second->color == color && IsTemporaryAllocation(*it->second)) return static_cast<int64_t>(t);
  }
  int64_t best = -1, best_count = 0;
  for (size_t t = 0; t < a.heap_traces.size(); ++t) {
    int64_t count = 0;
    for (const HeapEvent& event : a.heap_traces[t].events) {
      const int32_t b = a.FindLogicalBuffer(event.buffer_id);
      count += b >= 0 && a.logical_buffers[b].color == color ? 1 : 0;
    }
    if (count > best_count) {
      best = static_cast<int64_t>(t);
      best_count = count;
    }
  }
  return best;
}

// Replays a heap trace: which logical buffers hold memory after each event. A buffer
// that others SHARE_WITH stays live until its last sharer is freed.
class HeapReplay {
 public:
  explicit HeapReplay(const BufferIndex& index, const BufferAssignment& assignment)
      : index_(index), assignment_(assignment) {}

  // Applies event number `position`.
  void Apply(const HeapEvent& event, int64_t position) {
    const int32_t b = assignment_.FindLogicalBuffer(event.buffer_id);
    if (b < 0) {
      ++unknown_buffer_;
      return;
    }
    seen_.insert(b);
    switch (event.kind) {
      case HeapEvent::Kind::kAlloc:
        if (refs_[b] > 0) {
          ++double_alloc_;
          return;
        }
        refs_[b] = 1;
        Live(b, position, /*new_span=*/true);
        return;
      case HeapEvent::Kind::kFree: {
        auto shared = canonical_.find(b);
        const int32_t c = shared == canonical_.end() ? b : shared->second;
        if (refs_[c] <= 0) {
          ++free_not_live_;
          return;
        }
        if (--refs_[c] == 0) Dead(c, position);
        return;
      }
      case HeapEvent::Kind::kShareWith: {
        const int32_t c = assignment_.FindLogicalBuffer(event.share_with_canonical_id);
        if (c < 0) {
          ++unknown_buffer_;
          return;
        }
        seen_.insert(c);
        canonical_[b] = c;
        if (++refs_[c] == 1) Live(c, position, /*new_span=*/false);
        return;
      }
      default:
        ++unknown_kind_;
        return;
    }
  }

  int64_t heap_bytes() const { return heap_; }
  int64_t unpadded_bytes() const { return unpadded_; }
  const std::unordered_map<int32_t, int64_t>& live() const { return live_; }  // buffer -> first position
  const std::unordered_set<int32_t>& seen() const { return seen_; }
  // Where each buffer stopped being live (absent: live to the end).
  const std::unordered_map<int32_t, int64_t>& ends() const { return ends_; }

  void AddDiagnostics(std::vector<std::string>* diagnostics) const {
    auto note = [&](int64_t count, const std::string& what) {
      if (count > 0) diagnostics->push_back("heap trace: " + std::to_string(count) + " " + what);
    };
    note(unknown_buffer_, "events name no logical buffer (skipped)");
    note(double_alloc_, "allocations of a buffer already live (skipped)");
    note(free_not_live_, "frees of a buffer not live (skipped)");
    note(unknown_kind_, "events of an unknown kind (skipped)");
  }

 private:
  void Live(int32_t b, int64_t position, bool new_span) {
    AddTo(heap_, index_.size(b));
    AddTo(unpadded_, index_.unpadded(b));
    auto [it, inserted] = live_.emplace(b, position);
    if (new_span) {
      it->second = position;
      ends_.erase(b);
    }
  }
  void Dead(int32_t b, int64_t position) {
    heap_ = SatAdd(heap_, -index_.size(b));
    unpadded_ = SatAdd(unpadded_, -index_.unpadded(b));
    live_.erase(b);
    ends_[b] = position;
  }

  const BufferIndex& index_;
  const BufferAssignment& assignment_;
  int64_t heap_ = 0;
  int64_t unpadded_ = 0;
  std::unordered_map<int32_t, int32_t> refs_;
  std::unordered_map<int32_t, int32_t> canonical_;  // sharer -> canonical buffer
  std::unordered_map<int32_t, int64_t> live_;
  std::unordered_map<int32_t, int64_t> ends_;
  std::unordered_set<int32_t> seen_;
  int64_t unknown_buffer_ = 0, double_alloc_ = 0, free_not_live_ = 0, unknown_kind_ = 0;
};

// Instruction -> its index in the schedule of its computation (-1 when unscheduled).
std::vector<int64_t> ScheduleIndex(const HloModule& module) {
  std::vector<int64_t> index(module.instructions.size(), -1);
  for (const hlo::ScheduleSequence& sequence : module.schedule) {
    for (size_t i = 0; i < sequence.instructions.size(); ++i) {
      const int32_t instruction = sequence.instructions[i];
      if (instruction >= 0 && index[instruction] < 0) index[instruction] = static_cast<int64_t>(i);
    }
  }
  return index;
}

void AddAllocationTotals(const BufferIndex& index, const BufferAssignment& a, MemoryViewerResult* r) {
  for (size_t i = 0; i < a.allocations.size(); ++i) {
    const BufferAllocation& allocation = a.allocations[i];
    const int64_t size = allocation.size_bytes;
    MemoryViewerAllocation row;
    row.index = allocation.index;
    row.size_bytes = size;
    row.type = AllocationType(allocation);
    row.logical_buffers = index.buffers_in_allocation(static_cast<int32_t>(i));
    row.color = allocation.color;
    r->allocations.push_back(row);
    AddTo(r->total_allocation_bytes, size);
    if (row.type == "parameter") AddTo(r->parameter_bytes, size);
    if (row.type == "output") AddTo(r->output_bytes, size);
    if (row.type == "thread-local") AddTo(r->thread_local_bytes, size);
    if (row.type == "constant") AddTo(r->constant_bytes, size);
    if (row.type == "temporary") AddTo(r->temporary_bytes, size);
  }
}

// Buffers the heap trace never mentions, in non-thread-local allocations of the colour:
// live for the whole program. Adds each allocation once; returns the rows to show (a
// buffer, or the allocation when it holds several).
std::vector<MemoryViewerBuffer> WholeProgramBuffers(const BufferIndex& index, const BufferAssignment& a,
                                                    const std::unordered_set<int32_t>& seen, int64_t color,
                                                    int64_t* bytes, std::vector<std::string>* diagnostics) {
  std::unordered_set<int32_t> traced_allocations;
  for (int32_t b : seen) {
    if (index.allocation_of(b) >= 0) traced_allocations.insert(index.allocation_of(b));
  }
  std::vector<MemoryViewerBuffer> rows;
  int64_t unassigned = 0;
  for (size_t i = 0; i < a.logical_buffers.size(); ++i) {
    const auto b = static_cast<int32_t>(i);
    if (seen.count(b) || a.logical_buffers[i].color != color) continue;
    const int32_t alloc = index.allocation_of(b);
    if (alloc < 0) {
      ++unassigned;
      continue;
    }
    const BufferAllocation& allocation = a.allocations[alloc];
    if (allocation.is_thread_local || !traced_allocations.insert(alloc).second) continue;
    AddTo(*bytes, allocation.size_bytes);
    if (index.buffers_in_allocation(alloc) == 1) {
      rows.push_back(index.Describe(b));
    } else {
      MemoryViewerBuffer row;
      row.instruction = "allocation " + std::to_string(allocation.index) + " (" +
                        std::to_string(index.buffers_in_allocation(alloc)) + " buffers)";
      row.size_bytes = allocation.size_bytes;
      row.unpadded_bytes = row.size_bytes;
      row.allocation_type = AllocationType(allocation);
      row.allocation_index = allocation.index;
      rows.push_back(std::move(row));
    }
  }
  if (unassigned > 0) {
    diagnostics->push_back(std::to_string(unassigned) + " logical buffers are in no allocation and not in the heap trace (not counted)");
  }
  return rows;
}

}  // namespace

MemoryViewerResult ComputeMemoryViewer(const HloModule& module, int64_t memory_color) {
  MemoryViewerResult r;
  r.module = module.DisplayName();
  r.memory_color = memory_color;
  r.has_schedule = !module.schedule.empty();
  r.has_buffer_assignment = module.buffer_assignment.has_value();
  if (!r.has_buffer_assignment) {
    r.message = "Module " + r.module +
                " has no buffer assignment in this profile, so its memory use over the program cannot be shown "
                "(the profiler stored its HLO without the buffer assignment).";
    return r;
  }
  const BufferAssignment& a = *module.buffer_assignment;
  BufferIndex index(module, &r.diagnostics);
  AddAllocationTotals(index, a, &r);

  r.heap_trace_index = ChooseHeapTrace(a, memory_color);
  const std::vector<HeapEvent> no_events;
  const std::vector<HeapEvent>& events =
      r.heap_trace_index >= 0 ? a.heap_traces[static_cast<size_t>(r.heap_trace_index)].events : no_events;
  r.heap_trace_events = static_cast<int64_t>(events.size());

  // Pass 1: the curve and the peak.
  const std::vector<int64_t> schedule_index = ScheduleIndex(module);
  HeapReplay replay(index, a);
  std::vector<MemoryViewerPoint> points;
  points.reserve(std::min(events.size(), kMemoryViewerMaxPoints * 2));
  const size_t bucket = events.size() <= kMemoryViewerMaxPoints ? 1 : (events.size() + kMemoryViewerMaxPoints - 1) / kMemoryViewerMaxPoints;
  r.timeline_downsampled = bucket > 1;
  int64_t peak_heap = -1;
  for (size_t i = 0; i < events.size(); ++i) {
    replay.Apply(events[i], static_cast<int64_t>(i));
    const int64_t heap = replay.heap_bytes();
    if (heap > peak_heap) {
      peak_heap = heap;
      r.peak_position = static_cast<int64_t>(i);
      r.peak_unpadded_bytes = replay.unpadded_bytes();
    }
    // One point per event, or per bucket of events its largest (so the peak is kept).
    if (i % bucket == 0 || heap > points.back().heap_bytes) {
      if (i % bucket != 0) points.pop_back();
      MemoryViewerPoint p;
      p.position = static_cast<int64_t>(i);
      p.heap_bytes = heap;
      p.unpadded_bytes = replay.unpadded_bytes();
      p.instruction = events[i].instruction_name;
      const int32_t instruction = module.FindInstruction(events[i].instruction_name);
      if (instruction >= 0) p.schedule_index = schedule_index[instruction];
      points.push_back(std::move(p));
    }
  }
  replay.AddDiagnostics(&r.diagnostics);

  std::vector<MemoryViewerBuffer> whole =
      WholeProgramBuffers(index, a, replay.seen(), memory_color, &r.whole_program_bytes, &r.diagnostics);
  for (MemoryViewerPoint& p : points) {
    AddTo(p.heap_bytes, r.whole_program_bytes);
    AddTo(p.unpadded_bytes, r.whole_program_bytes);
  }
  r.timeline = std::move(points);
  r.peak_bytes = SatAdd(std::max<int64_t>(peak_heap, 0), r.whole_program_bytes);
  r.peak_unpadded_bytes = SatAdd(r.peak_unpadded_bytes, r.whole_program_bytes);
  if (r.peak_position >= 0) r.peak_instruction = events[static_cast<size_t>(r.peak_position)].instruction_name;

  // Pass 2: replay to the peak for the buffers live there (cheaper than copying the live
  // set at every new peak), and on to the end for when they die.
  if (r.peak_position >= 0) {
    HeapReplay to_peak(index, a);
    for (int64_t i = 0; i <= r.peak_position; ++i) to_peak.Apply(events[static_cast<size_t>(i)], i);
    const std::unordered_map<int32_t, int64_t>& ends = replay.ends();
    for (const auto& [b, from] : to_peak.live()) {
      MemoryViewerBuffer row = index.Describe(b);
      row.live_from = from;
      auto end = ends.find(b);
      // A buffer freed before the peak and made live again by a sharer ends at its last free.
      row.live_to = end != ends.end() && end->second >= r.peak_position ? end->second
                                                                        : static_cast<int64_t>(events.size()) - 1;
      r.peak_buffers.push_back(std::move(row));
    }
  }
  for (MemoryViewerBuffer& row : whole) r.peak_buffers.push_back(std::move(row));
  std::sort(r.peak_buffers.begin(), r.peak_buffers.end(), [](const MemoryViewerBuffer& x, const MemoryViewerBuffer& y) {
    if (x.size_bytes != y.size_bytes) return x.size_bytes > y.size_bytes;
    if (x.logical_buffer_id != y.logical_buffer_id) return x.logical_buffer_id < y.logical_buffer_id;
    return x.instruction < y.instruction;
  });
  int64_t rank = 0;
  for (MemoryViewerBuffer& b : r.peak_buffers) {
    b.rank = ++rank;
    b.peak_percent =
        r.peak_bytes > 0 ? 100.0 * static_cast<double>(b.size_bytes) / static_cast<double>(r.peak_bytes) : 0.0;
  }
  if (r.heap_trace_index < 0) {
    r.diagnostics.push_back("no heap simulation trace for memory space " + std::to_string(memory_color) +
                            ": only buffers live for the whole program are shown");
  }
  return r;
}

std::string FormatResultText(const MemoryViewerResult& r, const ToolOptions& options) {
  if (!r.has_buffer_assignment) return "Memory viewer: " + r.message + "\n";
  auto bytes = [](int64_t b) {
    return output::FormatFixed(static_cast<double>(b) / (1024.0 * 1024.0), 2) + " MiB (" + std::to_string(b) + " B)";
  };
  std::vector<std::pair<std::string, std::string>> rows = {
      {"Module", r.module},
      {"Peak", bytes(r.peak_bytes) + (r.peak_position >= 0 ? " at program point " + std::to_string(r.peak_position) +
                                                                 " (" + r.peak_instruction + ")"
                                                           : std::string())},
      {"Peak unpadded", bytes(r.peak_unpadded_bytes)},
      {"Live all program", bytes(r.whole_program_bytes) + " (parameters, outputs, constants)"},
      {"Allocations", bytes(r.total_allocation_bytes) + ": parameters " + bytes(r.parameter_bytes) + ", outputs " +
                          bytes(r.output_bytes) + ", temporaries " + bytes(r.temporary_bytes)},
      {"Heap trace", r.heap_trace_index >= 0 ? std::to_string(r.heap_trace_events) + " events (trace " +
                                                   std::to_string(r.heap_trace_index) + ")"
                                             : std::string("none")}};
  std::string out = output::FormatKeyValues("Memory viewer", rows);
  std::vector<output::Table> tables = output::RecordTables(r);
  std::erase_if(tables, [](const output::Table& t) { return t.name != "peak_buffers"; });
  return out + output::FormatResultTextEnd(tables, r.diagnostics, options.text_max_rows);
}

namespace {

class MemoryViewerTool final : public DeclaredTool<MemoryViewerResult> {
 public:
  std::string_view id() const override { return "memory_viewer"; }
  std::string_view description() const override {
    return "XLA module buffers over program order (compiler's buffer assignment): the heap-size curve, the peak and "
           "the buffers live there.";
  }
  bool IsAvailable(const ProfileModel& model) const override { return HasHloModules(model); }
  std::string WhyUnavailable(const ProfileModel& model) const override { return HloUnreadableReason(model); }
  std::string_view requirement() const override { return kHloRequirement; }
  std::vector<std::string_view> option_names() const override { return {"module"}; }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions& options) const override {
    if (!IsAvailable(model)) {
      MemoryViewerResult empty;
      empty.message = std::string(kNoHloModulesMessage);
      return MakeToolResult(std::move(empty));
    }
    StatusOr<int32_t> chosen = ChooseProfileHloModule(model, options.module, /*prefer_buffer_assignment=*/true);
    if (!chosen.ok()) return chosen.status();
    MemoryViewerResult result = ComputeMemoryViewer(model.hlo->modules[*chosen]);
    result.modules = ListHloModules(*model.hlo);
    return MakeToolResult(std::move(result));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeMemoryViewerTool() { return std::make_unique<MemoryViewerTool>(); }

}  // namespace stepscope::analysis
