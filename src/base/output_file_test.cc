#include "src/base/output_file.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "src/base/file_io.h"
#include "src/base/gzip.h"
#include "src/base/testing/file_size_limit.h"
#include "src/base/testing/fresh_dir.h"

namespace stepscope::base {
namespace {

namespace fs = std::filesystem;

// An empty scratch directory of this test's own (base::FreshTestDir).
std::string FreshDir(const std::string& name) { return base::FreshTestDir("output_file_test", name); }

// File names in `dir`, sorted: what a reader of the directory would see.
std::vector<std::string> Names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(OutputFileTest, WithoutReplaceAnExistingFileWinsAndStaysWhole) {
  const std::string dir = FreshDir("no_replace");
  const std::string path = dir + "/out.bin";
  ASSERT_TRUE(WriteOutputFile(path, {.replace = false}, [](OutputFile* f) {
                f->Write("first");
                return OkStatus();
              }).ok());
  Status second = WriteOutputFile(path, {.replace = false}, [](OutputFile* f) {
    f->Write("second");
    return OkStatus();
  });
  EXPECT_EQ(second.code(), StatusCode::kAlreadyExists) << second.ToString();
  EXPECT_EQ(*ReadFile(path, 100), "first");
  EXPECT_EQ(Names(dir), std::vector<std::string>{"out.bin"}) << "no temporary file left";
}

// kill -9 during a write leaves "<name>.tmp.<pid>.<n>": removed once its writer is dead
// and it is old; a live writer's, a fresh one and other files stay.
TEST(OutputFileTest, StaleTemporaryFilesOfDeadWritersAreRemoved) {
  const std::string dir = FreshDir("stale");
  pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ASSERT_GT(dead, 0);
  ::waitpid(dead, nullptr, 0);  // reaped: the pid names no process now
  const std::string dead_old = "a.xplane.pb.tmp." + std::to_string(dead) + ".0";
  const std::string dead_fresh = "b.xplane.pb.tmp." + std::to_string(dead) + ".1";
  const std::string live_old = "c.xplane.pb.tmp." + std::to_string(::getppid()) + ".0";
  for (const std::string& name : {dead_old, dead_fresh, live_old, std::string("d.xplane.pb"),
                                  std::string("e.tmp.x.0"), std::string("f.tmp.1.")}) {
    ASSERT_TRUE(WriteFileAtomically(dir + "/" + name, "bytes").ok());
  }
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (const std::string& name : {dead_old, live_old, std::string("d.xplane.pb"), std::string("e.tmp.x.0")}) {
    fs::last_write_time(dir + "/" + name, old);
  }
  EXPECT_EQ(RemoveStaleTemporaryFiles(dir), 1);
  EXPECT_EQ(Names(dir), (std::vector<std::string>{dead_fresh, live_old, "d.xplane.pb", "e.tmp.x.0", "f.tmp.1."}));
  EXPECT_EQ(RemoveStaleTemporaryFiles(dir + "/missing"), 0);
}

TEST(OutputFileTest, TheOldFileStaysUntilCloseReplacesIt) {
  const std::string dir = FreshDir("replace");
  const std::string path = dir + "/out.bin";
  ASSERT_TRUE(WriteFileAtomically(path, "old").ok());
  auto file = OutputFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_TRUE((*file)->Write("new "));
  ASSERT_TRUE((*file)->Write("bytes"));
  EXPECT_EQ(*ReadFile(path, 100), "old");
  EXPECT_EQ(Names(dir).size(), 2u);  // out.bin and its temporary file
  ASSERT_TRUE((*file)->Close().ok());
  EXPECT_EQ(*ReadFile(path, 100), "new bytes");
  EXPECT_EQ(Names(dir), std::vector<std::string>{"out.bin"});
}

TEST(OutputFileTest, GzipByNameOrByOption) {
  const std::string dir = FreshDir("gzip");
  const std::string text(100000, 'a');
  for (const auto& [path, options] : {std::pair{dir + "/by_name.json.gz", OutputFileOptions{}},
                                      std::pair{dir + "/by_option.pb", OutputFileOptions{.gzip = true, .sync = true}}}) {
    auto file = path.ends_with(".gz") ? OutputFile::Open(path) : OutputFile::Open(path, options);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->Write(text));
    ASSERT_TRUE((*file)->Close().ok());
    std::string bytes = *ReadFile(path, 1 << 20);
    ASSERT_TRUE(IsGzip(bytes)) << path;
    EXPECT_LT(bytes.size(), text.size() / 10);
    auto inflated = GunzipWithLimit(bytes, InflateLimits{});
    ASSERT_TRUE(inflated.ok());
    EXPECT_EQ(*inflated, text);
  }
  // Without the option or the suffix the bytes are written as they are.
  auto plain = OutputFile::Open(dir + "/plain.pb", {});
  ASSERT_TRUE(plain.ok());
  ASSERT_TRUE((*plain)->Write(text));
  ASSERT_TRUE((*plain)->Close().ok());
  EXPECT_EQ(*ReadFile(dir + "/plain.pb", 1 << 20), text);
}

TEST(OutputFileTest, AbandonedFileLeavesNothingAndTheOldFileWhole) {
  const std::string dir = FreshDir("abandon");
  const std::string path = dir + "/out.bin";
  ASSERT_TRUE(WriteFileAtomically(path, "precious").ok());
  {
    auto file = OutputFile::Open(path, {.sync = true});
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->Write("half"));
  }
  EXPECT_EQ(*ReadFile(path, 100), "precious");
  EXPECT_EQ(Names(dir), std::vector<std::string>{"out.bin"});
}

