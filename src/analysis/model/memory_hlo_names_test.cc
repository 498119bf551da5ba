#include "src/analysis/model/memory_hlo_names.h"

#include <gtest/gtest.h>

#include "src/hlo/hlo_test_util.h"

namespace stepscope::analysis::internal {
namespace {

namespace xp = ::stepscope::xla_hlo;
using hlo::testing::AddComputation;
using hlo::testing::AddInstruction;
using hlo::testing::ArrayShape;

// jit_step(7): parameter p (1 KiB), the output dot (2 KiB), 4 KiB of temporaries, and two
// allocations of 8 KiB, so that size names two buffers.
hlo::HloPrograms Programs() {
  xp::HloProto proto;
  proto.mutable_hlo_module()->set_name("jit_step");
  proto.mutable_hlo_module()->set_id(7);
  xp::HloComputationProto* entry = AddComputation(&proto, 1, "main");
  AddInstruction(entry, 10, "p", "parameter", ArrayShape(11, {256}));
  AddInstruction(entry, 11, "dot", "dot", ArrayShape(11, {512}), {10});
  proto.mutable_hlo_module()->set_entry_computation_id(1);
  xp::BufferAssignmentProto* assignment = proto.mutable_buffer_assignment();
  xp::LogicalBufferProto* out = assignment->add_logical_buffers();
  out->set_id(1);
  out->set_size(2048);
  out->mutable_defined_at()->set_instruction_id(11);
  auto add = [&](int64_t index, int64_t size) {
    xp::BufferAllocationProto* a = assignment->add_buffer_allocations();
    a->set_index(index);
    a->set_size(size);
    return a;
  };
  xp::BufferAllocationProto* parameter = add(0, 1024);
  parameter->set_is_entry_computation_parameter(true);
  parameter->set_parameter_number(0);
  xp::BufferAllocationProto* output = add(1, 2048);
  output->set_maybe_live_out(true);
  output->add_assigned()->set_logical_buffer_id(1);
  add(2, 4096);
  add(3, 8192);
  add(4, 8192)->set_is_constant(true);
  add(5, 96)->set_is_thread_local(true);
  hlo::HloPrograms programs;
  programs.modules.push_back(hlo::testing::ParseModule(proto));
  return programs;
}

MemoryEvent Allocation(int64_t requested, uint32_t op = 0) {
  MemoryEvent e;
  e.requested_bytes = requested;
  e.allocation_bytes = requested + 256;  // the allocator rounds up: the request is the buffer
  e.op_name = op;
  return e;
}

TEST(MemoryHloNamesTest, NamesUnnamedAllocationsByTheirBuffer) {
  MemoryEvents memory;
  memory.names = {"", "named_op"};
  memory.allocators.push_back({"GPU_0_bfc", 0,
                               MemoryEventArray(std::vector<MemoryEvent>{
                                   Allocation(1024), Allocation(2048), Allocation(4096), Allocation(8192),
                                   Allocation(4096, 1), Allocation(96), Allocation(5000)})});
  EXPECT_EQ(NameAllocationsFromBufferAssignment(Programs(), &memory), 4);
  const MemoryEventArray& e = memory.allocators[0].events;
  auto name = [&](size_t i) { return memory.names[e[i].op_name]; };
  EXPECT_EQ(name(0), "XLA parameter 0 of jit_step(7), allocation 0");
  EXPECT_EQ(name(1), "XLA output of jit_step(7) (dot), allocation 1");
  EXPECT_EQ(name(2), "XLA temporaries of jit_step(7), allocation 2");
  EXPECT_EQ(name(3), "XLA temporaries of jit_step(7), allocation 3 or XLA constant of jit_step(7), allocation 4");
  EXPECT_EQ(name(4), "named_op") << "a recorded op name is kept";
  EXPECT_EQ(name(5), "") << "thread-local allocations are not allocator memory";
  EXPECT_EQ(name(6), "") << "no buffer of that size: no guess";
}

TEST(MemoryHloNamesTest, TooManyBuffersOfOneSizeNameNothing) {
  xp::HloProto proto;
  proto.mutable_hlo_module()->set_name("m");
  xp::BufferAssignmentProto* assignment = proto.mutable_buffer_assignment();
  for (int i = 0; i <= kMaxBufferCandidates; ++i) {
    xp::BufferAllocationProto* a = assignment->add_buffer_allocations();
    a->set_index(i);
    a->set_size(512);
  }
  hlo::HloPrograms programs;
  programs.modules.push_back(hlo::testing::ParseModule(proto));
  MemoryEvents memory;
  memory.names = {""};
  memory.allocators.push_back({"GPU_0_bfc", 0, MemoryEventArray(std::vector<MemoryEvent>{Allocation(512)})});
  EXPECT_EQ(NameAllocationsFromBufferAssignment(programs, &memory), 0);
  EXPECT_EQ(memory.allocators[0].events[0].op_name, 0u);
}

}  // namespace
}  // namespace stepscope::analysis::internal
