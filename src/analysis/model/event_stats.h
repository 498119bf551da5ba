// EventStats: the stats of one event that the model uses, read in one pass over the
// event's stats (metadata stats merged; the event's own stats win).
//
// A PlaneStatReader maps each stat-metadata index of a plane to the role it plays once,
// so reading an event costs one table lookup per stat, not one name comparison.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis {

// Reset() clears only what Read() relies on: numeric values are meaningful only when
// their has_* flag is set (root_level, producer/consumer types and is_eager are reset).
struct EventStats {
  void Reset() {
    has_group_id = has_root = has_step_num = has_iter_num = has_correlation_id = has_producer = has_consumer = false;
    is_eager = is_input_pipeline_stage = has_external_id = has_program_id = false;
    root_level = producer_type = consumer_type = 0;
    step_name = tf_op = hlo_op = hlo_module = annotation = kernel_details = memcpy_details = shape = equation = {};
  }

  bool has_group_id = false;
  int64_t group_id = 0;
  bool has_root = false;   // carries `_r`
  int64_t root_level = 0;  // `_r` value (see RootLevel in step_marker_rules.h)
  bool has_step_num = false;
  int64_t step_num = 0;
  bool has_iter_num = false;
  int64_t iter_num = 0;
  std::string_view step_name;
  bool has_correlation_id = false;
  uint64_t correlation_id = 0;
  bool has_producer = false;  // (_pt, _p)
  int64_t producer_type = 0;
  uint64_t producer_id = 0;
  bool has_consumer = false;  // (_ct, _c)
  int64_t consumer_type = 0;
  uint64_t consumer_id = 0;
  bool is_eager = false;
  bool is_input_pipeline_stage = false;  // has `_ipl_stage_name`
  // Has Kineto's `External id` (`external id` in 2021 traces): the importer keeps it on
  // PyTorch record-function scopes (cpu_op, user_annotation) and runtime calls.
  bool has_external_id = false;
  // String stats, and for tf_op/hlo_op/kernel_details a stable integer id of the value
  // within the plane (same value -> same id), used to cache per-value work.
  std::string_view tf_op;
  uint64_t tf_op_key = 0;
  std::string_view hlo_op;
  uint64_t hlo_op_key = 0;
  std::string_view hlo_module;  // XLA kernels: the module (program) name
  bool has_program_id = false;  // and its id (program_id)
  int64_t program_id = 0;
  std::string_view annotation;
  std::string_view kernel_details;
  uint64_t kernel_details_key = 0;
  std::string_view memcpy_details;  // memcpy_details, memset or memalloc details
  uint64_t memcpy_details_key = 0;  // the value's id in its plane (see kernel_details_key)
  std::string_view shape;
  std::string_view equation;
};

class PlaneStatReader {
 public:
  explicit PlaneStatReader(const xspace::ColumnarPlane& plane);

  // Fills `out` (reset first) from the event's stats and its metadata's stats.
  void Read(uint32_t event, EventStats* out) const;
  // True when the event has no stats of its own and its metadata has none (then Read
  // would leave `out` in its reset state).
  bool HasNoStats(uint32_t event) const {
    const xspace::ColumnarEventMetadata& metadata = plane_.event_metadata[plane_.event_metadata_index[event]];
    return plane_.event_stats_begin[event] == plane_.event_stats_begin[event + 1] &&
           metadata.stats_begin == metadata.stats_end;
  }
  // True when any stat of this plane carries a group_id (TF already grouped the file).
  bool has_group_id_stat() const { return has_group_id_stat_; }

 private:
  void Apply(const xspace::ColumnarStat& stat, EventStats* out) const;

  const xspace::ColumnarPlane& plane_;
  std::vector<uint8_t> role_;  // by dense stat-metadata index
  bool has_group_id_stat_ = false;
};

}  // namespace stepscope::analysis
