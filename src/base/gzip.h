// gzip detection, compression and bounded decompression (zlib).
//
// Decompression takes a limit because a few KB of hostile gzip can expand to gigabytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "stepscope/status.h"

namespace stepscope::base {

// True when `data` starts with the gzip magic bytes 1f 8b.
bool IsGzip(std::string_view data);

// Inflates gzip (or zlib) data, concatenated members included. Fails with kDataLoss for a
// truncated or corrupt stream and kResourceExhausted past max_output_bytes.
StatusOr<std::string> GunzipWithLimit(std::string_view data, uint64_t max_output_bytes);

// Compresses `data` as one gzip member.
StatusOr<std::string> Gzip(std::string_view data, int level = 6);

}  // namespace stepscope::base
