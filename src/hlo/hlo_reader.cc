#include "src/hlo/hlo_reader.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>

#include <algorithm>
#include <climits>
#include <mutex>
#include <unordered_map>
#include <string>
#include <utility>
#include <vector>

#include "proto/stepscope/hlo.pb.h"

namespace stepscope::hlo {

namespace pb = ::google::protobuf;
// The generated messages (proto/stepscope/hlo.proto); HloModule and friends are ours.
namespace xp = ::stepscope::xla_hlo;

// ---------------------------------------------------------------------------------------
// Pre-scan: counts the messages the bytes would decode into, before protobuf allocates
// any of them, and finds truncation with a precise message. Walks the wire format with
// the schema's descriptors: a length-delimited field is descended into only when the
// schema says it is a message; unknown fields are skipped as protobuf will skip them.
// ---------------------------------------------------------------------------------------
namespace {

class WireScanner {
 public:
  explicit WireScanner(const HloReadLimits& limits) : limits_(limits) {}

  Status Scan(std::string_view bytes) {
    const auto* begin = reinterpret_cast<const uint8_t*>(bytes.data());
    return ScanMessage(xp::HloProto::descriptor(), begin, begin + bytes.size(), 0);
  }

 private:
  static bool ReadVarint(const uint8_t** p, const uint8_t* end, uint64_t* value) {
    uint64_t result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (*p >= end) return false;
      uint8_t byte = *(*p)++;
      result |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (byte < 0x80) {
        *value = result;
        return true;
      }
    }
    return false;  // more than 10 bytes: malformed
  }

  Status Truncated() const { return DataLossError("HLO proto is truncated or not an xla.HloProto"); }

  Status ScanMessage(const pb::Descriptor* descriptor, const uint8_t* p, const uint8_t* end, int depth) {
    if (depth > limits_.max_depth) {
      return ResourceExhaustedError("HLO proto nests messages deeper than " + std::to_string(limits_.max_depth));
    }
    if (++messages_ > limits_.max_messages) {
      return ResourceExhaustedError("HLO proto has more than " + std::to_string(limits_.max_messages) +
                                    " messages (instructions, shapes, buffers); not read");
    }
    decoded_bytes_ += MessageCost(descriptor);
    while (p < end) {
      uint64_t tag = 0;
      if (!ReadVarint(&p, end, &tag) || (tag >> 3) == 0 || (tag >> 3) > INT_MAX) return Truncated();
      const int field_number = static_cast<int>(tag >> 3);
      uint64_t value = 0;
      switch (tag & 7) {
        case 0:
          if (!ReadVarint(&p, end, &value)) return Truncated();
          break;
        case 1:
          if (end - p < 8) return Truncated();
          p += 8;
          break;
        case 5:
          if (end - p < 4) return Truncated();
          p += 4;
          break;
        case 2: {
          if (!ReadVarint(&p, end, &value) || value > static_cast<uint64_t>(end - p)) return Truncated();
          const uint8_t* field_end = p + value;
          const pb::FieldDescriptor* field = descriptor ? descriptor->FindFieldByNumber(field_number) : nullptr;
          if (field != nullptr && field->type() == pb::FieldDescriptor::TYPE_MESSAGE) {
            Status status = ScanMessage(field->message_type(), p, field_end, depth + 1);
            if (!status.ok()) return status;
          } else if (field != nullptr) {
            // A string (held by the message, and copied once into HloModule), or packed
            // numbers (at most 8 bytes for each byte read).
            decoded_bytes_ += field->type() == pb::FieldDescriptor::TYPE_STRING ||
                                      field->type() == pb::FieldDescriptor::TYPE_BYTES
                                  ? 2 * (value + kStringObjectBytes)
                                  : 8 * value;
          }
          p = field_end;
          break;
        }
        default:  // groups (3, 4) are not in the schema and not written by proto3 encoders
          return Truncated();
      }
    }
    return OkStatus();
  }

