// Everything about one event, for the trace viewer's details pane.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/trace/trace_index.h"
#include "stepscope/status.h"

namespace stepscope::analysis::trace {

struct DetailStat {
  enum class Kind : uint8_t { kInt, kUint, kDouble, kString, kBytes };
  std::string name;
  Kind kind = Kind::kString;
  int64_t int_value = 0;
  uint64_t uint_value = 0;
  double double_value = 0;
  std::string string_value;  // strings and refs; "<N bytes>" for bytes
  bool from_metadata = false;  // a stat of the event's metadata (shared by all its events)
};

struct EventDetails {
  uint32_t track = 0;
  uint32_t event = 0;
  uint32_t depth = 0;
  std::string name;       // as the viewer shows it (display name, else name)
  std::string long_name;  // the full name when a display name is shown instead
  int64_t start_ps = 0;   // trace time
  int64_t duration_ps = 0;
  // Metadata stats first, then the event's own, in file order (as TensorFlow's viewer).
  std::vector<DetailStat> stats;
  std::optional<uint64_t> correlation_id;  // links a kernel launch and its kernel
  std::vector<uint64_t> flow_ids;          // ids of `flow` stats (XFlow), direction removed
};

// kNotFound when `track` does not exist or `event` is not one of its timeline events.
StatusOr<EventDetails> GetEventDetails(const TraceIndex& index, uint32_t track, uint32_t event);

// Unpacked XFlow stat value: bits 0-1 direction (1 in, 2 out, 3 both), bits 2-57 id,
// bits 58-63 category (xspace.md "Flow encoding").
struct XFlowValue {
  uint64_t id = 0;
  int direction = 0;
  int category = 0;
};
XFlowValue DecodeXFlow(uint64_t value);

}  // namespace stepscope::analysis::trace
