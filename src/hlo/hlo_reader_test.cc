#include "src/hlo/hlo_reader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "src/base/memory_budget.h"
#include "src/hlo/hlo_programs.h"
#include "src/hlo/hlo_test_util.h"
#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/columnar/xspace_to_columnar.h"
#include "src/xspace/xplane_builder.h"

namespace stepscope::hlo {
namespace {

using testing::AddComputation;
using testing::AddInstruction;
using testing::ArrayShape;
using testing::TupleShape;
namespace xp = ::stepscope::xla_hlo;

// entry: p0 = f32[8,16] parameter; p1 = f32[16,4] parameter; dot = dot(p0, p1);
// fusion = fusion(dot) calling fused_add { fp = parameter; add = add(fp, fp) }.
xp::HloProto SmallModule() {
  xp::HloProto proto;
  proto.mutable_hlo_module()->set_name("jit_small");
  proto.mutable_hlo_module()->set_id(7);
  xp::HloComputationProto* fused = AddComputation(&proto, 2, "fused_add");
  fused->set_is_fusion_computation(true);
  AddInstruction(fused, 20, "fp", "parameter", ArrayShape(kF32, {8, 4}));
  AddInstruction(fused, 21, "add", "add", ArrayShape(kF32, {8, 4}), {20, 20});
  xp::HloComputationProto* entry = AddComputation(&proto, 1, "main");
  AddInstruction(entry, 10, "p0", "parameter", ArrayShape(kF32, {8, 16}));
  AddInstruction(entry, 11, "p1", "parameter", ArrayShape(kF32, {16, 4}))->set_parameter_number(1);
  xp::HloInstructionProto* dot = AddInstruction(entry, 12, "dot.1", "dot", ArrayShape(kF32, {8, 4}), {10, 11});
  dot->mutable_dot_dimension_numbers()->add_lhs_contracting_dimensions(1);
  dot->mutable_dot_dimension_numbers()->add_rhs_contracting_dimensions(0);
  dot->mutable_metadata()->set_op_name("jit(small)/dot_general");
  dot->mutable_metadata()->set_source_file("model.py");
  dot->mutable_metadata()->set_source_line(42);
  xp::HloInstructionProto* fusion = AddInstruction(entry, 13, "fusion.2", "fusion", ArrayShape(kF32, {8, 4}), {12});
  fusion->set_fusion_kind("kLoop");
  fusion->add_called_computation_ids(2);
  proto.mutable_hlo_module()->set_entry_computation_id(1);
  auto& sequence = (*proto.mutable_hlo_module()->mutable_schedule()->mutable_sequences())[1];
  for (int64_t id : {10, 11, 12, 13}) sequence.add_instruction_ids(id);
  return proto;
}

std::string Serialize(const xp::HloProto& proto) {
  std::string bytes;
  EXPECT_TRUE(proto.SerializeToString(&bytes));
  return bytes;
}

TEST(HloReaderTest, ReadsModuleComputationsInstructionsAndResolvesReferences) {
  StatusOr<HloModule> read = ParseHloProto(Serialize(SmallModule()));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  const HloModule& m = *read;
  EXPECT_EQ(m.name, "jit_small");
  EXPECT_EQ(m.id, 7);
  EXPECT_EQ(m.DisplayName(), "jit_small(7)");
  ASSERT_EQ(m.computations.size(), 2u);
  ASSERT_EQ(m.instructions.size(), 6u);
  EXPECT_TRUE(m.diagnostics.empty()) << m.diagnostics[0];
  ASSERT_GE(m.entry, 0);
  EXPECT_EQ(m.computations[static_cast<size_t>(m.entry)].name, "main");

  const int32_t dot = m.FindInstruction("dot.1");
  ASSERT_GE(dot, 0);
  const Instruction& d = m.instructions[static_cast<size_t>(dot)];
  EXPECT_EQ(d.opcode, "dot");
  EXPECT_EQ(d.shape.ToString(), "f32[8,4]{1,0}");
  EXPECT_EQ(d.shape.element_count, 32);
  EXPECT_EQ(d.shape.byte_size, 128);
  EXPECT_EQ(d.metadata.source_file, "model.py");
  EXPECT_EQ(d.metadata.source_line, 42);
  ASSERT_EQ(d.operands.size(), 2u);
  EXPECT_EQ(m.instructions[static_cast<size_t>(d.operands[0])].name, "p0");
  EXPECT_EQ(m.instructions[static_cast<size_t>(d.operands[1])].name, "p1");
  EXPECT_EQ(d.dot.lhs_contracting, std::vector<int64_t>{1});
  ASSERT_EQ(d.users.size(), 1u);
  EXPECT_EQ(m.instructions[static_cast<size_t>(d.users[0])].name, "fusion.2");
  EXPECT_EQ(m.FindInstructionById(12), dot);

  const Instruction& fusion = m.instructions[static_cast<size_t>(m.FindInstruction("fusion.2"))];
  ASSERT_EQ(fusion.called_computations.size(), 1u);
  const Computation& body = m.computations[static_cast<size_t>(fusion.called_computations[0])];
  EXPECT_EQ(body.name, "fused_add");
  EXPECT_TRUE(body.is_fusion);
  ASSERT_GE(body.root, 0);
  EXPECT_EQ(m.instructions[static_cast<size_t>(body.root)].name, "add");
  EXPECT_EQ(body.callers, std::vector<int32_t>{m.FindInstruction("fusion.2")});
  // Callees before callers.
  ASSERT_EQ(m.computation_order.size(), 2u);
  EXPECT_EQ(m.computations[static_cast<size_t>(m.computation_order[0])].name, "fused_add");

  ASSERT_EQ(m.schedule.size(), 1u);
  EXPECT_EQ(m.schedule[0].computation, m.entry);
  ASSERT_EQ(m.schedule[0].instructions.size(), 4u);
  EXPECT_EQ(m.schedule[0].instructions[2], dot);
  EXPECT_FALSE(m.buffer_assignment.has_value());
}

TEST(HloReaderTest, ReadsBufferAssignment) {
  xp::HloProto proto = SmallModule();
  xp::BufferAssignmentProto* assignment = proto.mutable_buffer_assignment();
  xp::LogicalBufferProto* buffer = assignment->add_logical_buffers();
  buffer->set_id(3);
  buffer->set_size(128);
  buffer->mutable_defined_at()->set_instruction_id(12);
  xp::BufferAllocationProto* allocation = assignment->add_buffer_allocations();
  allocation->set_index(0);
  allocation->set_size(256);
  allocation->set_maybe_live_out(true);
  auto* assigned = allocation->add_assigned();
  assigned->set_logical_buffer_id(3);
  assigned->set_offset(64);
  assigned->set_size(128);
  xp::HeapSimulatorTrace* trace = assignment->add_heap_simulator_traces();
  auto* alloc = trace->add_events();
  alloc->set_kind(xp::HeapSimulatorTrace::Event::ALLOC);
  alloc->set_buffer_id(3);
  alloc->set_instruction_name("dot.1");
  auto* free = trace->add_events();
  free->set_kind(xp::HeapSimulatorTrace::Event::FREE);
  free->set_buffer_id(3);

  StatusOr<HloModule> read = ParseHloProto(Serialize(proto));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_TRUE(read->buffer_assignment.has_value());
  const BufferAssignment& b = *read->buffer_assignment;
  ASSERT_EQ(b.logical_buffers.size(), 1u);
  EXPECT_EQ(b.logical_buffers[0].instruction, read->FindInstruction("dot.1"));
  EXPECT_EQ(b.FindLogicalBuffer(3), 0);
  EXPECT_EQ(b.FindLogicalBuffer(4), -1);
  ASSERT_EQ(b.allocations.size(), 1u);
  EXPECT_TRUE(b.allocations[0].maybe_live_out);
  ASSERT_EQ(b.allocations[0].assigned.size(), 1u);
  EXPECT_EQ(b.allocations[0].assigned[0].offset, 64);
  ASSERT_EQ(b.heap_traces.size(), 1u);
  ASSERT_EQ(b.heap_traces[0].events.size(), 2u);
  EXPECT_EQ(b.heap_traces[0].events[0].kind, HeapEvent::Kind::kAlloc);
  EXPECT_EQ(b.heap_traces[0].events[1].kind, HeapEvent::Kind::kFree);
}

// Appends one field (number, wire type 2, `payload`) to serialized bytes.
std::string WithUnknownField(std::string bytes, int field, std::string_view payload) {
  bytes += static_cast<char>(field << 3 | 2);  // field < 16: one-byte tag
  bytes += static_cast<char>(payload.size());  // payload < 128
  bytes += payload;
  return bytes;
}

TEST(HloReaderTest, SkipsFieldsItDoesNotKnow) {
  xp::HloProto proto = SmallModule();
  // A field number our schema leaves out (HloModuleProto.input_output_alias = 8), inside
  // the module, and an unknown top-level field (HloProto 15).
  std::string module_bytes;
  ASSERT_TRUE(proto.hlo_module().SerializeToString(&module_bytes));
  module_bytes = WithUnknownField(module_bytes, 8, "\x0a\x02\x08\x01");
  std::string bytes;
  bytes += '\x0a';
  std::string length;
  for (uint64_t n = module_bytes.size(); ; n >>= 7) {
    length += static_cast<char>((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    if (n < 0x80) break;
  }
  bytes += length + module_bytes;
  bytes = WithUnknownField(bytes, 15, "anything");
  StatusOr<HloModule> read = ParseHloProto(bytes);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->instructions.size(), 6u);
}

TEST(HloReaderTest, TruncatedBytesGiveAnErrorNeverACrash) {
  const std::string bytes = Serialize(SmallModule());
  int errors = 0;
  for (size_t n = 1; n < bytes.size(); ++n) {
    StatusOr<HloModule> read = ParseHloProto(std::string_view(bytes).substr(0, n));
    if (!read.ok()) {
      ++errors;
      EXPECT_EQ(read.status().message().find('\n'), std::string::npos);
    }
  }
  EXPECT_GT(errors, 0);
  StatusOr<HloModule> cut = ParseHloProto(std::string_view(bytes).substr(0, bytes.size() - 1));
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.status().message().find("truncated"), std::string::npos) << cut.status().message();
  EXPECT_FALSE(ParseHloProto("").ok());
  EXPECT_FALSE(ParseHloProto("\xff\xff\xff").ok());
}

TEST(HloReaderTest, CyclicComputationCallsAreDroppedWithADiagnostic) {
  xp::HloProto proto;
  proto.mutable_hlo_module()->set_name("cyclic");
  xp::HloComputationProto* a = AddComputation(&proto, 1, "a");
  AddInstruction(a, 10, "call_b", "call", ArrayShape(kF32, {}))->add_called_computation_ids(2);
  xp::HloComputationProto* b = AddComputation(&proto, 2, "b");
  AddInstruction(b, 20, "call_a", "call", ArrayShape(kF32, {}))->add_called_computation_ids(1);
  xp::HloComputationProto* c = AddComputation(&proto, 3, "c");
  AddInstruction(c, 30, "call_self", "fusion", ArrayShape(kF32, {}))->add_called_computation_ids(3);
  proto.mutable_hlo_module()->set_entry_computation_id(1);
  StatusOr<HloModule> read = ParseHloProto(Serialize(proto));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  const HloModule& m = *read;
  ASSERT_EQ(m.diagnostics.size(), 1u);
  EXPECT_EQ(m.diagnostics[0], "2 computation calls would form a cycle (dropped)");
  EXPECT_EQ(m.computation_order.size(), 3u);
  // What remains is acyclic: a -> b kept, b -> a and c -> c dropped.
  EXPECT_EQ(m.instructions[static_cast<size_t>(m.FindInstruction("call_b"))].called_computations.size(), 1u);
  EXPECT_TRUE(m.instructions[static_cast<size_t>(m.FindInstruction("call_a"))].called_computations.empty());
  EXPECT_TRUE(m.instructions[static_cast<size_t>(m.FindInstruction("call_self"))].called_computations.empty());
}

TEST(HloReaderTest, DanglingIdsAreDroppedAndReported) {
  xp::HloProto proto;
  xp::HloComputationProto* entry = AddComputation(&proto, 1, "main");
  AddInstruction(entry, 10, "x", "negate", ArrayShape(kF32, {4}), {99})->add_called_computation_ids(77);
  proto.mutable_hlo_module()->set_entry_computation_id(5);
  StatusOr<HloModule> read = ParseHloProto(Serialize(proto));
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(read->instructions[0].operands.empty());
  EXPECT_EQ(read->instructions[0].operand_ids, std::vector<int64_t>{99});
  EXPECT_EQ(read->entry, -1);
  const std::string all = [&] {
    std::string s;
    for (const std::string& d : read->diagnostics) s += d + "\n";
    return s;
  }();
  EXPECT_NE(all.find("1 operand ids name no instruction"), std::string::npos) << all;
  EXPECT_NE(all.find("1 called computation ids name no computation"), std::string::npos) << all;
  EXPECT_NE(all.find("entry computation (id 5)"), std::string::npos) << all;
}

TEST(HloReaderTest, HugeShapesSaturateInsteadOfOverflowing) {
  xp::HloProto proto;
  xp::HloComputationProto* entry = AddComputation(&proto, 1, "main");
  const int64_t big = int64_t{1} << 40;
  AddInstruction(entry, 1, "huge", "parameter", ArrayShape(kF64, {big, big, big}));
  AddInstruction(entry, 2, "negative", "parameter", ArrayShape(kF32, {-5, 3}));
  AddInstruction(entry, 3, "tuple", "tuple",
                 TupleShape({ArrayShape(kF64, {big, big}), ArrayShape(kF64, {big, big}), ArrayShape(kS8, {})}));
  StatusOr<HloModule> read = ParseHloProto(Serialize(proto));
  ASSERT_TRUE(read.ok());
  const Shape& huge = read->instructions[0].shape;
  EXPECT_TRUE(huge.saturated);
  EXPECT_EQ(huge.element_count, Shape::kMaxCount);
  EXPECT_EQ(huge.byte_size, Shape::kMaxCount / 8);
  EXPECT_EQ(read->instructions[1].shape.element_count, 0);
  // Each saturated leaf counts 2^60 elements x 64 bits, saturated, / 8; plus the s8.
  EXPECT_EQ(read->instructions[2].shape.byte_size, 2 * (Shape::kMaxCount / 8) + 1);
  EXPECT_TRUE(read->instructions[2].shape.saturated);
  std::string all;
  for (const std::string& d : read->diagnostics) all += d + "\n";
  EXPECT_NE(all.find("negative dimension"), std::string::npos) << all;
  EXPECT_NE(all.find("saturated"), std::string::npos) << all;
}

TEST(HloReaderTest, LimitsRefuseDeepNestingAndTooManyMessages) {
  xp::HloProto proto = SmallModule();
  xp::ShapeProto* shape = proto.mutable_hlo_module()->mutable_computations(0)->mutable_instructions(0)->mutable_shape();
  for (int i = 0; i < 150; ++i) {
    shape->set_element_type(xp::TUPLE);
    shape = shape->add_tuple_shapes();
  }
  std::string bytes;
  ASSERT_TRUE(proto.SerializePartialToString(&bytes));
  StatusOr<HloModule> deep = ParseHloProto(bytes);
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.status().message().find("deeper"), std::string::npos) << deep.status().message();

