// The trace-JSON tokenizer: streams `{"traceEvents": [...], ...}` or a bare `[...]` from a
// ByteSource and hands each event-array element to a TraceJsonSink as a RawTraceEvent.
//
// How (never a DOM of the file): the input is read through a window of a few MB. Each
// window is cut just after an element's closing brace, framed as a little document of its
// own ('[' before it, ']' after it), indexed by simdjson's stage 1 (SIMD structural index,
// UTF-8 check) and walked element by element (structural_walk.h); an element the window
// cut short is parsed again at the start of the next window. Top-level members other than the event array are scanned by a small scalar
// scanner and handed over as JSON text. Memory use is the window (grown only for a single
// element larger than it) plus simdjson's index of one window.
//
// Quirks tolerated and counted in TraceJsonReadResult: trailing `{}` and other non-object
// elements (left to the sink), a trailing comma before ']', bytes that are not UTF-8
// (replaced with '?'), odd escapes (kept verbatim by the sinks' unescaping), NaN/Infinity
// tokens, an unclosed top-level object after a complete event array.
//
// Errors: a file that is not JSON at all, or JSON that is malformed in the middle, is
// kDataLoss / kInvalidArgument naming the byte offset. A file cut off inside the event
// array is kDataLoss ("truncated ... after N events") unless `allow_truncated`, in which
// case the events before the cut are delivered and `truncated` is set.
#pragma once

#include <cstdint>
#include <string>

#include "src/importers/byte_source.h"
#include "src/importers/json/raw_trace_event.h"
#include "stepscope/status.h"

namespace stepscope::importers {

struct TraceJsonReadOptions {
  // Bytes per window. Tests use tiny windows to exercise every cut position.
  size_t window_bytes = 256 << 10;  // ImportOptions::window_bytes says why
  // The largest single event (or top-level value kept for the sink) accepted. Windows
  // (this plus window_bytes) must stay below 4 GiB: a JsonToken holds a 32-bit size.
  size_t max_element_bytes = 256 << 20;
  // Deliver what precedes a cut instead of failing.
  bool allow_truncated = false;
  // Read and tokenize on a thread of its own while the sink works on the caller's thread
  // (the elements arrive in the same order either way).
  bool tokenize_on_own_thread = false;
};

struct TraceJsonReadResult {
  uint64_t elements = 0;            // elements of the event array seen (objects or not)
  uint64_t json_bytes = 0;          // bytes of JSON text read (after inflation)
  bool found_event_array = false;
  bool truncated = false;
  std::string truncation;           // what was cut, for the warning
  uint64_t invalid_utf8_bytes = 0;  // replaced with '?'
  uint64_t trailing_commas = 0;
  uint64_t skipped_top_level_values = 0;  // too large to hand to the sink
  bool unclosed_top_level = false;  // the object around a complete event array never closed
};

Status ReadTraceJson(ByteSource& source, const TraceJsonReadOptions& options, TraceJsonSink& sink,
                     TraceJsonReadResult* result);

}  // namespace stepscope::importers
