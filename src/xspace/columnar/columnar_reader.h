// Streaming XSpace reader: protobuf wire format straight into ColumnarXSpace.
//
// No generated message classes are involved, so there is no 2 GiB limit and no
// per-message allocation. Unknown fields are skipped by wire type, fields may come in any
// order, map entries (key = 1, value = 2) are read as such, and the `data` oneof of
// XEvent (offset_ps / num_occurrences) and the `value` oneof of XStat keep the last
// member seen, as protobuf does. It refuses what protobuf's parser refuses (field number
// 0, strings that are not UTF-8) and what ValidateXSpace refuses (no planes; a plane
// whose events all name undefined metadata). Truncated or corrupt input gives kDataLoss
// naming the byte offset; it never reads out of bounds.
#pragma once

#include <cstdint>
#include <climits>
#include <functional>
#include <string>
#include <string_view>

#include "src/xspace/columnar/columnar_xspace.h"
#include "src/xspace/read_rules.h"
#include "stepscope/status.h"

namespace stepscope::xspace {

struct ColumnarReadOptions {
  // The same limits as every reader (read_rules.h).
  ReadLimits limits;
  // Give consumed parts of a memory-mapped file back to the OS while parsing, so peak
  // memory is the columnar data plus a window, not the file plus the columns.
  bool release_input_while_reading = true;
  // Threads that parse planes at once (ParseOptions::threads); 0: every usable core.
  int threads = 0;
  // ParseOptions::memory_event_records.
  std::function<bool(std::string_view plane_name)> memory_event_records;
};

struct ParseOptions {
  // When set, called now and then with a byte range [begin, end) of the input that is
  // not read again. With several threads it is called from each of them, concurrently,
  // with disjoint ranges.
  std::function<void(uint64_t begin, uint64_t end)> on_consumed;
  // Planes are independent messages: with more than one thread, an input of several
  // planes and at least parallel_min_bytes, the planes are parsed by up to this many
  // threads at once. The result is the same, byte for byte, as with one thread; so are
  // errors (the first failing plane in file order is the one reported).
  int threads = 1;
  uint64_t parallel_min_bytes = 4ull << 20;  // below, starting threads costs more than it saves
  // When set and true for a plane's name: that plane's memory events are decoded into
  // ColumnarPlane::memory (records), their stats left out of the columns
  // (columnar_memory_events.h). For readers that do not keep the columns for anything
  // that shows those stats (the model of `stepscope analyze`, not the trace viewer).
  std::function<bool(std::string_view plane_name)> memory_event_records;
  // The decoded planes (ColumnarPlane::MemoryBytes, summed as each is parsed) may hold at
  // most this much: past it the read fails with kResourceExhausted naming the size.
  uint64_t max_decoded_bytes = UINT64_MAX;
};

// Parses serialized XSpace bytes (not compressed). `what` names the source in errors.
StatusOr<ColumnarXSpace> ParseColumnarXSpace(std::string_view bytes, std::string_view what,
                                             const ParseOptions& options = {});

// Reads a `.xplane.pb` file (memory-mapped; gzip is detected and inflated).
StatusOr<ColumnarXSpace> ReadColumnarXSpaceFile(const std::string& path, const ColumnarReadOptions& options = {});

}  // namespace stepscope::xspace