  HloReadLimits few;
  few.max_messages = 5;
  StatusOr<HloModule> many = ParseHloProto(Serialize(SmallModule()), few);
  ASSERT_FALSE(many.ok());
  EXPECT_EQ(many.status().code(), StatusCode::kResourceExhausted);
  HloReadLimits small;
  small.max_bytes = 10;
  EXPECT_EQ(ParseHloProto(Serialize(SmallModule()), small).status().code(), StatusCode::kResourceExhausted);
}

// A module of empty instructions: 2 bytes each on the wire, ~1 KB each decoded.
std::string EmptyInstructions(int count, std::string_view name, int64_t id) {
  xp::HloProto proto;
  proto.mutable_hlo_module()->set_name(std::string(name));
  proto.mutable_hlo_module()->set_id(id);
  xp::HloComputationProto* computation = proto.mutable_hlo_module()->add_computations();
  for (int i = 0; i < count; ++i) computation->add_instructions();
  return Serialize(proto);
}

// The amplification of a crafted module is refused from its bytes, before protobuf
// allocates anything: decoded size is bounded by bytes read, not by what they ask for.
TEST(HloReaderTest, DecodedSizeIsBoundedByTheBytesRead) {
  const std::string crafted = EmptyInstructions(200'000, "crafted", 1);  // 400 KB
  StatusOr<HloModule> refused = ParseHloProto(crafted);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(refused.status().message().find("would decode to"), std::string::npos) << refused.status().message();
  // Real modules stay well under the rule; their estimate is what they hold.
  StatusOr<HloModule> small = ParseHloProto(Serialize(SmallModule()));
  ASSERT_TRUE(small.ok());
  EXPECT_GT(small->memory_bytes, 0);
  EXPECT_LE(small->memory_bytes, DecodedBytesAllowed({}, small->serialized_bytes));
}

// A module of `count` named instructions (names of 22 bytes): ~40 decoded bytes per byte,
// under the linear rule.
std::string NamedInstructions(int count, std::string_view name, int64_t id) {
  xp::HloProto proto;
  proto.mutable_hlo_module()->set_name(std::string(name));
  proto.mutable_hlo_module()->set_id(id);
  xp::HloComputationProto* computation = proto.mutable_hlo_module()->add_computations();
  char text[32];
  for (int i = 0; i < count; ++i) {
    std::snprintf(text, sizeof(text), "instruction_name_%05d", i);
    computation->add_instructions()->set_name(text);
  }
  return Serialize(proto);
}

// The budget is per file: two programs that each fit alone do not fit together (the
// limit was per program, so two such programs held twice the memory).
TEST(HloProgramsTest, ProgramsOfOneFileShareOneBudget) {
  const std::string one = NamedInstructions(30'000, "m", 1);
  StatusOr<HloModule> alone = ParseHloProto(one);
  ASSERT_TRUE(alone.ok()) << alone.status().ToString();
  // Half of this budget holds one such program, not two.
  const uint64_t budget = static_cast<uint64_t>(alone->memory_bytes) * 3;
  base::SetMemoryBudgetBytes(budget);
  xspace::XSpace space;
  xspace::XPlaneBuilder builder(space.add_planes());
  builder.SetName(xspace::kMetadataPlaneName);
  const xspace::XStatMetadata& hlo_stat = *builder.GetOrCreateStatMetadata(kHloProtoStatName);
  for (int id : {1, 2}) {
    xspace::XStatsBuilder<xspace::XEventMetadata>(builder.GetOrCreateEventMetadata("m(" + std::to_string(id) + ")"),
                                                  &builder)
        .AddBytesStatValue(hlo_stat, NamedInstructions(30'000, "m", id));
  }
  StatusOr<xspace::ColumnarXSpace> columnar = xspace::XSpaceMessageToColumnar(space);
  ASSERT_TRUE(columnar.ok()) << columnar.status().ToString();
  HloPrograms programs = ReadHloPrograms(*columnar);
  base::SetMemoryBudgetBytes(base::DefaultMemoryBudgetBytes());
  EXPECT_EQ(programs.modules.size(), 1u);
  ASSERT_FALSE(programs.diagnostics.empty());
  EXPECT_NE(programs.diagnostics[0].find("may still use"), std::string::npos) << programs.diagnostics[0];
}

TEST(HloProgramsTest, FindsModulesOnTheMetadataPlaneAndReportsBadOnes) {
  xspace::XSpace space;
  xspace::XPlane* plane = space.add_planes();
  xspace::XPlaneBuilder builder(plane);
  builder.SetName(xspace::kMetadataPlaneName);
  const xspace::XStatMetadata& hlo_stat = *builder.GetOrCreateStatMetadata(kHloProtoStatName);
  xspace::XEventMetadata* good = builder.GetOrCreateEventMetadata("jit_small(7)");
  xspace::XStatsBuilder<xspace::XEventMetadata>(good, &builder).AddBytesStatValue(hlo_stat, Serialize(SmallModule()));
  xspace::XEventMetadata* bad = builder.GetOrCreateEventMetadata("jit_bad(8)");
  xspace::XStatsBuilder<xspace::XEventMetadata>(bad, &builder).AddBytesStatValue(hlo_stat, "\x0a\x40garbage");
  StatusOr<xspace::ColumnarXSpace> columnar = xspace::XSpaceMessageToColumnar(space);
  ASSERT_TRUE(columnar.ok()) << columnar.status().ToString();
  HloPrograms programs = ReadHloPrograms(*columnar);
  ASSERT_EQ(programs.modules.size(), 1u);
  EXPECT_EQ(programs.modules[0].DisplayName(), "jit_small(7)");
  ASSERT_EQ(programs.diagnostics.size(), 1u);
  EXPECT_EQ(programs.diagnostics[0], "HLO of 'jit_bad(8)' not read: HLO proto is truncated or not an xla.HloProto");
  EXPECT_EQ(programs.Find("jit_small", 7), 0);
  EXPECT_EQ(programs.Find("jit_small"), 0);
  EXPECT_EQ(programs.Find("", 7), 0);
  EXPECT_EQ(programs.Find("jit_small", 8), 0);  // unknown id: the name still identifies it
  EXPECT_EQ(programs.Find("other"), -1);
}

// ---- real JAX profiles ----------------------------------------------------------------
// The expected numbers come from walking the file's raw protobuf here, independently of
// the columnar reader and of ParseHloProto: XSpace.planes(1) -> XPlane.name(2) /
// event_metadata(4: map entry, value 2) -> XEventMetadata.name(2) / stats(5) ->
// XStat.bytes_value(6) -> HloProto.hlo_module(1) -> HloModuleProto.computations(3) ->
// HloComputationProto.instructions(2).

struct RawField {
  int number;
  int wire_type;
  uint64_t varint;
  std::string_view bytes;
};

std::vector<RawField> RawFields(std::string_view data) {
  std::vector<RawField> fields;
  size_t i = 0;
  auto varint = [&](uint64_t* v) {
    *v = 0;
    for (int shift = 0; i < data.size() && shift < 64; shift += 7) {
      const auto byte = static_cast<uint8_t>(data[i++]);
      *v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (byte < 0x80) return true;
    }
    return false;
  };
  while (i < data.size()) {
    uint64_t key = 0;
    if (!varint(&key)) break;
    RawField field{static_cast<int>(key >> 3), static_cast<int>(key & 7), 0, {}};
    if (field.wire_type == 0) {
      varint(&field.varint);
    } else if (field.wire_type == 2) {
      uint64_t n = 0;
      varint(&n);
      field.bytes = data.substr(i, n);
      i += n;
    } else {
      i += field.wire_type == 1 ? 8 : 4;
    }
    fields.push_back(field);
  }
  return fields;
}

std::string_view FirstBytes(std::string_view message, int number) {
  for (const RawField& f : RawFields(message)) {
    if (f.number == number && f.wire_type == 2) return f.bytes;
  }
  return {};
}

// Module display name -> instruction count, from the raw bytes.
std::map<std::string, int64_t> RawModuleInstructionCounts(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string data = buffer.str();
  std::map<std::string, int64_t> counts;
  for (const RawField& plane : RawFields(data)) {
    if (plane.number != 1 || FirstBytes(plane.bytes, 2) != "/host:metadata") continue;
    int64_t hlo_stat_id = -1;
    for (const RawField& f : RawFields(plane.bytes)) {
      if (f.number != 5) continue;
      std::string_view metadata = FirstBytes(f.bytes, 2);
      if (FirstBytes(metadata, 2) != "Hlo Proto") continue;
      for (const RawField& g : RawFields(metadata)) {
        if (g.number == 1 && g.wire_type == 0) hlo_stat_id = static_cast<int64_t>(g.varint);
      }
    }
    for (const RawField& f : RawFields(plane.bytes)) {
      if (f.number != 4) continue;
      std::string_view metadata = FirstBytes(f.bytes, 2);
      for (const RawField& stat : RawFields(metadata)) {
        if (stat.number != 5) continue;
        int64_t id = -1;
        std::string_view value;
        for (const RawField& s : RawFields(stat.bytes)) {
          if (s.number == 1) id = static_cast<int64_t>(s.varint);
          if (s.number == 6) value = s.bytes;
        }
        if (id != hlo_stat_id || value.empty()) continue;
        std::string_view module = FirstBytes(value, 1);
        int64_t instructions = 0, module_id = 0;
        for (const RawField& m : RawFields(module)) {
          if (m.number == 5 && m.wire_type == 0) module_id = static_cast<int64_t>(m.varint);
          if (m.number != 3) continue;
          for (const RawField& c : RawFields(m.bytes)) instructions += c.number == 2 ? 1 : 0;
        }
        counts[std::string(FirstBytes(module, 1)) + "(" + std::to_string(module_id) + ")"] = instructions;
      }
    }
  }
  return counts;
}

TEST(HloProgramsTest, RealJaxFilesMatchARawWalkOfTheirBytes) {
  for (const char* name :
       {"tracelens_jax_mi300_conv_minimal_8gpu.xplane.pb", "tracelens_jax_mi300_te_fused_attn.xplane.pb"}) {
    SCOPED_TRACE(name);
    const std::string path = std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane/" + name;
    const std::map<std::string, int64_t> expected = RawModuleInstructionCounts(path);
    ASSERT_FALSE(expected.empty());
    StatusOr<xspace::ColumnarXSpace> space = xspace::ReadColumnarXSpaceFile(path);
    ASSERT_TRUE(space.ok()) << space.status().ToString();
    HloPrograms programs = ReadHloPrograms(*space);
    EXPECT_TRUE(programs.diagnostics.empty()) << programs.diagnostics[0];
    std::map<std::string, int64_t> read;
    for (const HloModule& module : programs.modules) {
      read[module.DisplayName()] = static_cast<int64_t>(module.instructions.size());
      // Every operand and call resolves in XLA's own output, and buffers are assigned.
      for (const Instruction& instruction : module.instructions) {
        EXPECT_EQ(instruction.operands.size(), instruction.operand_ids.size()) << instruction.name;
      }
      EXPECT_GE(module.entry, 0);
      EXPECT_TRUE(module.buffer_assignment.has_value());
    }
    EXPECT_EQ(read, expected);
  }
}

}  // namespace
}  // namespace stepscope::hlo
