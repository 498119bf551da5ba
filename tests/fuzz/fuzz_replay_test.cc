// Replays a checked-in corpus through a fuzz target's entry point (no libFuzzer), so
// inputs that once crashed stay fixed: in the normal build, and under ASan + UBSan in
// `./dev test`'s build/sanitize, which also sees the out-of-bounds reads and undefined
// behaviour a plain run goes through silently.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
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
    // A heap block of exactly the input's size, as libFuzzer passes it: ASan then reports a
    // read one byte past the end, which a std::string's spare capacity would hide.
    const size_t size = bytes.size();
    std::unique_ptr<uint8_t[]> data(new uint8_t[size]);
    std::memcpy(data.get(), bytes.data(), size);
    EXPECT_EQ(LLVMFuzzerTestOneInput(data.get(), size), 0);
  }
}

}  // namespace