  // What a message of this type costs decoded: the generated object, and what HloModule
  // makes of it (instruction, shape and buffer records) while both are held. Calibrated
  // on a module of 3.9 M empty instructions: 5x the generated object's size matches its
  // peak RSS (4.5 GB).
  static int64_t MessageCost(const pb::Descriptor* descriptor) {
    if (descriptor == nullptr) return 0;
    static std::mutex mutex;
    static std::unordered_map<const pb::Descriptor*, int64_t> costs;
    std::lock_guard<std::mutex> lock(mutex);
    auto [it, inserted] = costs.try_emplace(descriptor, 0);
    if (inserted) {
      // Map entries are not messages of their own once decoded (and their prototypes
      // cannot report a size): a node of the map.
      const pb::Message* prototype =
          descriptor->options().map_entry() ? nullptr : pb::MessageFactory::generated_factory()->GetPrototype(descriptor);
      it->second = kDecodedPerObjectByte * static_cast<int64_t>(prototype != nullptr ? prototype->SpaceUsedLong() : kMapNodeBytes);
    }
    return it->second;
  }

 public:
  int64_t decoded_bytes() const { return decoded_bytes_; }

 private:
  static constexpr int64_t kStringObjectBytes = 32;
  static constexpr int64_t kMapNodeBytes = 64;
  static constexpr int64_t kDecodedPerObjectByte = 5;
  const HloReadLimits& limits_;
  int64_t messages_ = 0;
  int64_t decoded_bytes_ = 0;
};

}  // namespace

// ---------------------------------------------------------------------------------------
// Conversion: messages -> HloModule, resolving ids into indices.
// ---------------------------------------------------------------------------------------

class HloModuleBuilder {
 public:
  explicit HloModuleBuilder(HloModule* module) : module_(*module) {}

  void Build(const xp::HloProto& proto) {
    const xp::HloModuleProto& m = proto.hlo_module();
    module_.name = m.name();
    module_.id = m.id();
    AddComputations(m);
    ResolveOperands();
    ResolveCalls();
    ResolveEntry(m);
    AddSchedule(m.schedule());
    if (proto.has_buffer_assignment()) AddBufferAssignment(proto.buffer_assignment());
    Report();
  }

 private:
  // ---- shapes ----
  Shape ConvertShape(const xp::ShapeProto& in) {
    Shape out;
    out.element_type = in.element_type();
    out.dimensions.assign(in.dimensions().begin(), in.dimensions().end());
    out.minor_to_major.assign(in.layout().minor_to_major().begin(), in.layout().minor_to_major().end());
    if (out.is_tuple()) {
      out.tuple_shapes.reserve(static_cast<size_t>(in.tuple_shapes_size()));
      for (const xp::ShapeProto& element : in.tuple_shapes()) {
        out.tuple_shapes.push_back(ConvertShape(element));
        out.saturated |= out.tuple_shapes.back().saturated;
        out.byte_size = SaturatingAdd(out.byte_size, out.tuple_shapes.back().byte_size, &out.saturated);
      }
    } else if (out.is_array()) {
      int64_t count = 1;
      for (int64_t& d : out.dimensions) {
        if (d < 0) {
          d = 0;
          ++negative_dimensions_;
        }
        count = SaturatingMultiply(count, d, &out.saturated);
      }
      out.element_count = count;
      int64_t bits = SaturatingMultiply(count, ElementBits(out.element_type), &out.saturated);
      out.byte_size = bits / 8 + (bits % 8 != 0 ? 1 : 0);
    }
    if (out.saturated) ++saturated_shapes_;
    return out;
  }

