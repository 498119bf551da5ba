// Gzip bombs for tests: valid gzip that inflates to `bytes` zero bytes, built in
// milliseconds whatever its size (compressing gigabytes of zeros would take seconds).
#pragma once

#include <cstdint>
#include <string>

namespace stepscope::base::testing {

// A gzip member whose inflated content is `bytes` zero bytes (a multiple of 1 MiB, rounded
// up), ~1/1000 of that in size, with a correct CRC32 and length trailer.
std::string MakeZeroGzipBomb(uint64_t bytes);

}  // namespace stepscope::base::testing
