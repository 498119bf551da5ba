#include "src/base/file_io.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace stepscope::base {
namespace {

std::string TempDir() {
  auto dir = std::filesystem::temp_directory_path() /
             ("stepscope_file_io_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(FileIoTest, AtomicWriteThenRead) {
  std::string path = TempDir() + "/a.bin";
  ASSERT_TRUE(WriteFileAtomically(path, "first").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "second").ok());
  auto data = ReadFile(path, 100);
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(*data, "second");
  // No temp files left behind.
  int files = 0;
  for (auto& e : std::filesystem::directory_iterator(TempDir())) files += e.path().filename() == "a.bin" ? 0 : 1;
  EXPECT_EQ(files, 0);
}

TEST(FileIoTest, FailedWriteKeepsOldFile) {
  std::string dir = TempDir();
  std::string path = dir + "/keep.bin";
  ASSERT_TRUE(WriteFileAtomically(path, "precious").ok());
  // Writing into a directory that does not exist fails and touches nothing.
  EXPECT_FALSE(WriteFileAtomically(dir + "/missing/x.bin", "data").ok());
  EXPECT_EQ(*ReadFile(path, 100), "precious");
}

TEST(FileIoTest, LimitsAndMissingFiles) {
  std::string path = TempDir() + "/big.bin";
  ASSERT_TRUE(WriteFileAtomically(path, std::string(1000, 'x')).ok());
  EXPECT_EQ(ReadFile(path, 999).status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(ReadFile(path + ".nope", 999).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(ReadFile(TempDir(), 999).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace stepscope::base