TEST(OutputFileTest, TwoWritersOfOnePathEachHaveTheirOwnTemporaryFile) {
  const std::string dir = FreshDir("two");
  const std::string path = dir + "/out.bin";
  auto first = OutputFile::Open(path);
  auto second = OutputFile::Open(path);
  ASSERT_TRUE(first.ok() && second.ok());
  ASSERT_TRUE((*first)->Write("first"));
  ASSERT_TRUE((*second)->Write("second"));
  ASSERT_TRUE((*first)->Close().ok());
  EXPECT_EQ(*ReadFile(path, 100), "first");
  ASSERT_TRUE((*second)->Close().ok());
  EXPECT_EQ(*ReadFile(path, 100), "second");
  EXPECT_EQ(Names(dir), std::vector<std::string>{"out.bin"});
}

TEST(OutputFileTest, APathThatCannotBeCreatedIsInvalidArgument) {
  const std::string dir = FreshDir("missing");
  auto file = OutputFile::Open(dir + "/no/such/dir/out.bin");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(file.status().message().find("no/such/dir/out.bin"), std::string::npos);
}

// A disk that fills up mid-write: 1 MiB streamed in a child limited to 4 KiB of file. Its
// exit code is what Close() returned, or 99 when no write reported the failure.
TEST(OutputFileTest, DiskFullIsAnIoErrorAndLeavesTheOldFile) {
  const std::string dir = FreshDir("full");
  const std::string path = dir + "/out.bin";
  ASSERT_TRUE(WriteFileAtomically(path, "precious").ok());
  const int code = ExitCodeWithFileSizeLimit(4096, [&] {
    auto file = OutputFile::Open(path, {.sync = true});
    if (!file.ok()) return 101;
    bool all_written = true;
    for (int i = 0; i < 16; ++i) all_written = (*file)->Write(std::string(64 << 10, 'x')) && all_written;
    Status closed = (*file)->Close();
    return all_written || !(*file)->failed() ? 99 : static_cast<int>(closed.code());
  });
  EXPECT_EQ(code, static_cast<int>(StatusCode::kIoError));
  EXPECT_EQ(*ReadFile(path, 100), "precious");
  EXPECT_EQ(Names(dir), std::vector<std::string>{"out.bin"});
}

}  // namespace
}  // namespace stepscope::base
