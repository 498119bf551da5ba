// The rules every reader of profile files applies, in one place: the streaming columnar
// reader (the one every command uses: info, analyze, convert, serve) and the protobuf
// decoder tests keep as an independent check (xspace_io.h) take the same limits and refuse
// the same inputs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "src/base/gzip.h"
#include "src/base/memory_budget.h"

namespace stepscope::xspace {

// gzip input is inflated in memory first, and the columns built from it need about as much
// again: at most half the process's memory budget (base::MemoryBudgetBytes), never more
// than InflateLimits' own cap, and refused early when it expands like a gzip bomb (200x
// past the first 64 MiB).
inline base::InflateLimits InflateLimitsForBudget() {
  base::InflateLimits limits;
  limits.max_output_bytes = std::min(limits.max_output_bytes, base::MemoryBudgetBytes() / 2);
  return limits;
}

// A sanity bound, not a memory budget: the streaming reader maps the file and keeps ~the
// columnar size, not the file size.
inline constexpr uint64_t kMaxProfileFileBytes = uint64_t{1} << 40;

struct ReadLimits {
  uint64_t max_file_bytes = kMaxProfileFileBytes;
  base::InflateLimits inflate = InflateLimitsForBudget();
  // The decoded events, stats and strings of one file: refused past this.
  uint64_t max_decoded_bytes = base::MemoryBudgetBytes();
};

// XSpace.warnings and XSpace.errors kept per file, and the bytes kept of each; one more
// line says how many were not (the columnar reader).
inline constexpr size_t kMaxSpaceMessages = 100;
inline constexpr size_t kMaxSpaceMessageBytes = 4096;

// What both readers say about input that parses as an XSpace without planes (an empty or
// all-padding file, or a different message).
inline constexpr std::string_view kNoPlanesMessage =
    "holds no XSpace planes (empty, truncated or not an xplane.pb file)";

}  // namespace stepscope::xspace
