#include "src/analysis/model/event_stats.h"

#include <string_view>

namespace stepscope::analysis {
namespace {

using xspace::ColumnarPlane;
using xspace::ColumnarStat;
using xspace::StatKind;
using xspace::StatType;

enum Role : uint8_t {
  kNone = 0,
  kGroupId,
  kIsRoot,
  kStepNum,
  kIterNum,
  kStepName,
  kCorrelationId,
  kProducerType,
  kProducerId,
  kConsumerType,
  kConsumerId,
  kIsEager,
  kTfOp,
  kHloOp,
  kHloModule,
  kProgramId,
  kAnnotation,
  kKernelDetails,
  kMemcpyDetails,
  kShape,
  kEquation,
  kIplStageName,
  kExternalId,
};

Role RoleOf(StatType type, std::string_view name) {
  switch (type) {
    case StatType::kGroupId: return kGroupId;
    case StatType::kIsRoot: return kIsRoot;
    case StatType::kStepNum: return kStepNum;
    case StatType::kIterNum: return kIterNum;
    case StatType::kStepName: return kStepName;
    case StatType::kCorrelationId: return kCorrelationId;
    case StatType::kProducerType: return kProducerType;
    case StatType::kProducerId: return kProducerId;
    case StatType::kConsumerType: return kConsumerType;
    case StatType::kConsumerId: return kConsumerId;
    case StatType::kIsEager: return kIsEager;
    case StatType::kTfOp: return kTfOp;
    case StatType::kHloOp: return kHloOp;
    case StatType::kHloModule: return kHloModule;
    case StatType::kProgramId: return kProgramId;
    case StatType::kAnnotation: return kAnnotation;
    case StatType::kKernelDetails: return kKernelDetails;
    case StatType::kMemcpyDetails:
    case StatType::kMemsetDetails:
    case StatType::kMemallocDetails: return kMemcpyDetails;
    case StatType::kTensorShapes: return kShape;
    case StatType::kEquation: return kEquation;
    default: break;
  }
  if (name == "_ipl_stage_name") return kIplStageName;
  if (name == "External id" || name == "external id") return kExternalId;
  return kNone;
}

// A value id stable within the plane: refs by metadata index, strings by pool index
// (pool strings are deduplicated), tagged so the two spaces cannot collide.
uint64_t ValueKey(const ColumnarStat& stat) {
  return (stat.payload << 1) | (stat.kind == StatKind::kRef ? 1 : 0);
}

}  // namespace

PlaneStatReader::PlaneStatReader(const ColumnarPlane& plane) : plane_(plane), role_(plane.stat_metadata.size()) {
  for (size_t i = 0; i < plane.stat_metadata.size(); ++i) {
    role_[i] = RoleOf(plane.stat_metadata[i].type, plane.stat_metadata[i].name);
  }
  uint32_t group = plane.stat_index(StatType::kGroupId);
  if (group != ColumnarPlane::kNoStat) {
    // Memory events read as records took their stats out of the columns.
    for (uint32_t i : plane.memory_stat_indices) has_group_id_stat_ = has_group_id_stat_ || i == group;
    for (uint32_t i = 0, n = plane.num_stats(); i < n && !has_group_id_stat_; ++i) {
      has_group_id_stat_ = ColumnarPlane::StatMetadataOfKey(plane.stat_key[i]) == group;
    }
  }
}

void PlaneStatReader::Apply(const ColumnarStat& stat, EventStats* out) const {
  switch (role_[stat.metadata_index]) {
    case kNone: return;
    case kGroupId:
      out->has_group_id = true;
      out->group_id = ColumnarPlane::AsInt64(stat);
      return;
    case kIsRoot:
      out->has_root = true;
      out->root_level = ColumnarPlane::AsInt64(stat);
      return;
    case kStepNum:
      out->has_step_num = ColumnarPlane::IsNumeric(stat.kind);
      out->step_num = ColumnarPlane::AsInt64(stat);
      return;
    case kIterNum:
      out->has_iter_num = ColumnarPlane::IsNumeric(stat.kind);
      out->iter_num = ColumnarPlane::AsInt64(stat);
      return;
    case kStepName: out->step_name = plane_.AsString(stat); return;
    case kCorrelationId:
      out->has_correlation_id = ColumnarPlane::IsNumeric(stat.kind);
      out->correlation_id = static_cast<uint64_t>(ColumnarPlane::AsInt64(stat));
      return;
    case kProducerType: out->producer_type = ColumnarPlane::AsInt64(stat); return;
    case kProducerId:
      out->has_producer = true;
      out->producer_id = static_cast<uint64_t>(ColumnarPlane::AsInt64(stat));
      return;
    case kConsumerType: out->consumer_type = ColumnarPlane::AsInt64(stat); return;
    case kConsumerId:
      out->has_consumer = true;
      out->consumer_id = static_cast<uint64_t>(ColumnarPlane::AsInt64(stat));
      return;
    case kIsEager: out->is_eager = ColumnarPlane::AsInt64(stat) != 0; return;
    case kTfOp:
      out->tf_op = plane_.AsString(stat);
      out->tf_op_key = ValueKey(stat);
      return;
    case kHloOp:
      out->hlo_op = plane_.AsString(stat);
      out->hlo_op_key = ValueKey(stat);
      return;
    case kHloModule: out->hlo_module = plane_.AsString(stat); return;
    case kProgramId:
      out->has_program_id = ColumnarPlane::IsNumeric(stat.kind);
      out->program_id = ColumnarPlane::AsInt64(stat);
      return;
    case kAnnotation: out->annotation = plane_.AsString(stat); return;
    case kKernelDetails:
      out->kernel_details = plane_.AsString(stat);
      out->kernel_details_key = ValueKey(stat);
      return;
    case kMemcpyDetails:
      out->memcpy_details = plane_.AsString(stat);
      out->memcpy_details_key = ValueKey(stat);
      return;
    case kShape: out->shape = plane_.AsString(stat); return;
    case kEquation: out->equation = plane_.AsString(stat); return;
    case kIplStageName: out->is_input_pipeline_stage = true; return;
    case kExternalId: out->has_external_id = true; return;
    default: return;
  }
}

void PlaneStatReader::Read(uint32_t event, EventStats* out) const {
  out->Reset();  // not `*out = EventStats()`: that zeroed and copied 300 bytes per event
  // Metadata stats first so that the event's own stats overwrite them.
  const xspace::ColumnarEventMetadata& metadata = plane_.event_metadata[plane_.event_metadata_index[event]];
  for (uint32_t i = metadata.stats_begin; i < metadata.stats_end; ++i) Apply(plane_.other_stats[i], out);
  for (uint32_t i = plane_.event_stats_begin[event], end = plane_.event_stats_begin[event + 1]; i < end; ++i) {
    Apply(plane_.event_stat(i), out);
  }
}

}  // namespace stepscope::analysis
