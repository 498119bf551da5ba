// HloModule: one XLA-compiled program as stepscope's tools read it.
//
// Built by ParseHloProto (hlo_reader.h) from the bytes of one `Hlo Proto` stat. Plain
// values, no protobuf types: the tools (hlo_stats, op_profile, roofline_model,
// memory_viewer, graph_viewer) and the cost model (hlo_cost.h) see only this.
//
// References between instructions and computations are resolved once, at reading, into
// indices (`int32_t`, -1 = none) into HloModule::instructions / computations. Whatever a
// hostile or newer file says, every index stored here is valid, and:
//   - the computation call graph (Instruction::called_computations) has no cycle: calls
//     that would close one are dropped (HloModule::diagnostics says which), so walking
//     callees always ends. computation_order lists callees before callers;
//   - shape sizes are saturated (Shape::kMaxCount), never overflowed.
// Raw ids from the file are kept next to the indices for display.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stepscope::hlo {

// xla.PrimitiveType values (proto/stepscope/hlo.proto lists them).
enum ElementType : int32_t {
  kInvalidType = 0,
  kPred = 1,
  kS8 = 2,
  kS16 = 3,
  kS32 = 4,
  kS64 = 5,
  kU8 = 6,
  kU16 = 7,
  kU32 = 8,
  kU64 = 9,
  kF16 = 10,
  kF32 = 11,
  kF64 = 12,
  kTuple = 13,
  kOpaque = 14,
  kC64 = 15,
  kBF16 = 16,
  kToken = 17,
  kC128 = 18,
};
// Bits of one element (F32: 32, PRED: 8 as XLA stores it, S4: 4); 0 for tuple, token,
// opaque and values this build does not know.
int ElementBits(int32_t element_type);
// XLA's lower-case name ("f32", "bf16", "pred"); "type<N>" for unknown values.
std::string ElementTypeName(int32_t element_type);
// Floating point or complex (the types FLOPs are counted for; integer ops count too, but
// the roofline's compute roof is the floating-point one).
bool IsFloatingPoint(int32_t element_type);

struct Shape {
  // Element counts and byte sizes saturate here (2^60): a hostile dimension list cannot
  // overflow a product, and no real buffer comes near it.
  static constexpr int64_t kMaxCount = int64_t{1} << 60;

  int32_t element_type = kInvalidType;
  std::vector<int64_t> dimensions;  // dimension 0 first; negative sizes read as 0
  std::vector<Shape> tuple_shapes;  // for tuples
  std::vector<int64_t> minor_to_major;  // the layout; empty when the file gives none
  // Computed at reading: elements of an array (1 for a scalar, 0 for tuple/token), bytes
  // of an array or the sum over a tuple's leaves (no index table). Saturated.
  int64_t element_count = 0;
  int64_t byte_size = 0;
  // True when a dimension product or a byte size saturated.
  bool saturated = false;

  bool is_tuple() const { return element_type == kTuple; }
  bool is_array() const { return ElementBits(element_type) > 0; }
  int64_t rank() const { return static_cast<int64_t>(dimensions.size()); }
  // Dimension i, or 1 when out of range (so hostile dimension numbers never index past).
  int64_t dim(int64_t i) const { return i >= 0 && i < rank() ? dimensions[static_cast<size_t>(i)] : 1; }
  // HLO text form: "f32[8,128]{1,0}", "(f32[2], s32[])", "token[]".
  std::string ToString() const;
};

struct OpMetadata {
  std::string op_type;  // "dot_general"
  std::string op_name;  // "jit(train)/jvp()/dot_general"
  std::string source_file;
  int32_t source_line = 0;
  std::string deduplicated_name;
};

struct DotDimensionNumbers {
  std::vector<int64_t> lhs_contracting;
  std::vector<int64_t> rhs_contracting;
  std::vector<int64_t> lhs_batch;
  std::vector<int64_t> rhs_batch;
};

struct WindowDimension {
  int64_t size = 1;
  int64_t stride = 1;
  int64_t padding_low = 0;
  int64_t padding_high = 0;
  int64_t window_dilation = 1;
  int64_t base_dilation = 1;
  bool window_reversal = false;
};

struct ConvolutionDimensionNumbers {
  int64_t input_batch = 0;
  int64_t input_feature = 0;
  std::vector<int64_t> input_spatial;
  int64_t kernel_input_feature = 0;
  int64_t kernel_output_feature = 0;
  std::vector<int64_t> kernel_spatial;
  int64_t output_batch = 0;
  int64_t output_feature = 0;
  std::vector<int64_t> output_spatial;
};

struct Instruction {
  int64_t id = 0;
  std::string name;    // unique in the module; kernels name it in their `hlo_op` stat
  std::string opcode;  // "fusion", "dot", "convolution", "add", "custom-call", ...
  Shape shape;
  OpMetadata metadata;
  std::string fusion_kind;  // "kLoop", "kInput", "kOutput", "kCustom" (fusions only)
  std::string custom_call_target;
  // Backend-specific settings; on GPUs a JSON text (a cuBLAS/hipBLASLt gemm custom call
  // keeps its dot dimension numbers here).
  std::string backend_config;
  std::vector<int64_t> dimensions;  // reduce / broadcast / transpose dimensions
  int64_t parameter_number = 0;
  int64_t tuple_index = 0;
  DotDimensionNumbers dot;
  std::vector<WindowDimension> window;
  ConvolutionDimensionNumbers convolution;
  int64_t feature_group_count = 1;  // 0 in the file reads as 1
  int64_t batch_group_count = 1;

