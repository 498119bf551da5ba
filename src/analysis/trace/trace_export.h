// Export of the whole trace as Chrome trace-event JSON (chrome://tracing, about:tracing)
// or Perfetto-flavoured JSON (ui.perfetto.dev), for people who prefer those viewers.
//
//   {"displayTimeUnit":"ns","metadata":{...},"traceEvents":[
//     {"ph":"M","pid":1,"name":"process_name","args":{"name":"/device:GPU:0"}}, ...
//     {"ph":"X","pid":1,"tid":7,"ts":1234.567891,"dur":3.2,"name":"...","args":{...}}, ...]}
//
// One process per section (pid = section position + 1), one thread per track (tid = the
// line id when it is unique in the section and fits in 32 bits, else the position + 1),
// with process/thread name and sort-index metadata so both viewers keep our order. Times
// are microseconds with every picosecond digit kept (trailing zeros dropped). Event args
// are the metadata stats then the event stats; integers beyond 2^53 are written as
// strings (JavaScript viewers would round them). Launch -> kernel links (correlation_id)
// and XFlow stats become flows: Chrome's "s"/"f" flow events, or Perfetto's flow v2
// fields (bind_id + flow_out / flow_in) on the events themselves.
//
// Streaming: events are written in pieces to a sink as they are produced, track by track
// in time order, so memory stays flat whatever the trace size.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "src/analysis/trace/trace_index.h"
#include "stepscope/status.h"

namespace stepscope::analysis::trace {

enum class ExportFormat : uint8_t { kChrome, kPerfetto };

// Receives consecutive pieces of the output; returns false to stop (e.g. a download
// cancelled), which ends the export with kCancelled-like kUnavailable.
using ByteSink = std::function<bool(std::string_view)>;

// Bytes buffered before each sink call: large enough that sink calls are rare, small
// against the trace.
inline constexpr size_t kExportChunkBytes = 1 << 20;

struct ExportStats {
  uint64_t events = 0;  // "X" events written
  uint64_t flow_events = 0;
  uint64_t bytes = 0;
};

StatusOr<ExportStats> ExportTraceJson(const TraceIndex& index, ExportFormat format, const ByteSink& sink);

// "chrome" / "perfetto" -> format; kInvalidArgument otherwise.
StatusOr<ExportFormat> ParseExportFormat(std::string_view name);

// "1234.567891": microseconds with the picosecond digits, trailing zeros dropped.
void AppendMicrosFromPs(int64_t ps, std::string* out);

}  // namespace stepscope::analysis::trace