  static int64_t SaturatingMultiply(int64_t a, int64_t b, bool* saturated) {
    int64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product) || product > Shape::kMaxCount) {
      *saturated = true;
      return Shape::kMaxCount;
    }
    return product;
  }
  static int64_t SaturatingAdd(int64_t a, int64_t b, bool* saturated) {
    int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum) || sum > Shape::kMaxCount) {
      *saturated = true;
      return Shape::kMaxCount;
    }
    return sum;
  }

  // ---- instructions and computations ----
  Instruction ConvertInstruction(const xp::HloInstructionProto& in) {
    Instruction out;
    out.id = in.id();
    out.name = in.name();
    out.opcode = in.opcode();
    out.shape = ConvertShape(in.shape());
    out.metadata.op_type = in.metadata().op_type();
    out.metadata.op_name = in.metadata().op_name();
    out.metadata.source_file = in.metadata().source_file();
    out.metadata.source_line = in.metadata().source_line();
    out.metadata.deduplicated_name = in.metadata().deduplicated_name();
    out.fusion_kind = in.fusion_kind();
    out.custom_call_target = in.custom_call_target();
    out.backend_config = in.backend_config();
    out.dimensions.assign(in.dimensions().begin(), in.dimensions().end());
    out.parameter_number = in.parameter_number();
    out.tuple_index = in.tuple_index();
    const xp::DotDimensionNumbers& dot = in.dot_dimension_numbers();
    out.dot.lhs_contracting.assign(dot.lhs_contracting_dimensions().begin(), dot.lhs_contracting_dimensions().end());
    out.dot.rhs_contracting.assign(dot.rhs_contracting_dimensions().begin(), dot.rhs_contracting_dimensions().end());
    out.dot.lhs_batch.assign(dot.lhs_batch_dimensions().begin(), dot.lhs_batch_dimensions().end());
    out.dot.rhs_batch.assign(dot.rhs_batch_dimensions().begin(), dot.rhs_batch_dimensions().end());
    for (const xp::WindowDimension& w : in.window().dimensions()) {
      // 0 in the file means "not set" for stride and dilations (XLA writes 1).
      out.window.push_back({w.size(), w.stride() > 0 ? w.stride() : 1, w.padding_low(), w.padding_high(),
                            w.window_dilation() > 0 ? w.window_dilation() : 1,
                            w.base_dilation() > 0 ? w.base_dilation() : 1, w.window_reversal()});
    }
    const xp::ConvolutionDimensionNumbers& c = in.convolution_dimension_numbers();
    out.convolution.input_batch = c.input_batch_dimension();
    out.convolution.input_feature = c.input_feature_dimension();
    out.convolution.input_spatial.assign(c.input_spatial_dimensions().begin(), c.input_spatial_dimensions().end());
    out.convolution.kernel_input_feature = c.kernel_input_feature_dimension();
    out.convolution.kernel_output_feature = c.kernel_output_feature_dimension();
    out.convolution.kernel_spatial.assign(c.kernel_spatial_dimensions().begin(), c.kernel_spatial_dimensions().end());
    out.convolution.output_batch = c.output_batch_dimension();
    out.convolution.output_feature = c.output_feature_dimension();
    out.convolution.output_spatial.assign(c.output_spatial_dimensions().begin(), c.output_spatial_dimensions().end());
    out.feature_group_count = in.feature_group_count() > 0 ? in.feature_group_count() : 1;
    out.batch_group_count = in.batch_group_count() > 0 ? in.batch_group_count() : 1;
    out.operand_ids.assign(in.operand_ids().begin(), in.operand_ids().end());
    out.called_computation_ids.assign(in.called_computation_ids().begin(), in.called_computation_ids().end());
    return out;
  }

  void AddComputations(const xp::HloModuleProto& m) {
    module_.computations.reserve(static_cast<size_t>(m.computations_size()));
    local_ids_.resize(static_cast<size_t>(m.computations_size()));
    root_ids_.reserve(static_cast<size_t>(m.computations_size()));
    for (const xp::HloComputationProto& in : m.computations()) {
      const auto index = static_cast<int32_t>(module_.computations.size());
      Computation& computation = module_.computations.emplace_back();
      computation.id = in.id();
      computation.name = in.name();
      computation.is_fusion = in.is_fusion_computation();
      root_ids_.push_back(in.root_id());
      if (!module_.computation_by_id_.emplace(in.id(), index).second) ++duplicate_computation_ids_;
      for (const xp::HloInstructionProto& instruction : in.instructions()) {
        const auto i = static_cast<int32_t>(module_.instructions.size());
        module_.instructions.push_back(ConvertInstruction(instruction));
        Instruction& added = module_.instructions.back();
        added.computation = index;
        computation.instructions.push_back(i);
        if (!module_.instruction_by_name_.emplace(added.name, i).second) ++duplicate_names_;
        module_.instruction_by_id_.emplace(added.id, i);
        if (!local_ids_[static_cast<size_t>(index)].emplace(added.id, i).second) ++duplicate_instruction_ids_;
      }
    }
  }

  // An instruction id as seen from computation `c`: its own instructions first (ids are
  // module-unique in current XLA, computation-local in some older versions).
  int32_t ResolveInstruction(int32_t c, int64_t id) const {
    if (c >= 0) {
      const auto& local = local_ids_[static_cast<size_t>(c)];
      auto it = local.find(id);
      if (it != local.end()) return it->second;
    }
    return module_.FindInstructionById(id);
  }

  void ResolveOperands() {
    for (size_t i = 0; i < module_.instructions.size(); ++i) {
      Instruction& instruction = module_.instructions[i];
      for (int64_t id : instruction.operand_ids) {
        int32_t operand = ResolveInstruction(instruction.computation, id);
        if (operand < 0) {
          ++unresolved_operands_;
          continue;
        }
        instruction.operands.push_back(operand);
        module_.instructions[static_cast<size_t>(operand)].users.push_back(static_cast<int32_t>(i));
      }
    }
    for (size_t c = 0; c < module_.computations.size(); ++c) {
      module_.computations[c].root = ResolveInstruction(static_cast<int32_t>(c), root_ids_[c]);
    }
  }

  // Resolves called computation ids, then drops every call that would close a cycle in
  // the computation call graph (depth-first, iterative: a hostile chain of a million
  // computations must not overflow the stack). The post-order is computation_order.
  void ResolveCalls() {
    const size_t n = module_.computations.size();
    // Calls out of each computation: (instruction, callee).
    std::vector<std::vector<std::pair<int32_t, int32_t>>> calls(n);
    for (size_t i = 0; i < module_.instructions.size(); ++i) {
      const Instruction& instruction = module_.instructions[i];
      for (int64_t id : instruction.called_computation_ids) {
        int32_t callee = module_.FindComputation(id);
        if (callee < 0) {
          ++unresolved_calls_;
          continue;
        }
        calls[static_cast<size_t>(instruction.computation)].push_back({static_cast<int32_t>(i), callee});
      }
    }
    enum : uint8_t { kWhite, kGray, kBlack };
    std::vector<uint8_t> color(n, kWhite);
    std::vector<std::pair<int32_t, size_t>> stack;  // (computation, next call)
    module_.computation_order.reserve(n);
    for (size_t start = 0; start < n; ++start) {
      if (color[start] != kWhite) continue;
      stack.push_back({static_cast<int32_t>(start), 0});
      color[start] = kGray;
      while (!stack.empty()) {
        auto& [c, next] = stack.back();
        auto& out = calls[static_cast<size_t>(c)];
        if (next == out.size()) {
          color[static_cast<size_t>(c)] = kBlack;
          module_.computation_order.push_back(c);
          stack.pop_back();
          continue;
        }
        auto [instruction, callee] = out[next++];
        if (color[static_cast<size_t>(callee)] == kGray) {
          ++cyclic_calls_;
          continue;  // dropped: not added to the instruction's resolved calls
        }
        Instruction& caller = module_.instructions[static_cast<size_t>(instruction)];
        caller.called_computations.push_back(callee);
        Computation& called = module_.computations[static_cast<size_t>(callee)];
        called.callers.push_back(instruction);
        if (caller.opcode == "fusion") called.is_fusion = true;
        if (color[static_cast<size_t>(callee)] == kWhite) {
          color[static_cast<size_t>(callee)] = kGray;
          stack.push_back({callee, 0});
        }
      }
    }
  }

  void ResolveEntry(const xp::HloModuleProto& m) {
    module_.entry = module_.FindComputation(m.entry_computation_id());
    if (module_.entry < 0 && !m.entry_computation_name().empty()) {
      for (size_t c = 0; c < module_.computations.size(); ++c) {
        if (module_.computations[c].name == m.entry_computation_name()) {
          module_.entry = static_cast<int32_t>(c);
          break;
        }
      }
    }
    if (module_.entry < 0 && !module_.computations.empty()) {
      module_.diagnostics.push_back("the entry computation (id " + std::to_string(m.entry_computation_id()) +
                                    ") is not among the module's computations");
    }
  }

  void AddSchedule(const xp::HloScheduleProto& schedule) {
    for (const auto& [computation_id, sequence] : schedule.sequences()) {
      ScheduleSequence& out = module_.schedule.emplace_back();
      out.computation_id = computation_id;
      out.computation = module_.FindComputation(computation_id);
      out.instructions.reserve(static_cast<size_t>(sequence.instruction_ids_size()));
      for (int64_t id : sequence.instruction_ids()) {
        int32_t instruction = ResolveInstruction(out.computation, id);
        if (instruction < 0) {
          ++unresolved_schedule_ids_;
          continue;
        }
        out.instructions.push_back(instruction);
      }
    }
    // The map's order is unspecified; computation id order keeps results reproducible.
    std::sort(module_.schedule.begin(), module_.schedule.end(),
              [](const ScheduleSequence& a, const ScheduleSequence& b) { return a.computation_id < b.computation_id; });
  }

  void AddBufferAssignment(const xp::BufferAssignmentProto& in) {
    BufferAssignment& out = module_.buffer_assignment.emplace();
    out.logical_buffers.reserve(static_cast<size_t>(in.logical_buffers_size()));
    for (const xp::LogicalBufferProto& buffer : in.logical_buffers()) {
      LogicalBuffer& b = out.logical_buffers.emplace_back();
      b.id = buffer.id();
      b.size_bytes = std::max<int64_t>(0, buffer.size());
      b.color = buffer.color();
      b.instruction_id = buffer.defined_at().instruction_id();
      b.instruction_name = buffer.defined_at().instruction_name();
      b.shape_index.assign(buffer.defined_at().shape_index().begin(), buffer.defined_at().shape_index().end());
      b.instruction = b.instruction_name.empty() ? module_.FindInstructionById(b.instruction_id)
                                                 : module_.FindInstruction(b.instruction_name);
      if (b.instruction < 0) b.instruction = module_.FindInstructionById(b.instruction_id);
      if (b.instruction < 0) ++unresolved_buffer_instructions_;
      out.buffer_by_id_.emplace(b.id, static_cast<int32_t>(out.logical_buffers.size() - 1));
    }
    for (const xp::BufferAssignmentProto::BufferAlias& alias : in.buffer_aliases()) {
      out.aliases.push_back({alias.source_buffer_id(), alias.location().instruction_id(),
                             alias.location().instruction_name(),
                             {alias.location().shape_index().begin(), alias.location().shape_index().end()}});
    }
    for (const xp::BufferAllocationProto& allocation : in.buffer_allocations()) {
      BufferAllocation& a = out.allocations.emplace_back();
      a.index = allocation.index();
      a.size_bytes = std::max<int64_t>(0, allocation.size());
      a.color = allocation.color();
      a.is_thread_local = allocation.is_thread_local();
      a.is_tuple = allocation.is_tuple();
      a.is_entry_computation_parameter = allocation.is_entry_computation_parameter();
      a.is_constant = allocation.is_constant();
      a.maybe_live_out = allocation.maybe_live_out();
      a.parameter_number = allocation.parameter_number();
      for (const xp::BufferAllocationProto::Assigned& assigned : allocation.assigned()) {
        a.assigned.push_back({assigned.logical_buffer_id(), assigned.offset(), std::max<int64_t>(0, assigned.size())});
      }
    }
    for (const xp::HeapSimulatorTrace& trace : in.heap_simulator_traces()) {
      HeapSimulatorTrace& t = out.heap_traces.emplace_back();
      t.whole_module_simulation = trace.whole_module_simulation();
      t.buffer_allocation_index = trace.buffer_allocation_index();
      t.events.reserve(static_cast<size_t>(trace.events_size()));
      for (const auto& event : trace.events()) {
        HeapEvent& e = t.events.emplace_back();
        e.kind = event.kind() >= 0 && event.kind() <= 2 ? static_cast<HeapEvent::Kind>(event.kind())
                                                         : HeapEvent::Kind::kUnknown;
        e.buffer_id = event.buffer_id();
        e.computation_name = event.computation_name();
        e.instruction_name = event.instruction_name();
        e.share_with_canonical_id = event.share_with_canonical_id();
      }
    }
  }

  void Count(int64_t n, const std::string& what) {
    if (n > 0) module_.diagnostics.push_back(std::to_string(n) + " " + what);
  }
  void Report() {
    Count(duplicate_computation_ids_, "computations reuse another computation's id (the first one is used)");
    Count(duplicate_names_, "instructions reuse another instruction's name (kernels join the first one)");
    Count(duplicate_instruction_ids_, "instructions reuse an id within their computation");
    Count(unresolved_operands_, "operand ids name no instruction (dropped)");
    Count(unresolved_calls_, "called computation ids name no computation (dropped)");
    Count(cyclic_calls_, "computation calls would form a cycle (dropped)");
    Count(unresolved_schedule_ids_, "scheduled instruction ids name no instruction (dropped)");
    Count(unresolved_buffer_instructions_, "logical buffers name no defining instruction");
    Count(negative_dimensions_, "negative dimension sizes (read as 0)");
    Count(saturated_shapes_, "shapes have more than 2^60 elements or bytes (sizes saturated)");
  }

  HloModule& module_;
  std::vector<std::unordered_map<int64_t, int32_t>> local_ids_;  // per computation: id -> index
  std::vector<int64_t> root_ids_;
  int64_t duplicate_computation_ids_ = 0, duplicate_names_ = 0, duplicate_instruction_ids_ = 0;
  int64_t unresolved_operands_ = 0, unresolved_calls_ = 0, cyclic_calls_ = 0, unresolved_schedule_ids_ = 0;
  int64_t unresolved_buffer_instructions_ = 0, negative_dimensions_ = 0, saturated_shapes_ = 0;
};

