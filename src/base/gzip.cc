#include "src/base/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <limits>

namespace stepscope::base {
namespace {
// zlib counts in uInt; feed it at most this much per call.
constexpr size_t kMaxChunkBytes = 1u << 30;
}  // namespace

bool IsGzip(std::string_view data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
         static_cast<unsigned char>(data[1]) == 0x8b;
}

StatusOr<std::string> GunzipWithLimit(std::string_view data, uint64_t max_output_bytes) {
  z_stream stream{};
  // 15 + 32: accept both gzip and zlib headers.
  if (inflateInit2(&stream, 15 + 32) != Z_OK) return InternalError("inflateInit2 failed");
  std::string out;
  out.resize(std::min<uint64_t>(std::max<uint64_t>(data.size() * 4, 4096), max_output_bytes + 1));
  size_t in_pos = 0;
  size_t out_pos = 0;
  int rc = Z_OK;
  while (true) {
    if (stream.avail_in == 0 && in_pos < data.size()) {
      size_t chunk = std::min(kMaxChunkBytes, data.size() - in_pos);
      stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + in_pos));
      stream.avail_in = static_cast<uInt>(chunk);
      in_pos += chunk;
    }
    if (out_pos == out.size()) {
      if (out.size() > max_output_bytes) break;
      out.resize(std::min<uint64_t>(out.size() * 2, max_output_bytes + 1));
    }
    size_t room = std::min(kMaxChunkBytes, out.size() - out_pos);
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + out_pos);
    stream.avail_out = static_cast<uInt>(room);
    rc = inflate(&stream, Z_NO_FLUSH);
    out_pos += room - stream.avail_out;
    if (rc == Z_STREAM_END) {
      // Concatenated gzip members are legal; continue if input remains.
      if (stream.avail_in == 0 && in_pos == data.size()) break;
      if (inflateReset(&stream) != Z_OK) break;
      continue;
    }
    if (rc == Z_BUF_ERROR && stream.avail_in == 0 && in_pos == data.size()) break;
    if (rc != Z_OK && rc != Z_BUF_ERROR) break;
    if (out_pos > max_output_bytes) break;
  }
  inflateEnd(&stream);
  if (out_pos > max_output_bytes) {
    return ResourceExhaustedError("gzip data expands past the limit of " +
                                  std::to_string(max_output_bytes) + " bytes");
  }
  if (rc != Z_STREAM_END) {
    return DataLossError(rc == Z_BUF_ERROR || rc == Z_OK ? "gzip data is truncated"
                                                         : "gzip data is corrupt");
  }
  out.resize(out_pos);
  return out;
}

StatusOr<std::string> Gzip(std::string_view data, int level) {
  z_stream stream{};
  // 15 + 16: write a gzip header.
  if (deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return InternalError("deflateInit2 failed");
  }
  std::string out;
  out.resize(deflateBound(&stream, static_cast<uLong>(std::min(data.size(), kMaxChunkBytes))) + 64);
  size_t in_pos = 0;
  size_t out_pos = 0;
  int rc = Z_OK;
  do {
    if (stream.avail_in == 0 && in_pos < data.size()) {
      size_t chunk = std::min(kMaxChunkBytes, data.size() - in_pos);
      stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + in_pos));
      stream.avail_in = static_cast<uInt>(chunk);
      in_pos += chunk;
    }
    if (out_pos == out.size()) out.resize(out.size() * 2);
    size_t room = std::min(kMaxChunkBytes, out.size() - out_pos);
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + out_pos);
    stream.avail_out = static_cast<uInt>(room);
    rc = deflate(&stream, in_pos == data.size() ? Z_FINISH : Z_NO_FLUSH);
    out_pos += room - stream.avail_out;
  } while (rc == Z_OK || rc == Z_BUF_ERROR);
  deflateEnd(&stream);
  if (rc != Z_STREAM_END) return InternalError("deflate failed");
  out.resize(out_pos);
  return out;
}

}  // namespace stepscope::base
