#include "src/importers/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "src/base/gzip.h"
#include "src/base/testing/gzip_bomb.h"

namespace stepscope::importers {
namespace {

std::string SampleText(size_t bytes) {
  std::string text;
  for (int i = 0; text.size() < bytes; ++i) text += "{\"ph\":\"X\",\"ts\":" + std::to_string(i * 7) + "},";
  text.resize(bytes);
  return text;
}

// Reads a source to its end in pieces of `piece` bytes, or returns the first error.
StatusOr<std::string> ReadAll(ByteSource& source, size_t piece) {
  std::string out;
  std::string buffer(piece, '\0');
  while (true) {
    StatusOr<size_t> n = source.Read(buffer.data(), buffer.size());
    if (!n.ok()) return n.status();
    if (*n == 0) return out;
    out.append(buffer.data(), *n);
  }
}

TEST(GunzipByteSourceTest, PiecesOfAnySizeGiveTheWholeText) {
  std::string text = SampleText(3 << 20);
  std::string packed = *base::Gzip(text.substr(0, 1 << 20)) + *base::Gzip(text.substr(1 << 20));
  for (size_t piece : {size_t{1}, size_t{7}, size_t{4096}, size_t{1} << 20, size_t{8} << 20}) {
    auto source = MakeTraceByteSource(packed, uint64_t{1} << 30);
    StatusOr<std::string> all = ReadAll(*source, piece);
    ASSERT_TRUE(all.ok()) << all.status().ToString();
    EXPECT_TRUE(*all == text) << "piece " << piece;
    EXPECT_EQ(source->bytes_read(), text.size());
  }
}

// Everything before the garbage is handed out; the error names the garbage, not a
// truncation, with the compressed offset where it starts.
TEST(GunzipByteSourceTest, TrailingGarbageIsNamedAfterTheData) {
  std::string text = SampleText(2 << 20);
  std::string packed = *base::Gzip(text);
  const std::string bytes = packed + "garbage";  // the source reads it in place
  auto source = MakeTraceByteSource(bytes, uint64_t{1} << 30);
  std::string out(64 << 10, '\0');
  std::string got;
  Status error;
  while (true) {
    StatusOr<size_t> n = source->Read(out.data(), out.size());
    if (!n.ok()) {
      error = n.status();
      break;
    }
    ASSERT_NE(*n, 0u) << "the garbage was not reported";
    got.append(out.data(), *n);
  }
  EXPECT_EQ(got.size(), text.size());
  EXPECT_TRUE(got == text);
  EXPECT_EQ(error.code(), StatusCode::kDataLoss);
  EXPECT_NE(error.message().find("trailing garbage after the gzip data at byte " + std::to_string(packed.size())),
            std::string::npos)
      << error.ToString();
}

TEST(GunzipByteSourceTest, ZeroPaddingAfterTheDataIsAccepted) {
  std::string text = SampleText(100000);
  const std::string bytes = *base::Gzip(text) + std::string(3000, '\0');
  auto source = MakeTraceByteSource(bytes, uint64_t{1} << 30);
  StatusOr<std::string> all = ReadAll(*source, 4096);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(*all, text);
}

TEST(GunzipByteSourceTest, TruncatedStreamIsNamedAsSuch) {
  std::string packed = *base::Gzip(SampleText(1 << 20));
  auto source = MakeTraceByteSource(std::string_view(packed).substr(0, packed.size() / 2), uint64_t{1} << 30);
  StatusOr<std::string> all = ReadAll(*source, 65536);
  EXPECT_EQ(all.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(all.status().message().find("truncated"), std::string::npos) << all.status().ToString();
}

TEST(GunzipByteSourceTest, BombIsRefusedEarly) {
  std::string packed = base::testing::MakeZeroGzipBomb(uint64_t{4} << 30);
  auto source = MakeTraceByteSource(packed, uint64_t{64} << 30);
  StatusOr<std::string> all = ReadAll(*source, 1 << 20);
  EXPECT_EQ(all.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(all.status().message().find("gzip bomb"), std::string::npos) << all.status().ToString();
  EXPECT_LE(source->bytes_read(), (uint64_t{64} << 20) + (1 << 20));
}

// Reading ahead on another thread hands out the same bytes, then the same error (a
// truncation, trailing garbage, a bomb), and counts the same bytes.
TEST(ReadAheadByteSourceTest, SameBytesAndErrorsAsReadingDirectly) {
  std::string text = SampleText(3 << 20);
  std::string packed = *base::Gzip(text.substr(0, 1 << 20)) + *base::Gzip(text.substr(1 << 20));
  const std::vector<std::string> inputs = {
      packed, packed + std::string(100, '\0'), packed + "garbage", packed.substr(0, packed.size() / 2),
      base::testing::MakeZeroGzipBomb(uint64_t{1} << 30), text};
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (size_t piece : {size_t{1000}, size_t{1} << 20, size_t{3} << 20}) {
      auto direct = MakeTraceByteSource(inputs[i], uint64_t{64} << 30);
      StatusOr<std::string> expected = ReadAll(*direct, piece);
      auto ahead = MakeReadAheadByteSource(MakeTraceByteSource(inputs[i], uint64_t{64} << 30));
      StatusOr<std::string> got = ReadAll(*ahead, piece);
      // (A bomb's message counts the bytes inflated when it was noticed, which depends on
      // how much was asked for at a time.)
      ASSERT_EQ(got.status().ToString().substr(0, 50), expected.status().ToString().substr(0, 50))
          << "input " << i << " piece " << piece;
      if (expected.ok()) {
        EXPECT_TRUE(*got == *expected) << "input " << i << " piece " << piece;
        EXPECT_EQ(ahead->bytes_read(), direct->bytes_read());
        EXPECT_EQ(ahead->raw_bytes_read(), direct->raw_bytes_read());
      }
    }
  }
}

// Dropping a read-ahead source before the end stops its thread.
TEST(ReadAheadByteSourceTest, StopsWhenDroppedEarly) {
  std::string packed = *base::Gzip(SampleText(8 << 20));
  for (int i = 0; i < 20; ++i) {
    auto ahead = MakeReadAheadByteSource(MakeTraceByteSource(packed, uint64_t{1} << 30));
    char byte;
    ASSERT_TRUE(ahead->Read(&byte, 1).ok());
  }
}

// A FIFO (or a shell's <(...)) can be read once only: opening it is not a promise that
// the bytes can be read again.
TEST(FileByteSourceTest, FifoIsReadAsAStream) {
  std::string path = ::testing::TempDir() + "/byte_source_fifo_" + std::to_string(::getpid());
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::string text = SampleText(300000);
  std::string packed = *base::Gzip(text);
  std::thread writer([&] {
    int fd = ::open(path.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    size_t written = 0;
    while (written < packed.size()) {
      ssize_t n = ::write(fd, packed.data() + written, std::min<size_t>(4096, packed.size() - written));
      ASSERT_GT(n, 0);
      written += static_cast<size_t>(n);
    }
    ::close(fd);
  });
  auto source = OpenTraceByteSource(path, uint64_t{1} << 30);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  StatusOr<std::string> head = ReadHead(**source, 1000);
  ASSERT_TRUE(head.ok());
  auto rest = MakePrefixedByteSource(*head, std::move(source).value());
  StatusOr<std::string> all = ReadAll(*rest, 8192);
  writer.join();
  std::filesystem::remove(path);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_TRUE(*all == text);
  EXPECT_EQ(rest->bytes_read(), text.size());
}

}  // namespace
}  // namespace stepscope::importers
