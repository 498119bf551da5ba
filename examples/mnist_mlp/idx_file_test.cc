#include "examples/mnist_mlp/idx_file.h"

#include <unistd.h>

#include <fstream>
#include <string>

#include "examples/mnist_mlp/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mnist_mlp {
namespace {

using ::testing::HasSubstr;

std::string Pattern(size_t bytes) {
  std::string data(bytes, '\0');
  for (size_t i = 0; i < bytes; ++i) data[i] = static_cast<char>((i * 7 + 3) & 0xff);
  return data;
}

void WriteRaw(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

TEST(IdxFileTest, HeaderIsBigEndianMnistLayout) {
  const std::string header = EncodeIdxHeader({60000, 28, 28});
  const std::string expected("\x00\x00\x08\x03\x00\x00\xea\x60\x00\x00\x00\x1c\x00\x00\x00\x1c", 16);
  EXPECT_EQ(header, expected);
  stepscope::StatusOr<IdxHeader> parsed = ParseIdxHeader(header, "test");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->dims, (std::vector<uint32_t>{60000, 28, 28}));
  EXPECT_EQ(parsed->header_bytes, 16u);
  EXPECT_EQ(parsed->record_bytes(), 784u);
  EXPECT_EQ(parsed->file_bytes(), 16u + 60000u * 784u);
}

TEST(IdxFileTest, RoundTripReadsEveryRecordRange) {
  ScopedTempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string path = dir.path() + "/images-idx3-ubyte";
  const std::string data = Pattern(5 * 3 * 2);
  ASSERT_TRUE(WriteIdxFile(path, {5, 3, 2}, data).ok());

  stepscope::StatusOr<std::unique_ptr<IdxFile>> file = IdxFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ((*file)->header().num_records(), 5u);
  EXPECT_EQ((*file)->header().record_bytes(), 6u);
  for (uint64_t first = 0; first <= 5; ++first) {
    for (uint64_t count = 0; first + count <= 5; ++count) {
      std::string out(count * 6, '\xff');
      ASSERT_TRUE((*file)->ReadRecords(first, count, reinterpret_cast<uint8_t*>(out.data())).ok());
      EXPECT_EQ(out, data.substr(first * 6, count * 6)) << "first=" << first << " count=" << count;
    }
  }
  uint8_t byte;
  stepscope::Status out_of_range = (*file)->ReadRecords(5, 1, &byte);
  EXPECT_EQ(out_of_range.code(), stepscope::StatusCode::kInvalidArgument);
  EXPECT_THAT(out_of_range.message(), HasSubstr("out of range"));
}

TEST(IdxFileTest, LabelFileHasOneByteRecords) {
  ScopedTempDir dir;
  const std::string path = dir.path() + "/labels-idx1-ubyte";
  ASSERT_TRUE(WriteIdxFile(path, {4}, std::string("\x01\x02\x03\x09", 4)).ok());
  stepscope::StatusOr<std::unique_ptr<IdxFile>> file = IdxFile::Open(path);
  ASSERT_TRUE(file.ok());
  uint8_t label = 0;
  ASSERT_TRUE((*file)->ReadRecords(3, 1, &label).ok());
  EXPECT_EQ(label, 9);
}

TEST(IdxFileTest, WriteRejectsDataThatDoesNotMatchDims) {
  ScopedTempDir dir;
  stepscope::Status status = WriteIdxFile(dir.path() + "/x", {2, 2}, "abc");
  EXPECT_EQ(status.code(), stepscope::StatusCode::kInvalidArgument);
  EXPECT_FALSE(std::ifstream(dir.path() + "/x").good()) << "a failed write must not leave a file";
}

TEST(IdxFileTest, TruncatedAndPaddedFilesAreDataLoss) {
  ScopedTempDir dir;
  const std::string full = EncodeIdxHeader({3, 2}) + Pattern(6);
  WriteRaw(dir.path() + "/short", full.substr(0, full.size() - 1));
  WriteRaw(dir.path() + "/long", full + "x");
  for (const char* name : {"short", "long"}) {
    stepscope::StatusOr<std::unique_ptr<IdxFile>> file = IdxFile::Open(dir.path() + "/" + name);
    ASSERT_FALSE(file.ok()) << name;
    EXPECT_EQ(file.status().code(), stepscope::StatusCode::kDataLoss) << name;
    EXPECT_THAT(file.status().message(), HasSubstr("bytes, but the IDX header describes"));
  }
}

TEST(IdxFileTest, BadHeadersAreRejectedWithTheReason) {
  struct Case {
    std::string bytes;
    const char* reason;
  };
  const Case cases[] = {
      {std::string("\x00\x00", 2), "too short"},
      {std::string("\x01\x00\x08\x01\x00\x00\x00\x01", 8), "first two bytes must be zero"},
      {std::string("\x00\x00\x0d\x01\x00\x00\x00\x01", 8), "0x0d is not supported"},
      {std::string("\x00\x00\x08\x00", 4), "0 dimensions"},
      {std::string("\x00\x00\x08\x09", 4), "9 dimensions"},
      {std::string("\x00\x00\x08\x03\x00\x00\x00\x01", 8), "truncated IDX header"},
      {std::string("\x00\x00\x08\x02\x00\x00\x00\x01\x00\x00\x00\x00", 12), "dimension 1 is zero"},
  };
  for (const Case& c : cases) {
    stepscope::StatusOr<IdxHeader> header = ParseIdxHeader(c.bytes, "case");
    ASSERT_FALSE(header.ok()) << c.reason;
    EXPECT_THAT(header.status().message(), HasSubstr(c.reason));
  }
}

TEST(IdxFileTest, MissingFileIsNotFound) {
  ScopedTempDir dir;
  stepscope::StatusOr<std::unique_ptr<IdxFile>> file = IdxFile::Open(dir.path() + "/missing");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().code(), stepscope::StatusCode::kNotFound);
}

}  // namespace
}  // namespace mnist_mlp
