#include "src/base/gzip.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>
#include <vector>

#include "src/base/testing/gzip_bomb.h"

namespace stepscope::base {
namespace {

TEST(GzipTest, RoundTrip) {
  std::string data;
  for (int i = 0; i < 100000; ++i) data += std::to_string(i);
  auto packed = Gzip(data);
  ASSERT_TRUE(packed.ok());
  EXPECT_TRUE(IsGzip(*packed));
  auto unpacked = GunzipWithLimit(*packed, 1 << 30);
  ASSERT_TRUE(unpacked.ok()) << unpacked.status().ToString();
  EXPECT_EQ(*unpacked, data);
}

TEST(GzipTest, ConcatenatedMembers) {
  auto a = Gzip("hello ");
  auto b = Gzip("world");
  auto unpacked = GunzipWithLimit(*a + *b, 1 << 20);
  ASSERT_TRUE(unpacked.ok());
  EXPECT_EQ(*unpacked, "hello world");
}

TEST(GzipTest, TruncatedIsDataLoss) {
  std::string data(50000, 'x');
  for (size_t i = 0; i < data.size(); i += 7) data[i] = static_cast<char>('a' + i % 26);
  auto packed = Gzip(data);
  auto unpacked = GunzipWithLimit(packed->substr(0, packed->size() / 2), 1 << 20);
  EXPECT_EQ(unpacked.status().code(), StatusCode::kDataLoss);
}

TEST(GzipTest, GarbageIsDataLoss) {
  std::string garbage = "\x1f\x8b\x08\x00garbage-garbage-garbage";
  EXPECT_EQ(GunzipWithLimit(garbage, 1 << 20).status().code(), StatusCode::kDataLoss);
}

TEST(GzipTest, BombIsStoppedAtTheLimit) {
  auto packed = Gzip(std::string(10 << 20, '\0'));
  ASSERT_LT(packed->size(), 100000u);
  auto unpacked = GunzipWithLimit(*packed, 1 << 20);
  EXPECT_EQ(unpacked.status().code(), StatusCode::kResourceExhausted);
}

TEST(GzipTest, TestBombIsValidGzipOfZeros) {
  std::string bomb = testing::MakeZeroGzipBomb(uint64_t{8} << 20);
  EXPECT_LT(bomb.size(), 20000u);
  InflateLimits generous;
  generous.max_ratio = 1u << 20;
  auto unpacked = GunzipWithLimit(bomb, generous);
  ASSERT_TRUE(unpacked.ok()) << unpacked.status().ToString();
  EXPECT_EQ(unpacked->size(), size_t{8} << 20);
  EXPECT_EQ(unpacked->find_first_not_of('\0'), std::string::npos);
}

// 4 GiB of zeros in ~4 MB: refused once 64 MiB have come out, long before the absolute
// limit, so no reader holds gigabytes for it.
TEST(GzipTest, BombIsRefusedByItsRatioEarly) {
  std::string bomb = testing::MakeZeroGzipBomb(uint64_t{4} << 30);
  GzipInflater inflater;
  std::string out(1 << 20, '\0');
  std::string_view input = bomb;
  Status error;
  while (error.ok() && !inflater.finished()) {
    StatusOr<size_t> got = inflater.Inflate(&input, true, out.data(), out.size());
    if (!got.ok()) error = got.status();
  }
  EXPECT_EQ(error.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(error.message().find("gzip bomb"), std::string::npos) << error.ToString();
  EXPECT_LE(inflater.total_out(), (uint64_t{64} << 20) + out.size());
  EXPECT_EQ(GunzipWithLimit(bomb, uint64_t{16} << 30).status().code(), StatusCode::kResourceExhausted);
}

// Real traces compress 4-20x; the ratio leaves them alone however large they are.
TEST(GzipTest, OrdinaryRatiosPassTheBombCheck) {
  std::string data;
  for (int i = 0; data.size() < (size_t{80} << 20); ++i) data += "{\"ts\":" + std::to_string(i * 13) + "},";
  auto packed = Gzip(data, 1);
  ASSERT_TRUE(packed.ok());
  auto unpacked = GunzipWithLimit(*packed, uint64_t{1} << 30);
  ASSERT_TRUE(unpacked.ok()) << unpacked.status().ToString();
  EXPECT_TRUE(*unpacked == data);
}

TEST(GzipTest, TrailingGarbageIsNamedWithItsOffset) {
  auto packed = Gzip("hello");
  auto unpacked = GunzipWithLimit(*packed + "garbage", 1 << 20);
  EXPECT_EQ(unpacked.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(unpacked.status().message().find("trailing garbage after the gzip data at byte " +
                                             std::to_string(packed->size())),
            std::string::npos)
      << unpacked.status().ToString();
}

TEST(GzipTest, ZeroPaddingAfterMembersIsAccepted) {
  auto unpacked = GunzipWithLimit(*Gzip("a") + std::string(100, '\0') + *Gzip("b") + std::string(7, '\0'), 1 << 20);
  ASSERT_TRUE(unpacked.ok()) << unpacked.status().ToString();
  EXPECT_EQ(*unpacked, "ab");
}

TEST(GzipTest, TruncationIsNamedAsSuch) {
  std::string data(50000, 'x');
  for (size_t i = 0; i < data.size(); i += 7) data[i] = static_cast<char>('a' + i % 26);
  auto packed = Gzip(data);
  for (size_t keep : {size_t{1}, size_t{10}, packed->size() / 2, packed->size() - 1}) {
    auto unpacked = GunzipWithLimit(packed->substr(0, keep), 1 << 20);
    EXPECT_EQ(unpacked.status().code(), StatusCode::kDataLoss) << keep;
    EXPECT_NE(unpacked.status().message().find("truncated"), std::string::npos) << unpacked.status().ToString();
  }
}

// Input handed over a byte at a time (a pipe) gives the same bytes, magic of the second
// member split across pieces included.
TEST(GzipTest, InflaterTakesInputInPieces) {
  std::string packed = *Gzip("first member ") + *Gzip("second member");
  GzipInflater inflater;
  std::string out, pending;
  char buffer[5];
  for (size_t i = 0; i <= packed.size() && !inflater.finished(); ++i) {
    if (i < packed.size()) pending += packed[i];
    std::string_view input = pending;
    while (true) {
      StatusOr<size_t> got = inflater.Inflate(&input, i == packed.size(), buffer, sizeof(buffer));
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      out.append(buffer, *got);
      if (*got < sizeof(buffer)) break;
    }
    ASSERT_LE(input.size(), 1u);
    pending = std::string(input);
  }
  EXPECT_TRUE(inflater.finished());
  EXPECT_EQ(out, "first member second member");
}

// Feeds `packed` to an inflater in pieces of the given sizes (cycled), with output room
// of `out_room` per call, as GzipByteSource does: what is left of a piece goes in front of
// the next one.
StatusOr<std::string> InflateInPieces(const std::string& packed, const std::vector<size_t>& pieces, size_t out_room) {
  GzipInflater inflater;
  std::string out, pending;
  std::string buffer(out_room, '\0');
  size_t position = 0;
  for (size_t piece = 0; !inflater.finished(); ++piece) {
    size_t n = std::min(pieces[piece % pieces.size()], packed.size() - position);
    pending.append(packed, position, n);
    position += n;
    const bool end = position == packed.size();
    std::string_view input = pending;
    while (true) {
      StatusOr<size_t> got = inflater.Inflate(&input, end, buffer.data(), buffer.size());
      if (!got.ok()) return got.status();
      out.append(buffer.data(), *got);
      if (*got < buffer.size() || inflater.finished()) break;
    }
    pending = std::string(input);
    if (end && !inflater.finished() && pending.empty()) return InternalError("stalled");
  }
  return out;
}

// Many members (tiny, empty, large, at every compression level), zero padding between
// them, handed over in pieces of every small size and odd output room: the inflater
// reads a few bytes past a member's end, and must give them back to the next one.
TEST(GzipTest, MembersInPiecesOfEverySize) {
  std::mt19937 random(5);
  std::string data;
  std::string packed;
  for (int member = 0; member < 40; ++member) {
    std::string text;
    size_t size = member % 7 == 0 ? 0 : random() % (member % 5 == 0 ? 200000 : 300);
    for (size_t i = 0; i < size; ++i) text += static_cast<char>(random() % 4 == 0 ? 'a' + random() % 26 : ' ' + member % 50);
    data += text;
    packed += *Gzip(text, member % 10);
    if (member % 3 == 0) packed += std::string(random() % 5, '\0');
  }
  for (size_t piece = 1; piece <= 17; ++piece) {
    StatusOr<std::string> out = InflateInPieces(packed, {piece, piece * 3 + 1, 4096}, 1 + piece * 97);
    ASSERT_TRUE(out.ok()) << "piece " << piece << ": " << out.status().ToString();
    EXPECT_TRUE(*out == data) << "piece " << piece;
  }
  StatusOr<std::string> whole = GunzipWithLimit(packed, 1 << 30);
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  EXPECT_TRUE(*whole == data);
}

// zlib's format (not gzip) as the only member, as zlib's "15 + 32" mode accepted it.
TEST(GzipTest, ZlibFormatIsInflatedToo) {
  std::string data;
  for (int i = 0; i < 20000; ++i) data += std::to_string(i * 7);
  uLongf size = compressBound(data.size());
  std::string packed(size, '\0');
  ASSERT_EQ(compress2(reinterpret_cast<Bytef*>(packed.data()), &size, reinterpret_cast<const Bytef*>(data.data()),
                      data.size(), 6),
            Z_OK);
  packed.resize(size);
  StatusOr<std::string> out = GunzipWithLimit(packed, 1 << 30);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(*out == data);
}

// The optional gzip header fields (a file name, a comment, extra data) are skipped.
TEST(GzipTest, HeaderFieldsAreSkipped) {
  std::string packed = *Gzip("payload");
  const std::string body = packed.substr(10);
  std::string header = packed.substr(0, 10);
  header[3] = 0x04 | 0x08 | 0x10;  // FEXTRA | FNAME | FCOMMENT
  std::string with_fields = header + std::string("\x03\x00xyz", 5) + "trace.json" + std::string(1, '\0') +
                            "a comment" + std::string(1, '\0') + body;
  StatusOr<std::string> out = GunzipWithLimit(with_fields, 1 << 20);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(*out, "payload");
}

// A damaged checksum or length in the trailer is corrupt data, not a short read.
TEST(GzipTest, DamagedTrailerIsCorrupt) {
  std::string data(100000, 'q');
  for (size_t offset : {size_t{8}, size_t{3}}) {  // the CRC, then the length
    std::string packed = *Gzip(data);
    packed[packed.size() - offset] ^= 0x40;
    StatusOr<std::string> out = GunzipWithLimit(packed, 1 << 20);
    EXPECT_EQ(out.status().code(), StatusCode::kDataLoss) << offset;
    EXPECT_EQ(out.status().message().find("truncated"), std::string::npos) << out.status().ToString();
  }
}


// What GzipDeflater writes in pieces is one gzip member that inflates to the input: small
// and large writes, an empty write, many output pieces.
TEST(GzipDeflaterTest, StreamsOneMemberThatInflatesToTheInput) {
  std::string input;
  for (int i = 0; input.size() < (3 << 20); ++i) input += "{\"ph\":\"X\",\"name\":\"op_" + std::to_string(i % 977) + "\"},";
  std::string packed;
  size_t pieces = 0;
  GzipDeflater deflater([&](std::string_view bytes) {
    EXPECT_LE(bytes.size(), size_t{256} << 10);
    packed.append(bytes);
    ++pieces;
    return true;
  });
  ASSERT_TRUE(deflater.Write(std::string_view(input).substr(0, 10)));
  ASSERT_TRUE(deflater.Write(""));
  ASSERT_TRUE(deflater.Write(std::string_view(input).substr(10)));
  ASSERT_TRUE(deflater.Finish());
  EXPECT_TRUE(IsGzip(packed));
  EXPECT_LT(packed.size(), input.size() / 4);
  EXPECT_GT(pieces, 0u);
  StatusOr<std::string> unpacked = GunzipWithLimit(packed, 1 << 30);
  ASSERT_TRUE(unpacked.ok()) << unpacked.status().ToString();
  EXPECT_EQ(*unpacked, input);

  std::string empty_packed;
  GzipDeflater empty([&](std::string_view bytes) {
    empty_packed.append(bytes);
    return true;
  });
  ASSERT_TRUE(empty.Finish());
  StatusOr<std::string> nothing = GunzipWithLimit(empty_packed, 1 << 20);
  ASSERT_TRUE(nothing.ok()) << nothing.status().ToString();
  EXPECT_EQ(*nothing, "");
}

// A sink that refuses (a closed download, a full disk) stops the stream for good.
TEST(GzipDeflaterTest, ARefusingSinkEndsTheStream) {
  int calls = 0;
  GzipDeflater deflater([&](std::string_view) {
    ++calls;
    return false;
  });
  std::string input(1 << 20, 'x');
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<char>('a' + (i * 7919) % 26);
  bool ok = true;
  for (int i = 0; i < 8 && ok; ++i) ok = deflater.Write(input);
  EXPECT_FALSE(ok && deflater.Finish());
  EXPECT_FALSE(deflater.Write("more"));
  EXPECT_FALSE(deflater.Finish());
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace stepscope::base
