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
};

// Parses serialized XSpace bytes (not compressed). `what` names the source in errors.
// `on_progress`, when set, is called now and then with the number of bytes consumed, in
// increasing order; the reader never reads below the last reported offset again.
StatusOr<ColumnarXSpace> ParseColumnarXSpace(std::string_view bytes, std::string_view what,
                                             const std::function<void(uint64_t)>& on_progress = nullptr);

// Reads a `.xplane.pb` file (memory-mapped; gzip is detected and inflated).
StatusOr<ColumnarXSpace> ReadColumnarXSpaceFile(const std::string& path, const ColumnarReadOptions& options = {});

}  // namespace stepscope::xspace
