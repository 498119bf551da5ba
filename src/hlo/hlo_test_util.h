// Building xla.HloProto messages in tests (reader, cost model, tools): a few lines per
// instruction instead of a page of setters, and parsing one back. Test-only (GoogleTest).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include <gtest/gtest.h>

#include "proto/stepscope/hlo.pb.h"
#include "src/hlo/hlo_programs.h"
#include "src/hlo/hlo_reader.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"

namespace stepscope::hlo::testing {

namespace xp = ::stepscope::xla_hlo;

inline xp::ShapeProto ArrayShape(int32_t element_type, std::initializer_list<int64_t> dimensions) {
  xp::ShapeProto shape;
  shape.set_element_type(static_cast<xp::PrimitiveType>(element_type));
  for (int64_t d : dimensions) shape.add_dimensions(d);
  for (int64_t i = static_cast<int64_t>(dimensions.size()) - 1; i >= 0; --i) shape.mutable_layout()->add_minor_to_major(i);
  return shape;
}

inline xp::ShapeProto TupleShape(std::initializer_list<xp::ShapeProto> elements) {
  xp::ShapeProto shape;
  shape.set_element_type(xp::TUPLE);
  for (const xp::ShapeProto& element : elements) *shape.add_tuple_shapes() = element;
  return shape;
}

// Appends an instruction to `computation`; the last one added becomes its root.
inline xp::HloInstructionProto* AddInstruction(xp::HloComputationProto* computation, int64_t id, std::string_view name,
                                               std::string_view opcode, const xp::ShapeProto& shape,
                                               std::initializer_list<int64_t> operand_ids = {}) {
  xp::HloInstructionProto* instruction = computation->add_instructions();
  instruction->set_id(id);
  instruction->set_name(std::string(name));
  instruction->set_opcode(std::string(opcode));
  *instruction->mutable_shape() = shape;
  for (int64_t operand : operand_ids) instruction->add_operand_ids(operand);
  computation->set_root_id(id);
  return instruction;
}

inline xp::HloComputationProto* AddComputation(xp::HloProto* proto, int64_t id, std::string_view name) {
  xp::HloComputationProto* computation = proto->mutable_hlo_module()->add_computations();
  computation->set_id(id);
  computation->set_name(std::string(name));
  return computation;
}

// `proto` through the reader, as a profile's bytes would go; a failure fails the test
// (and gives an empty module, so the test goes on to report what else is wrong).
inline HloModule ParseModule(const xp::HloProto& proto) {
  StatusOr<HloModule> module = ParseHloProto(proto.SerializeAsString());
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  return module.ok() ? std::move(module).value() : HloModule{};
}

// A profile of one host event and one program on /host:metadata (XLA's layout: the
// serialized HloProto as a stat of the program's event metadata, named "name(id)").
inline xspace::XSpace ProfileWithProgram(std::string_view program, std::string hlo_bytes) {
  xspace::XSpace space;
  xspace::XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  host.GetOrCreateLine(1).AddEvent(*host.GetOrCreateEventMetadata("work")).SetDurationPs(1000);
  xspace::XPlaneBuilder metadata(space.add_planes());
  metadata.SetName(xspace::kMetadataPlaneName);
  xspace::XStatsBuilder<xspace::XEventMetadata>(metadata.GetOrCreateEventMetadata(program), &metadata)
      .AddBytesStatValue(*metadata.GetOrCreateStatMetadata(kHloProtoStatName), std::move(hlo_bytes));
  return space;
}

}  // namespace stepscope::hlo::testing