  // As in the file (ids), and resolved (indices). An id that names nothing is dropped from
  // the resolved list and reported in HloModule::diagnostics.
  std::vector<int64_t> operand_ids;
  std::vector<int64_t> called_computation_ids;
  std::vector<int32_t> operands;             // into HloModule::instructions
  std::vector<int32_t> called_computations;  // into HloModule::computations
  std::vector<int32_t> users;                // instructions that have this one as operand
  int32_t computation = -1;                  // the computation holding this instruction
};

struct Computation {
  int64_t id = 0;
  std::string name;
  bool is_fusion = false;  // a fusion body (the file's flag, or called by a fusion)
  std::vector<int32_t> instructions;  // into HloModule::instructions, in file order
  int32_t root = -1;                  // the root instruction; -1 when the file names none
  std::vector<int32_t> callers;       // instructions that call this computation
};

// ---- buffer assignment (present when XLA was asked to keep it; JAX profiles have it) ----

struct LogicalBuffer {
  int64_t id = 0;
  int64_t size_bytes = 0;
  int64_t color = 0;  // memory space
  int64_t instruction_id = 0;    // defining instruction, as in the file
  std::string instruction_name;  // older files name it instead of giving the id
  std::vector<int64_t> shape_index;
  int32_t instruction = -1;  // resolved (by id, else by name); -1 when neither resolves
};

struct BufferAllocation {
  struct Assigned {
    int64_t logical_buffer_id = 0;
    int64_t offset = 0;
    int64_t size_bytes = 0;
  };
  int64_t index = 0;
  int64_t size_bytes = 0;
  int64_t color = 0;
  bool is_thread_local = false;
  bool is_tuple = false;
  bool is_entry_computation_parameter = false;
  bool is_constant = false;
  bool maybe_live_out = false;
  int64_t parameter_number = 0;
  std::vector<Assigned> assigned;
};

struct HeapEvent {
  enum class Kind : uint8_t { kAlloc = 0, kFree = 1, kShareWith = 2, kUnknown = 3 };
  Kind kind = Kind::kAlloc;
  int64_t buffer_id = 0;  // LogicalBuffer::id
  std::string computation_name;
  std::string instruction_name;
  int64_t share_with_canonical_id = 0;
};

struct HeapSimulatorTrace {
  std::vector<HeapEvent> events;  // in the simulated program order
  bool whole_module_simulation = false;
  int64_t buffer_allocation_index = 0;
};

struct BufferAlias {
  int64_t source_buffer_id = 0;
  int64_t instruction_id = 0;
  std::string instruction_name;
  std::vector<int64_t> shape_index;
};

struct BufferAssignment {
  std::vector<LogicalBuffer> logical_buffers;
  std::vector<BufferAlias> aliases;
  std::vector<BufferAllocation> allocations;
  std::vector<HeapSimulatorTrace> heap_traces;
  // Index into logical_buffers of the buffer with this id, or -1.
  int32_t FindLogicalBuffer(int64_t id) const;

 private:
  friend class HloModuleBuilder;
  std::unordered_map<int64_t, int32_t> buffer_by_id_;
};

// The order XLA runs one (non-fusion) computation's instructions in.
struct ScheduleSequence {
  int64_t computation_id = 0;
  int32_t computation = -1;           // resolved; -1 when the id names no computation
  std::vector<int32_t> instructions;  // resolved ids (unknown ones dropped)
};

struct HloModule {
  std::string name;  // "jit_train_step"; kernels name it in their `hlo_module` stat
  int64_t id = 0;    // the program id kernels carry in `program_id`
  int32_t entry = -1;  // entry computation; -1 when the file names none that exists
  std::vector<Computation> computations;  // file order (callees before callers in XLA's)
  std::vector<Instruction> instructions;  // all computations', computation by computation
  // Every computation index once, callees before callers (a safe order for bottom-up
  // walks such as fusion costs).
  std::vector<int32_t> computation_order;
  std::vector<ScheduleSequence> schedule;  // empty when the file has no schedule
  std::optional<BufferAssignment> buffer_assignment;
  // Problems found while reading (unresolved ids, cycles, saturated shapes), in words.
  std::vector<std::string> diagnostics;
  int64_t serialized_bytes = 0;  // size of the HloProto it was read from
  int64_t memory_bytes = 0;      // the reader's estimate of what reading it cost (hlo_reader.h)

  // Index of the instruction with this name / id, of the computation with this id; -1.
  int32_t FindInstruction(std::string_view name) const;
  int32_t FindInstructionById(int64_t id) const;
  int32_t FindComputation(int64_t id) const;
  // "jit_train_step(5)": the module's name and id as XLA profiles print them.
  std::string DisplayName() const;

 private:
  friend class HloModuleBuilder;
  std::unordered_map<std::string, int32_t> instruction_by_name_;
  std::unordered_map<int64_t, int32_t> instruction_by_id_;
  std::unordered_map<int64_t, int32_t> computation_by_id_;
};

}  // namespace stepscope::hlo