int64_t DecodedBytesAllowed(const HloReadLimits& limits, int64_t serialized_bytes) {
  const int64_t linear = std::max(limits.decoded_floor_bytes,
                                  serialized_bytes > INT64_MAX / limits.decoded_bytes_per_byte
                                      ? INT64_MAX
                                      : serialized_bytes * limits.decoded_bytes_per_byte);
  return std::min(linear, limits.max_decoded_bytes);
}

StatusOr<HloModule> ParseHloProto(std::string_view bytes, const HloReadLimits& limits) {
  if (bytes.empty()) return InvalidArgumentError("HLO proto is empty");
  if (static_cast<uint64_t>(bytes.size()) > static_cast<uint64_t>(limits.max_bytes) || bytes.size() > INT_MAX) {
    return ResourceExhaustedError("HLO proto of " + std::to_string(bytes.size()) + " bytes is over the limit of " +
                                  std::to_string(limits.max_bytes) + " bytes; not read");
  }
  WireScanner scanner(limits);
  Status scanned = scanner.Scan(bytes);
  if (!scanned.ok()) return scanned;
  const int64_t allowed = DecodedBytesAllowed(limits, static_cast<int64_t>(bytes.size()));
  if (scanner.decoded_bytes() > allowed) {
    return ResourceExhaustedError("HLO proto of " + std::to_string(bytes.size()) + " bytes would decode to ~" +
                                  std::to_string(scanner.decoded_bytes() >> 20) + " MiB, over the " +
                                  std::to_string(allowed >> 20) + " MiB its file's XLA programs may still use (" +
                                  std::to_string(limits.decoded_bytes_per_byte) +
                                  " bytes per byte read, at most half of --max_memory_mb); not read");
  }
  xp::HloProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return DataLossError("HLO proto is truncated or not an xla.HloProto");
  }
  if (!proto.has_hlo_module()) return InvalidArgumentError("HLO proto holds no module");
  HloModule module;
  module.serialized_bytes = static_cast<int64_t>(bytes.size());
  module.memory_bytes = scanner.decoded_bytes();
  HloModuleBuilder(&module).Build(proto);
  return module;
}

}  // namespace stepscope::hlo
