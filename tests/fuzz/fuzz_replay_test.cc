// Replays a checked-in corpus through a fuzz target's entry point in the normal build
// (no libFuzzer), so inputs that once crashed stay fixed. One test per corpus file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<std::string> CorpusFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(STEPSCOPE_FUZZ_CORPUS_DIR)) {
    if (entry.is_regular_file() && entry.path().filename() != "README.md") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FuzzReplayTest, EveryCorpusInputRunsCleanly) {
  const std::vector<std::string> files = CorpusFiles();
  ASSERT_GE(files.size(), 10u) << "corpus missing in " << STEPSCOPE_FUZZ_CORPUS_DIR;
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string bytes = buffer.str();
    EXPECT_EQ(LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), 0);
  }
}

}  // namespace
