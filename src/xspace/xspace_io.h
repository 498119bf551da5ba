// Reading and writing whole XSpace files (`*.xplane.pb`, optionally gzip-compressed).
//
// Reads are bounded: a file larger than the limit, a gzip stream that inflates past it,
// or bytes that are not an XSpace give a Status naming the file and the problem, never a
// crash or a silently empty profile.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "src/xspace/xplane.h"
#include "stepscope/status.h"

namespace stepscope::xspace {

struct ReadLimits {
  // Protobuf cannot parse one message over 2 GiB; larger files need the streaming reader.
  uint64_t max_file_bytes = (2ull << 30) - 1;
  uint64_t max_inflated_bytes = (2ull << 30) - 1;
};

// Parses serialized XSpace bytes (gzip is detected and inflated). `what` names the
// source in error messages.
StatusOr<XSpace> ParseXSpace(std::string_view bytes, std::string_view what, const ReadLimits& limits = {});

// Reads `path` (`.xplane.pb` or gzip-compressed) into an XSpace.
StatusOr<XSpace> ReadXSpaceFile(const std::string& path, const ReadLimits& limits = {});

// Serializes deterministically (metadata maps in key order: one XSpace, one byte string)
// and writes atomically (temp file + rename); with `gzip` the file is compressed.
Status WriteXSpaceFile(const std::string& path, const XSpace& space, bool gzip = false);

}  // namespace stepscope::xspace
