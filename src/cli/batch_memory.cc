#include "src/cli/batch_memory.h"

#include <filesystem>
#include <string_view>

#include "src/base/batch_heap.h"

namespace stepscope::cli {
namespace {

// Peak memory of reading a profile, as a multiple of its uncompressed size: the text or
// protobuf, the columns and the model are alive together at some point.
constexpr size_t kPeakPerInputByte = 3;
// Kineto / XSpace files compress about 10-15x with gzip.
constexpr size_t kGzipRatio = 12;

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

size_t ExpectedPeakBytes(const std::vector<std::string>& paths) {
  size_t total = 0;
  for (const std::string& path : paths) {
    std::error_code ec;
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) continue;
    total += static_cast<size_t>(size) * (EndsWith(path, ".gz") ? kGzipRatio : 1) * kPeakPerInputByte;
  }
  return total;
}

void PrepareHeapForInputs(const std::vector<std::string>& paths) {
  base::PrepareHeapForBatchRun(ExpectedPeakBytes(paths));
}

}  // namespace stepscope::cli
