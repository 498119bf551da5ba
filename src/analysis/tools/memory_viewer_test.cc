#include "src/analysis/tools/memory_viewer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "proto/stepscope/hlo.pb.h"
#include "src/hlo/hlo_reader.h"
#include "src/hlo/hlo_test_util.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::analysis {
namespace {

namespace xp = ::stepscope::xla_hlo;
using hlo::testing::AddComputation;
using hlo::testing::AddInstruction;
using hlo::testing::ArrayShape;
using hlo::testing::ParseModule;
using hlo::testing::TupleShape;
using Kind = xp::HeapSimulatorTrace::Event;

constexpr int32_t kF32 = hlo::kF32;

void AddBuffer(xp::HloProto* proto, int64_t id, int64_t size, int64_t instruction_id,
               std::initializer_list<int64_t> shape_index = {}) {
  xp::LogicalBufferProto* b = proto->mutable_buffer_assignment()->add_logical_buffers();
  b->set_id(id);
  b->set_size(size);
  b->mutable_defined_at()->set_instruction_id(instruction_id);
  for (int64_t i : shape_index) b->mutable_defined_at()->add_shape_index(i);
}

xp::BufferAllocationProto* AddAllocation(xp::HloProto* proto, int64_t index, int64_t size,
                                         std::initializer_list<int64_t> buffer_ids) {
  xp::BufferAllocationProto* a = proto->mutable_buffer_assignment()->add_buffer_allocations();
  a->set_index(index);
  a->set_size(size);
  for (int64_t id : buffer_ids) a->add_assigned()->set_logical_buffer_id(id);
  return a;
}

void AddEvent(xp::HeapSimulatorTrace* trace, Kind::Kind kind, int64_t buffer, std::string_view instruction,
              int64_t share_with = 0) {
  Kind* e = trace->add_events();
  e->set_kind(kind);
  e->set_buffer_id(buffer);
  e->set_instruction_name(std::string(instruction));
  e->set_share_with_canonical_id(share_with);
}

// A module whose peak is known by construction:
//   p0 f32[256] parameter (1024 B), live all program, allocation 0
//   a  f32[512] (2048 B unpadded, 3072 B assigned: padded), b f32[1024] (4096 B),
//   c  f32[128] (512 B): temporaries of allocation 1, whose heap trace is
//      ALLOC a, ALLOC b, FREE a, ALLOC c, FREE b, FREE c
//      -> heap 3072, 7168, 4096, 4608, 512, 0: the peak is after event 1 (a and b live)
//   out f32[256] output (1024 B), allocation 2; k f32[64] constant (256 B), allocation 3;
//   t f32[32] thread-local (128 B), allocation 4: not counted.
// Peak = 7168 + 1024 + 1024 + 256 = 9472 B; unpadded 2048 + 4096 + 2304 = 8448 B.
xp::HloProto PeakModule() {
  xp::HloProto proto;
  proto.mutable_hlo_module()->set_name("jit_peak");
  proto.mutable_hlo_module()->set_id(3);
  proto.mutable_hlo_module()->set_entry_computation_id(1);
  xp::HloComputationProto* c = AddComputation(&proto, 1, "main");
  AddInstruction(c, 10, "p0", "parameter", ArrayShape(kF32, {256}));
  AddInstruction(c, 11, "a", "exponential", ArrayShape(kF32, {512}), {10})
      ->mutable_metadata()
      ->set_op_name("jit(f)/exp");
  AddInstruction(c, 12, "b", "broadcast", ArrayShape(kF32, {1024}), {11});
  AddInstruction(c, 13, "c", "reduce", ArrayShape(kF32, {128}), {12});
  AddInstruction(c, 14, "k", "constant", ArrayShape(kF32, {64}));
  AddInstruction(c, 15, "t", "add", ArrayShape(kF32, {32}), {14, 14});
  AddInstruction(c, 16, "out", "add", ArrayShape(kF32, {256}), {13, 10});
  AddBuffer(&proto, 1, 1024, 10);
  AddBuffer(&proto, 2, 3072, 11);
  AddBuffer(&proto, 3, 4096, 12);
  AddBuffer(&proto, 4, 512, 13);
  AddBuffer(&proto, 5, 1024, 16);
  AddBuffer(&proto, 6, 256, 14);
  AddBuffer(&proto, 7, 128, 15);
  AddAllocation(&proto, 0, 1024, {1})->set_is_entry_computation_parameter(true);
  AddAllocation(&proto, 1, 7168, {2, 3, 4});
  AddAllocation(&proto, 2, 1024, {5})->set_maybe_live_out(true);
  AddAllocation(&proto, 3, 256, {6})->set_is_constant(true);
  AddAllocation(&proto, 4, 128, {7})->set_is_thread_local(true);
  xp::HeapSimulatorTrace* trace = proto.mutable_buffer_assignment()->add_heap_simulator_traces();
  trace->set_buffer_allocation_index(1);
  AddEvent(trace, Kind::ALLOC, 2, "a");
  AddEvent(trace, Kind::ALLOC, 3, "b");
  AddEvent(trace, Kind::FREE, 2, "b");
  AddEvent(trace, Kind::ALLOC, 4, "c");
  AddEvent(trace, Kind::FREE, 3, "c");
  AddEvent(trace, Kind::FREE, 4, "out");
  xp::HloScheduleProto::InstructionSequence& order = (*proto.mutable_hlo_module()->mutable_schedule()->mutable_sequences())[1];
  for (int64_t id : {10, 14, 11, 12, 13, 15, 16}) order.add_instruction_ids(id);
  return proto;
}

TEST(MemoryViewerTest, PeakAndItsBuffersAsConstructed) {
  const hlo::HloModule module = ParseModule(PeakModule());
  const MemoryViewerResult r = ComputeMemoryViewer(module);
  EXPECT_TRUE(r.has_buffer_assignment);
  EXPECT_TRUE(r.diagnostics.empty()) << r.diagnostics[0];
  EXPECT_EQ(r.module, "jit_peak(3)");
  EXPECT_EQ(r.heap_trace_index, 0);
  const int64_t whole = 1024 + 1024 + 256;
  EXPECT_EQ(r.whole_program_bytes, whole);
  EXPECT_EQ(r.peak_bytes, 7168 + whole);
  EXPECT_EQ(r.peak_unpadded_bytes, 2048 + 4096 + whole);
  EXPECT_EQ(r.peak_position, 1);
  EXPECT_EQ(r.peak_instruction, "b");

  std::vector<int64_t> heap, unpadded;
  for (const MemoryViewerPoint& p : r.timeline) {
    heap.push_back(p.heap_bytes - whole);
    unpadded.push_back(p.unpadded_bytes - whole);
  }
  EXPECT_EQ(heap, (std::vector<int64_t>{3072, 7168, 4096, 4608, 512, 0}));
  EXPECT_EQ(unpadded, (std::vector<int64_t>{2048, 6144, 4096, 4608, 512, 0}));
  EXPECT_EQ(r.timeline[1].schedule_index, 3);  // b is the 4th instruction of the schedule
  EXPECT_TRUE(r.has_schedule);

  // Largest first: b, a (padded size), then the whole-program buffers; the thread-local
  // one is not live at the peak.
  ASSERT_EQ(r.peak_buffers.size(), 5u);
  std::vector<std::string> names;
  int64_t sum = 0;
  for (const MemoryViewerBuffer& b : r.peak_buffers) {
    names.push_back(b.instruction);
    sum += b.size_bytes;
  }
  EXPECT_EQ(names[0], "b");
  EXPECT_EQ(names[1], "a");
  EXPECT_EQ(std::set<std::string>(names.begin() + 2, names.begin() + 4), (std::set<std::string>{"p0", "out"}));
  EXPECT_EQ(names[4], "k");
  EXPECT_EQ(sum, r.peak_bytes);
  const MemoryViewerBuffer& a = r.peak_buffers[1];
  EXPECT_EQ(a.size_bytes, 3072);
  EXPECT_EQ(a.unpadded_bytes, 2048);
  EXPECT_EQ(a.shape, "f32[512]{0}");
  EXPECT_EQ(a.opcode, "exponential");
  EXPECT_EQ(a.op_name, "jit(f)/exp");
  EXPECT_EQ(a.allocation_type, "temporary");
  EXPECT_EQ(a.live_from, 0);
  EXPECT_EQ(a.live_to, 2);
  EXPECT_EQ(r.peak_buffers[0].live_to, 4);
  std::map<std::string, std::string> types;
  for (const MemoryViewerBuffer& b : r.peak_buffers) types[b.instruction] = b.allocation_type;
  EXPECT_EQ(types["p0"], "parameter");
  EXPECT_EQ(types["out"], "output");
  EXPECT_EQ(types["k"], "constant");

  EXPECT_EQ(r.parameter_bytes, 1024);
  EXPECT_EQ(r.output_bytes, 1024);
  EXPECT_EQ(r.constant_bytes, 256);
  EXPECT_EQ(r.thread_local_bytes, 128);
  EXPECT_EQ(r.temporary_bytes, 7168);

  // The tables carry the same numbers.
  const std::vector<output::Table> tables = output::RecordTables(r);
  std::vector<std::string> table_names;
  for (const output::Table& t : tables) table_names.push_back(t.name);
  ASSERT_EQ(table_names, (std::vector<std::string>{"modules", "peak_buffers", "timeline", "allocations"}));
  const output::Table& buffers = tables[1];
  EXPECT_EQ(std::get<int64_t>(buffers.rows[0][buffers.ColumnIndex("size_bytes")]), 4096);
  EXPECT_EQ(std::get<int64_t>(buffers.rows[0][buffers.ColumnIndex("rank")]), 1);
  EXPECT_DOUBLE_EQ(std::get<double>(buffers.rows[0][buffers.ColumnIndex("peak_percent")]), 100.0 * 4096 / r.peak_bytes);
  // A whole-program buffer has no live range: null, not -1.
  for (size_t i = 0; i < r.peak_buffers.size(); ++i) {
    const bool whole_program = r.peak_buffers[i].live_from < 0;
    EXPECT_EQ(std::holds_alternative<std::monostate>(buffers.rows[i][buffers.ColumnIndex("live_from")]), whole_program);
  }
  EXPECT_EQ(tables[2].rows.size(), 6u);
}

TEST(MemoryViewerTest, SharedBufferCountsAgainWhileASharerLives) {
  xp::HloProto proto = PeakModule();
  xp::HeapSimulatorTrace* trace = proto.mutable_buffer_assignment()->mutable_heap_simulator_traces(0);
  trace->clear_events();
  // a freed, then c reuses a's memory (SHARE_WITH): a's 3072 B count again until c is freed.
  AddEvent(trace, Kind::ALLOC, 2, "a");
  AddEvent(trace, Kind::FREE, 2, "b");
  AddEvent(trace, Kind::SHARE_WITH, 4, "c", /*share_with=*/2);
  AddEvent(trace, Kind::ALLOC, 3, "c");
  AddEvent(trace, Kind::FREE, 4, "out");
  AddEvent(trace, Kind::FREE, 3, "out");
  const MemoryViewerResult r = ComputeMemoryViewer(ParseModule(proto));
  EXPECT_TRUE(r.diagnostics.empty()) << r.diagnostics[0];
  std::vector<int64_t> heap;
  for (const MemoryViewerPoint& p : r.timeline) heap.push_back(p.heap_bytes - r.whole_program_bytes);
  EXPECT_EQ(heap, (std::vector<int64_t>{3072, 0, 3072, 7168, 4096, 0}));
  EXPECT_EQ(r.peak_position, 3);
  ASSERT_GE(r.peak_buffers.size(), 2u);
  EXPECT_EQ(r.peak_buffers[0].instruction, "b");
  EXPECT_EQ(r.peak_buffers[1].instruction, "a");  // the canonical buffer holds the memory
}

TEST(MemoryViewerTest, TupleBufferIsItsIndexTableUnpadded) {
  xp::HloProto proto = PeakModule();
  xp::HloComputationProto* c = proto.mutable_hlo_module()->mutable_computations(0);
  AddInstruction(c, 17, "tuple", "tuple", TupleShape({ArrayShape(kF32, {4}), ArrayShape(kF32, {8})}), {13, 16});
  c->set_root_id(16);
  AddBuffer(&proto, 8, 16, 17);
  AddBuffer(&proto, 9, 32, 17, {1});
  AddAllocation(&proto, 5, 48, {8, 9})->set_maybe_live_out(true);
  const MemoryViewerResult r = ComputeMemoryViewer(ParseModule(proto));
  // Two buffers in one whole-program allocation: one row for the allocation.
  auto it = std::find_if(r.peak_buffers.begin(), r.peak_buffers.end(),
                         [](const MemoryViewerBuffer& b) { return b.allocation_index == 5; });
  ASSERT_NE(it, r.peak_buffers.end());
  EXPECT_EQ(it->size_bytes, 48);
  EXPECT_EQ(it->instruction, "allocation 5 (2 buffers)");
  EXPECT_EQ(r.whole_program_bytes, 1024 + 1024 + 256 + 48);
}

TEST(MemoryViewerTest, ModuleWithoutBufferAssignmentSaysSo) {
  xp::HloProto proto = PeakModule();
  proto.clear_buffer_assignment();
  const MemoryViewerResult r = ComputeMemoryViewer(ParseModule(proto));
  EXPECT_FALSE(r.has_buffer_assignment);
  EXPECT_NE(r.message.find("no buffer assignment"), std::string::npos) << r.message;
  EXPECT_TRUE(r.timeline.empty());
  EXPECT_TRUE(r.peak_buffers.empty());
  EXPECT_NE(FormatResultText(r, {}).find("no buffer assignment"), std::string::npos);
}

TEST(MemoryViewerTest, HostileAssignmentGivesDiagnosticsNotACrash) {
  xp::HloProto proto = PeakModule();
  xp::BufferAssignmentProto* a = proto.mutable_buffer_assignment();
  a->mutable_buffer_allocations(1)->add_assigned()->set_logical_buffer_id(999);  // names nothing
  AddBuffer(&proto, 20, INT64_MAX / 2 + 10, 12);                               // huge
  AddBuffer(&proto, 21, INT64_MAX / 2 + 10, 9999, {7, 3});                     // huge, no instruction
  AddBuffer(&proto, 22, -5, 11);                                               // negative: read as 0
  AddAllocation(&proto, 6, 0, {20, 21, 22});
  xp::HeapSimulatorTrace* trace = a->mutable_heap_simulator_traces(0);
  AddEvent(trace, Kind::ALLOC, 12345, "x");  // unknown buffer
  AddEvent(trace, Kind::FREE, 2, "x");       // already freed
  AddEvent(trace, Kind::ALLOC, 20, "x");
  AddEvent(trace, Kind::ALLOC, 21, "x");  // sum saturates
  AddEvent(trace, Kind::ALLOC, 21, "x");  // already live
  AddEvent(trace, Kind::ALLOC, 22, "x");
  AddEvent(trace, Kind::SHARE_WITH, 4, "x", /*share_with=*/777);  // unknown canonical
  Kind* odd = trace->add_events();
  odd->set_kind(static_cast<Kind::Kind>(9));
  odd->set_buffer_id(3);
  const MemoryViewerResult r = ComputeMemoryViewer(ParseModule(proto));
  EXPECT_EQ(r.peak_bytes, INT64_MAX);
  std::string all;
  for (const std::string& d : r.diagnostics) all += d + "\n";
  for (const char* expected : {"allocation entries name no logical buffer", "no instruction or shape index",
                               "events name no logical buffer", "frees of a buffer not live", "already live",
                               "unknown kind"}) {
    EXPECT_NE(all.find(expected), std::string::npos) << expected << " not in:\n" << all;
  }
  // Every table still renders.
  EXPECT_FALSE(FormatResultText(r, {}).empty());
}

TEST(MemoryViewerTest, LongTraceIsDownsampledWithThePeakKept) {
  xp::HloProto proto = PeakModule();
  xp::HeapSimulatorTrace* trace = proto.mutable_buffer_assignment()->mutable_heap_simulator_traces(0);
  trace->clear_events();
  // 3000 alloc/free pairs of a; b allocated once in the middle: the peak is a + b there.
  for (int i = 0; i < 3000; ++i) {
    AddEvent(trace, Kind::ALLOC, 2, "a");
    if (i == 1700) AddEvent(trace, Kind::ALLOC, 3, "b");
    if (i == 1701) AddEvent(trace, Kind::FREE, 3, "b");
    AddEvent(trace, Kind::FREE, 2, "a");
  }
  const MemoryViewerResult r = ComputeMemoryViewer(ParseModule(proto));
  EXPECT_TRUE(r.timeline_downsampled);
  EXPECT_LE(r.timeline.size(), kMemoryViewerMaxPoints);
  EXPECT_EQ(r.peak_bytes - r.whole_program_bytes, 3072 + 4096);
  EXPECT_EQ(r.peak_position, 2 * 1700 + 1);
  const auto max = std::max_element(r.timeline.begin(), r.timeline.end(), [](const auto& x, const auto& y) {
    return x.heap_bytes < y.heap_bytes;
  });
  EXPECT_EQ(max->heap_bytes, r.peak_bytes);
}

// ---- real JAX profiles --------------------------------------------------------------
// Expected numbers from the protobuf decoder (XSpace, then xla.HloProto through the
// generated classes), not the columnar reader or ParseHloProto, and a plain replay of the
// temporary allocation's heap trace written here.

struct RawPeak {
  int64_t peak = 0;            // heap trace peak + whole-program allocations
  int64_t largest_at_peak = 0;  // the largest buffer live at the heap-trace peak
  bool has_assignment = false;
};

RawPeak RawPeakOf(const xp::HloProto& proto) {
  RawPeak out;
  out.has_assignment = proto.has_buffer_assignment();
  const xp::BufferAssignmentProto& a = proto.buffer_assignment();
  std::map<int64_t, int64_t> size;
  for (const auto& b : a.logical_buffers()) size[b.id()] = b.size();
  std::map<int64_t, const xp::BufferAllocationProto*> allocation_of;
  std::map<int64_t, const xp::BufferAllocationProto*> by_index;
  for (const auto& allocation : a.buffer_allocations()) {
    by_index[allocation.index()] = &allocation;
    for (const auto& assigned : allocation.assigned()) allocation_of[assigned.logical_buffer_id()] = &allocation;
  }
  // The temporary allocation's trace (a non-zero index), else the one with the most events.
  const xp::HeapSimulatorTrace* trace = nullptr;
  for (const auto& t : a.heap_simulator_traces()) {
    auto it = by_index.find(t.buffer_allocation_index());
    if (t.buffer_allocation_index() == 0 || it == by_index.end()) continue;
    const auto* alloc = it->second;
    if (!alloc->is_entry_computation_parameter() && !alloc->maybe_live_out() && !alloc->is_thread_local() &&
        !alloc->is_constant() && alloc->color() == 0) {
      trace = &t;
      break;
    }
  }
  for (const auto& t : a.heap_simulator_traces()) {
    if (trace == nullptr || (trace->buffer_allocation_index() == 0 && t.events_size() > trace->events_size())) {
      if (t.events_size() > 0) trace = &t;
    }
  }
  std::set<int64_t> seen;
  int64_t heap = 0, peak = 0;
  std::map<int64_t, int> refs;
  std::map<int64_t, int64_t> canonical;
  std::set<int64_t> live, live_at_peak;
  if (trace != nullptr) {
    for (const auto& e : trace->events()) {
      seen.insert(e.buffer_id());
      int64_t id = e.buffer_id();
      if (e.kind() == Kind::ALLOC) {
        refs[id] = 1;
        heap += size[id];
        live.insert(id);
      } else if (e.kind() == Kind::FREE) {
        if (canonical.count(id)) id = canonical[id];
        if (--refs[id] == 0) {
          heap -= size[id];
          live.erase(id);
        }
      } else {
        seen.insert(e.share_with_canonical_id());
        canonical[id] = e.share_with_canonical_id();
        if (++refs[canonical[id]] == 1) {
          heap += size[canonical[id]];
          live.insert(canonical[id]);
        }
      }
      if (heap > peak) {
        peak = heap;
        live_at_peak = live;
      }
    }
  }
  std::set<const xp::BufferAllocationProto*> counted;
  for (int64_t id : seen) counted.insert(allocation_of[id]);
  for (const auto& b : a.logical_buffers()) {
    if (seen.count(b.id()) || b.color() != 0) continue;
    const auto* alloc = allocation_of[b.id()];
    if (alloc == nullptr || alloc->is_thread_local() || !counted.insert(alloc).second) continue;
    peak += alloc->size();
  }
  out.peak = peak;
  for (int64_t id : live_at_peak) out.largest_at_peak = std::max(out.largest_at_peak, size[id]);
  return out;
}

// Module display name -> its HloProto, through the protobuf decoder.
std::map<std::string, xp::HloProto> RawModules(const std::string& path) {
  std::map<std::string, xp::HloProto> modules;
  StatusOr<xspace::XSpace> space = xspace::ReadXSpaceFile(path);
  EXPECT_TRUE(space.ok()) << space.status().ToString();
  if (!space.ok()) return modules;
  for (const auto& plane : space->planes()) {
    if (plane.name() != "/host:metadata") continue;
    int64_t stat_id = -1;
    for (const auto& [id, metadata] : plane.stat_metadata()) {
      if (metadata.name() == "Hlo Proto") stat_id = id;
    }
    for (const auto& [id, metadata] : plane.event_metadata()) {
      for (const auto& stat : metadata.stats()) {
        if (static_cast<int64_t>(stat.metadata_id()) != stat_id) continue;
        xp::HloProto proto;
        EXPECT_TRUE(proto.ParseFromString(stat.bytes_value()));
        modules[proto.hlo_module().name() + "(" + std::to_string(proto.hlo_module().id()) + ")"] = proto;
      }
    }
  }
  return modules;
}

TEST(MemoryViewerTest, RealJaxModulesMatchAPlainReplayOfTheirProtos) {
  for (const char* name :
       {"tracelens_jax_mi300_conv_minimal_8gpu.xplane.pb", "tracelens_jax_mi300_te_fused_attn.xplane.pb"}) {
    SCOPED_TRACE(name);
    const std::string path = std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane/" + name;
    const std::map<std::string, xp::HloProto> modules = RawModules(path);
    ASSERT_FALSE(modules.empty());
    int with_peak = 0;
    for (const auto& [display, proto] : modules) {
      SCOPED_TRACE(display);
      const RawPeak expected = RawPeakOf(proto);
      ASSERT_TRUE(expected.has_assignment);
      const MemoryViewerResult r = ComputeMemoryViewer(ParseModule(proto));
      EXPECT_EQ(r.module, display);
      // XLA's own assignment has nothing to skip; small modules have no heap trace.
      for (const std::string& d : r.diagnostics) EXPECT_EQ(d.find("no heap simulation trace"), 0u) << d;
      EXPECT_EQ(r.peak_bytes, expected.peak);
      if (r.peak_position >= 0) {
        ++with_peak;
        int64_t largest_traced = 0;
        for (const MemoryViewerBuffer& b : r.peak_buffers) {
          if (b.live_from >= 0) largest_traced = std::max(largest_traced, b.size_bytes);
        }
        EXPECT_EQ(largest_traced, expected.largest_at_peak);
      }
    }
    EXPECT_GT(with_peak, 0);
  }
}

}  // namespace
}  // namespace stepscope::analysis
