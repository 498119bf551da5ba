// The rules every reader of profile files applies, in one place: the streaming columnar
// reader (the one every command uses: info, analyze, convert, serve) and the protobuf
// decoder tests keep as an independent check (xspace_io.h) take the same limits and refuse
// the same inputs.
#pragma once

#include <cstdint>
#include <string_view>

#include "src/base/gzip.h"

namespace stepscope::xspace {

struct ReadLimits {
  // A sanity bound, not a memory budget: the streaming reader maps the file and keeps
  // ~the columnar size, not the file size.
  uint64_t max_file_bytes = uint64_t{1} << 40;
  // gzip input is inflated in memory first: at most this much, and refused early when it
  // expands like a gzip bomb (base::InflateLimits: 200x past the first 64 MiB).
  base::InflateLimits inflate;
};

// What both readers say about input that parses as an XSpace without planes (an empty or
// all-padding file, or a different message).
inline constexpr std::string_view kNoPlanesMessage =
    "holds no XSpace planes (empty, truncated or not an xplane.pb file)";

}  // namespace stepscope::xspace
