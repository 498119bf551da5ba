#include "src/base/testing/gzip_bomb.h"

#include <zlib.h>

#include <string>

namespace stepscope::base::testing {
namespace {

constexpr uLong kSegmentBytes = 1 << 20;

// Raw deflate of one segment of zeros, ended by a full flush: byte-aligned, no final-block
// bit and no history needed, so copies of it can follow one another.
std::string DeflateZeroSegment() {
  std::string zeros(kSegmentBytes, '\0');
  z_stream stream{};
  deflateInit2(&stream, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&stream, kSegmentBytes) + 64, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(zeros.data());
  stream.avail_in = kSegmentBytes;
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  deflate(&stream, Z_FULL_FLUSH);
  out.resize(out.size() - stream.avail_out);
  deflateEnd(&stream);
  return out;
}

// The final, empty block of a raw deflate stream.
std::string DeflateFinalBlock() {
  z_stream stream{};
  deflateInit2(&stream, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY);
  std::string out(64, '\0');
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  deflate(&stream, Z_FINISH);
  out.resize(out.size() - stream.avail_out);
  deflateEnd(&stream);
  return out;
}

void AppendLittleEndian32(std::string* out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

}  // namespace

std::string MakeZeroGzipBomb(uint64_t bytes) {
  const uint64_t segments = (bytes + kSegmentBytes - 1) / kSegmentBytes;
  const std::string segment = DeflateZeroSegment();
  std::string zeros(kSegmentBytes, '\0');
  const uLong segment_crc = crc32(0, reinterpret_cast<const Bytef*>(zeros.data()), kSegmentBytes);
  // gzip header: magic, deflate, no flags, no mtime, no extra flags, OS unknown.
  std::string out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
  out.reserve(out.size() + segment.size() * segments + 16);
  uLong crc = crc32(0, nullptr, 0);
  for (uint64_t i = 0; i < segments; ++i) {
    out += segment;
    crc = crc32_combine(crc, segment_crc, kSegmentBytes);
  }
  out += DeflateFinalBlock();
  AppendLittleEndian32(&out, static_cast<uint32_t>(crc));
  AppendLittleEndian32(&out, static_cast<uint32_t>(segments * kSegmentBytes));
  return out;
}

}  // namespace stepscope::base::testing
