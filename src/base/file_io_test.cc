#include "src/base/file_io.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>

#include "src/base/testing/file_size_limit.h"
#include "src/base/testing/fresh_dir.h"

namespace stepscope::base {
namespace {

// An empty scratch directory of this test's own (base::FreshTestDir).
std::string FreshDir(const std::string& name) { return base::FreshTestDir("file_io_test", name); }

TEST(FileIoTest, AtomicWriteThenRead) {
  const std::string dir = FreshDir("atomic");
  std::string path = dir + "/a.bin";
  ASSERT_TRUE(WriteFileAtomically(path, "first").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "second").ok());
  auto data = ReadFile(path, 100);
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(*data, "second");
  // No temp files left behind.
  int files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) files += e.path().filename() == "a.bin" ? 0 : 1;
  EXPECT_EQ(files, 0);
}

TEST(FileIoTest, FailedWriteKeepsOldFile) {
  std::string dir = FreshDir("keep");
  std::string path = dir + "/keep.bin";
  ASSERT_TRUE(WriteFileAtomically(path, "precious").ok());
  // Writing into a directory that does not exist fails and touches nothing.
  EXPECT_FALSE(WriteFileAtomically(dir + "/missing/x.bin", "data").ok());
  EXPECT_EQ(*ReadFile(path, 100), "precious");
}

TEST(FileIoTest, FailedWriteKeepsOldFileAndSaysWhy) {
  const std::string dir = FreshDir("why");
  // A path that cannot be used is the caller's problem, not the disk's.
  EXPECT_EQ(WriteFileAtomically(dir + "/missing/x.bin", "data").code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(WriteFileAtomically(dir + "/plain.bin", "x").ok());
  EXPECT_EQ(CreateDirectories(dir + "/plain.bin/sub").code(), StatusCode::kInvalidArgument);
  // The OS would read "x" of "x\0y": refused, nothing created.
  EXPECT_EQ(CreateDirectories(dir + std::string("/x\0y", 4)).code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(std::filesystem::exists(dir + "/x"));
  EXPECT_EQ(OutputFileError(ENOSPC, "full").code(), StatusCode::kIoError);
  EXPECT_EQ(OutputFileError(EIO, "broken").code(), StatusCode::kIoError);
  EXPECT_EQ(OutputFileError(EACCES, "not yours").code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(OutputFileError(EROFS, "read-only mount").code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(OutputFileError(ENOTDIR, "a file in the way").code(), StatusCode::kInvalidArgument);
}

// A disk that fills up mid-write: 64 KiB written in a child limited to 4 KiB of file.
TEST(FileIoTest, DiskFullIsAnIoErrorAndLeavesNothingBehind) {
  const std::string dir = FreshDir("full");
  const std::string path = dir + "/full.bin";
  ASSERT_TRUE(WriteFileAtomically(path, "precious").ok());
  const int code = ExitCodeWithFileSizeLimit(4096, [&] {
    return static_cast<int>(WriteFileAtomically(path, std::string(64 << 10, 'x')).code());
  });
  EXPECT_EQ(code, static_cast<int>(StatusCode::kIoError));
  EXPECT_EQ(*ReadFile(path, 100), "precious");
  int files = 0;  // full.bin, and no full.bin.tmp.*
  for (auto& e : std::filesystem::directory_iterator(dir)) files += e.path().filename().string().rfind("full.bin", 0) == 0;
  EXPECT_EQ(files, 1);
}

TEST(FileIoTest, LimitsAndMissingFiles) {
  const std::string dir = FreshDir("limits");
  std::string path = dir + "/big.bin";
  ASSERT_TRUE(WriteFileAtomically(path, std::string(1000, 'x')).ok());
  EXPECT_EQ(ReadFile(path, 999).status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(ReadFile(path + ".nope", 999).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(ReadFile(dir, 999).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace stepscope::base
