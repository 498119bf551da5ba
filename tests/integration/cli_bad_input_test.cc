// Bad input to `stepscope info`: every case must exit 2 with exactly one line on stderr of
// the form "stepscope: <path>: <problem>", never crash, and never pass off a damaged file
// as a good one.
//
// What truncation can and cannot be detected: an .xplane.pb is one XSpace message whose
// top-level fields (planes, then errors, warnings, hostnames) are each length-prefixed.
// A cut inside any field leaves a length prefix pointing past the end, which the parser
// rejects. A cut exactly between two top-level fields leaves a well-formed, smaller XSpace
// (the first k planes) that no reader can tell from a real one; for those cuts info must
// succeed and report exactly the planes that remain. Cuts of gzip files are always caught
// (the gzip trailer is missing).
#include <google/protobuf/stubs/logging.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <random>
#include <set>

#include "src/base/gzip.h"
#include "src/xspace/xspace_io.h"
#include "tests/integration/subprocess.h"
#include "tests/integration/test_util.h"

namespace stepscope::testing {
namespace {

// Offsets where a top-level field of the serialized XSpace ends, each with the number
// of complete planes (field 1) before it. Decoded by hand from the wire format, without
// protobuf, so the test does not trust the parser it checks.
std::vector<std::pair<size_t, int>> TopLevelBoundaries(const std::string& bytes) {
  std::vector<std::pair<size_t, int>> out = {{0, 0}};
  size_t pos = 0;
  int planes = 0;
  auto varint = [&](uint64_t* value) {
    *value = 0;
    for (int shift = 0; pos < bytes.size() && shift < 64; shift += 7) {
      uint8_t b = static_cast<uint8_t>(bytes[pos++]);
      *value |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return true;
    }
    return false;
  };
  while (pos < bytes.size()) {
    uint64_t tag = 0, length = 0;
    if (!varint(&tag)) break;
    switch (tag & 7) {
      case 0: varint(&length); break;
      case 1: pos += 8; break;
      case 2: varint(&length); pos += length; break;
      case 5: pos += 4; break;
      default: ADD_FAILURE() << "unexpected wire type at " << pos; return out;
    }
    if ((tag >> 3) == 1) ++planes;
    out.emplace_back(pos, planes);
  }
  EXPECT_EQ(pos, bytes.size());
  return out;
}

void ExpectOneErrorLine(const ProcessResult& r, const std::string& path) {
  EXPECT_FALSE(r.signaled) << "killed by signal " << r.signal;
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.ErrLines(), 1) << r.err;
  EXPECT_EQ(r.err.rfind("stepscope: " + path + ": ", 0), 0u) << r.err;
}

// In-process sweep over many cut points of every real file, with the same parser and
// checks the binary uses.
TEST(CliBadInputTest, EveryTruncationIsRejectedOrReportsExactlyTheCompletePlanes) {
  for (const std::string& path : AllXPlaneTestFiles()) {
    const std::string bytes = ReadBytes(path);
    const auto boundaries = TopLevelBoundaries(bytes);
    std::map<size_t, int> planes_at;
    for (const auto& [offset, planes] : boundaries) planes_at[offset] = planes;
    std::set<size_t> cuts;
    for (size_t c = 0; c < 64 && c < bytes.size(); ++c) cuts.insert(c);
    const size_t stride = std::max<size_t>(bytes.size() / 150, 1);
    for (size_t c = 0; c < bytes.size(); c += stride) cuts.insert(c);
    for (const auto& [offset, planes] : boundaries) {
      for (size_t c : {offset - 1, offset, offset + 1}) {
        if (c < bytes.size()) cuts.insert(c);  // offset - 1 wraps for 0: skipped
      }
    }
    int accepted = 0, rejected = 0;
    for (size_t cut : cuts) {
      auto space = xspace::ParseXSpace(std::string_view(bytes).substr(0, cut), "cut");
      auto boundary = planes_at.find(cut);
      if (boundary != planes_at.end() && boundary->second > 0) {
        ASSERT_TRUE(space.ok()) << path << " cut at field boundary " << cut << ": " << space.status().ToString();
        EXPECT_EQ(space->planes_size(), boundary->second) << path << " cut " << cut;
        ++accepted;
      } else {
        EXPECT_FALSE(space.ok()) << path << " accepted a cut at " << cut << " of " << bytes.size();
        ++rejected;
      }
    }
    EXPECT_GT(rejected, 100) << path;
    EXPECT_GT(accepted, 0) << path;
  }
}

TEST(CliBadInputTest, TruncatedFilesThroughTheBinary) {
  const std::string bytes = ReadBytes(TfDemoFile());
  const auto boundaries = TopLevelBoundaries(bytes);
  ASSERT_EQ(boundaries.size(), 11u);  // start, 9 planes, 1 hostname
  std::string dir = FreshDir("truncated");
  for (size_t cut : {size_t{1}, size_t{2}, size_t{10}, size_t{1000}, bytes.size() / 3, bytes.size() / 2,
                     bytes.size() - 1, boundaries[3].first - 1}) {
    std::string path = dir + "/cut_" + std::to_string(cut) + ".xplane.pb";
    WriteBytes(path, bytes.substr(0, cut));
    SCOPED_TRACE(path);
    ProcessResult r = RunStepscope({"info", path});
    ExpectOneErrorLine(r, path);
    EXPECT_NE(r.err.find("truncated"), std::string::npos);
    EXPECT_TRUE(r.out.empty());
  }
  // Cut after plane 5 and after the last plane (hostnames lost): well-formed XSpaces,
  // reported with exactly the planes they still hold.
  for (int k : {5, 9}) {
    std::string path = dir + "/planes_" + std::to_string(k) + ".xplane.pb";
    WriteBytes(path, bytes.substr(0, boundaries[k].first));
    ProcessResult r = RunStepscope({"info", "--format=json", path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_EQ(parser.parse(r.out).get(doc), simdjson::SUCCESS);
    EXPECT_EQ(int64_t(doc["file"]["num_planes"]), k);
    EXPECT_EQ(simdjson::dom::array(doc["file"]["hostnames"]).size(), 0u);  // shown as "(none recorded)"
  }
}

TEST(CliBadInputTest, TruncatedGzipIsAlwaysRejected) {
  auto gz = base::Gzip(ReadBytes(XPlaneTestDataDir() + "/tracelens_jax_mi300_te_fused_attn.xplane.pb"));
  ASSERT_TRUE(gz.ok());
  for (size_t cut = 0; cut < gz->size(); cut += std::max<size_t>(gz->size() / 200, 1)) {
    EXPECT_FALSE(xspace::ParseXSpace(std::string_view(*gz).substr(0, cut), "gz").ok()) << cut;
  }
  for (size_t cut : {size_t{3}, gz->size() / 2, gz->size() - 4, gz->size() - 1}) {
    EXPECT_FALSE(xspace::ParseXSpace(std::string_view(*gz).substr(0, cut), "gz").ok()) << cut;
  }
  std::string path = FreshDir("gzcut") + "/h.xplane.pb.gz";
  WriteBytes(path, gz->substr(0, gz->size() - 1));
  ProcessResult r = RunStepscope({"info", path});
  ExpectOneErrorLine(r, path);
  EXPECT_NE(r.err.find("gzip data is truncated"), std::string::npos) << r.err;
}

TEST(CliBadInputTest, RandomGarbageIsRejected) {
  google::protobuf::LogSilencer quiet;  // invalid UTF-8 in strings makes protobuf log
  std::mt19937 rng(20261121);
  for (int i = 0; i < 2000; ++i) {
    std::string bytes(1 + rng() % 4096, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    EXPECT_FALSE(xspace::ParseXSpace(bytes, "garbage").ok()) << "seed index " << i;
  }
  std::string dir = FreshDir("garbage");
  for (int i = 0; i < 4; ++i) {
    std::string bytes(1 + rng() % 65536, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    std::string path = dir + "/g" + std::to_string(i) + ".xplane.pb";
    WriteBytes(path, bytes);
    SCOPED_TRACE(path);
    ExpectOneErrorLine(RunStepscope({"info", path}), path);
  }
  // A well-formed XSpace whose plane name is not UTF-8: protobuf rejects it (proto3
  // strings) and would log about it; the user still sees only our one line.
  std::string utf8 = dir + "/bad_utf8.xplane.pb";
  WriteBytes(utf8, std::string("\x0a\x04\x12\x02\xff\xfe", 6));
  ExpectOneErrorLine(RunStepscope({"info", utf8}), utf8);
  std::string text = dir + "/text.xplane.pb";
  WriteBytes(text, "this is a text file, not a profile\n");
  ExpectOneErrorLine(RunStepscope({"info", text}), text);
}

TEST(CliBadInputTest, EmptyFile) {
  std::string path = FreshDir("empty") + "/empty.xplane.pb";
  WriteBytes(path, "");
  ProcessResult r = RunStepscope({"info", path});
  ExpectOneErrorLine(r, path);
  EXPECT_NE(r.err.find("no XSpace planes"), std::string::npos) << r.err;
}

// A logdir whose only run holds no profile file (a writer killed before its first rename,
// or files of another kind): each command says so, none crashes.
TEST(CliBadInputTest, ALogdirWithoutAProfileFile) {
  std::string logdir = FreshDir("no_profile_file");
  std::filesystem::create_directories(logdir + "/plugins/profile/run");
  WriteBytes(logdir + "/plugins/profile/run/h.xplane.pb.tmp.4242.0", "half");
  ProcessResult analyzed = RunStepscope({"analyze", logdir});  // it crashed on the empty run list
  ExpectOneErrorLine(analyzed, logdir);
  EXPECT_NE(analyzed.err.find("holds no profile runs"), std::string::npos) << analyzed.err;
  ProcessResult listed = RunStepscope({"info", logdir});
  EXPECT_FALSE(listed.signaled);
  EXPECT_NE(listed.out.find("no .xplane.pb files"), std::string::npos) << listed.out;
}

// 256 MiB of zeros in 15 KB: concatenated gzip members, each 8 MiB of zeros. With a
// 16 MiB limit the read must stop at the limit, not inflate everything.
TEST(CliBadInputTest, GzipBombStopsAtTheLimit) {
  auto member = base::Gzip(std::string(8 << 20, '\0'), 9);
  ASSERT_TRUE(member.ok());
  std::string bomb;
  for (int i = 0; i < 32; ++i) bomb += *member;
  ASSERT_LT(bomb.size(), 512u << 10);
  std::string path = FreshDir("bomb") + "/bomb.xplane.pb";
  WriteBytes(path, bomb);
  ProcessResult r = RunStepscope({"info", "--max_file_mb", "16", path});
  ExpectOneErrorLine(r, path);
  EXPECT_NE(r.err.find("expands past the limit of 16777216 bytes"), std::string::npos) << r.err;
  // The same limit applies to plain files.
  ProcessResult big = RunStepscope({"info", "--max_file_mb=1", TfDemoFile()});
  ExpectOneErrorLine(big, TfDemoFile());
  EXPECT_NE(big.err.find("exceeds the limit of 1048576"), std::string::npos) << big.err;
}

TEST(CliBadInputTest, MissingPathsAndDirectoriesWithoutRuns) {
  std::string dir = FreshDir("dirs");
  std::string missing = dir + "/does_not_exist";
  ProcessResult r = RunStepscope({"info", missing});
  ExpectOneErrorLine(r, missing);
  EXPECT_NE(r.err.find("no such file or directory"), std::string::npos) << r.err;

  std::string empty_dir = dir + "/empty";
  std::filesystem::create_directories(empty_dir + "/sub/deeper");
  ProcessResult e = RunStepscope({"info", empty_dir});
  ExpectOneErrorLine(e, empty_dir);
  EXPECT_NE(e.err.find("holds no profile"), std::string::npos) << e.err;

  std::string no_runs = dir + "/no_runs";
  std::filesystem::create_directories(no_runs + "/plugins/profile");
  ProcessResult n = RunStepscope({"info", no_runs});
  ExpectOneErrorLine(n, no_runs);
  EXPECT_NE(n.err.find("no profile runs"), std::string::npos) << n.err;
}

TEST(CliBadInputTest, OneCorruptHostInALogdirFailsTheCommandButListsTheRest) {
  std::string logdir = FreshDir("mixed");
  std::string run = logdir + "/plugins/profile/run1";
  WriteBytes(run + "/good.xplane.pb", ReadBytes(TfDemoFile()));
  std::string bad = run + "/bad.xplane.pb";
  WriteBytes(bad, ReadBytes(TfDemoFile()).substr(0, 5000));
  for (const std::string& target : {logdir, run}) {
    SCOPED_TRACE(target);
    ProcessResult r = RunStepscope({"info", target});
    ExpectOneErrorLine(r, bad);
    EXPECT_NE(r.out.find("good"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("23128"), std::string::npos) << r.out;
  }
}

TEST(CliBadInputTest, UsageErrors) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"info"}, {"info", "a", "b"}, {"info", "--frob", TfDemoFile()}, {"info", "--format", "xml", TfDemoFile()},
           {"info", "--max_file_mb", "0", TfDemoFile()}, {"info", TfDemoFile(), "--format"}}) {
    ProcessResult r = RunStepscope(args);
    EXPECT_EQ(r.exit_code, 2) << args.back();
    EXPECT_EQ(r.ErrLines(), 1) << r.err;
    EXPECT_EQ(r.err.rfind("stepscope: info: ", 0), 0u) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  ProcessResult unknown = RunStepscope({"frobnicate"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.err, "stepscope: frobnicate: unknown command (see stepscope help)\n");
}

}  // namespace
}  // namespace stepscope::testing
