// Every command refuses the same bad files the same way (issue 10, item 4): `info` reads
// with the protobuf reader, `analyze` and `convert` with the streaming columnar reader;
// both apply src/xspace/read_rules.h, so an empty, all-zero, bit-flipped or gzip-bomb
// file is an error (exit 2, one line naming the file) from each of them, never "no steps"
// with exit 0 or gigabytes of memory. Also the import side: pipes, all-dropped traces,
// trailing garbage after a gzip stream.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <thread>

#include "src/base/gzip.h"
#include "src/base/testing/gzip_bomb.h"
#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/xspace_io.h"
#include "tests/integration/subprocess.h"
#include "tests/integration/test_util.h"

namespace stepscope::testing {
namespace {
namespace fs = std::filesystem;

// The commands that read a profile file, each as the arguments before/after the path.
struct ReadingCommand {
  std::string name;
  std::vector<std::string> Args(const std::string& path, const std::string& scratch) const {
    if (name == "convert") return {"convert", path, "--to", "chrome", "-o", scratch + "/out.json"};
    if (name == "analyze") return {"analyze", path, "--tool", "overview_page"};
    return {name, path};
  }
};

const std::vector<ReadingCommand>& ReadingCommands() {
  static const std::vector<ReadingCommand> commands = {{"info"}, {"analyze"}, {"convert"}};
  return commands;
}

// Runs every reading command on `path` and expects the same refusal from each: exit 2,
// one stderr line naming the file and containing `expected`, nothing written.
void ExpectEveryCommandRefuses(const std::string& path, const std::string& expected) {
  std::string scratch = FreshDir("scratch");
  for (const ReadingCommand& command : ReadingCommands()) {
    SCOPED_TRACE(command.name + " " + path);
    ProcessResult r = RunStepscope(command.Args(path, scratch));
    EXPECT_FALSE(r.signaled) << "killed by signal " << r.signal;
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_EQ(r.ErrLines(), 1) << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(scratch + "/out.json"));
  }
}

TEST(CliSameRefusalTest, EmptyAndAllZeroFiles) {
  std::string dir = FreshDir("same_refusal_empty");
  WriteBytes(dir + "/empty.xplane.pb", "");
  ExpectEveryCommandRefuses(dir + "/empty.xplane.pb", "no XSpace planes");
  // Zero bytes are tag 0, which no protobuf field has.
  WriteBytes(dir + "/zeros.xplane.pb", std::string(4096, '\0'));
  ExpectEveryCommandRefuses(dir + "/zeros.xplane.pb", "zeros.xplane.pb");
  auto gz = base::Gzip("");
  ASSERT_TRUE(gz.ok());
  WriteBytes(dir + "/empty_gz.xplane.pb.gz", *gz);
  ExpectEveryCommandRefuses(dir + "/empty_gz.xplane.pb.gz", "no XSpace planes");
}

// A 4 GiB gzip bomb in a ~4 MB file: refused early as a bomb by every command, without
// inflating it (today's analyze took 8.4 GB and 54 s on it).
TEST(CliSameRefusalTest, GzipBombIsRefusedByEveryCommand) {
  std::string dir = FreshDir("same_refusal_bomb");
  std::string path = dir + "/bomb.xplane.pb.gz";
  WriteBytes(path, base::testing::MakeZeroGzipBomb(uint64_t{4} << 30));
  ASSERT_LT(fs::file_size(path), 8u << 20);
  ExpectEveryCommandRefuses(path, "gzip bomb");
}

std::string FlipBit(std::string bytes, std::mt19937_64& rng) {
  std::uniform_int_distribution<size_t> byte(0, bytes.size() - 1);
  size_t at = byte(rng);
  bytes[at] = static_cast<char>(bytes[at] ^ (1 << (rng() % 8)));
  return bytes;
}

// The two decoders agree on every single-bit flip of a real file: what the protobuf decoder
// (kept as an independent check) rejects, the streaming reader every command uses
// (info, analyze, convert, serve) rejects, and the reverse.
TEST(CliSameRefusalTest, BothReadersAgreeOnBitFlippedFiles) {
  const std::string good = ReadBytes(XPlaneTestDataDir() + "/tracelens_jax_mi300_te_fused_attn.xplane.pb");
  ASSERT_FALSE(good.empty());
  std::mt19937_64 rng(20261124);
  int rejected = 0;
  for (int i = 0; i < 300; ++i) {
    const std::string flipped = FlipBit(good, rng);
    StatusOr<xspace::XSpace> proto = xspace::ParseXSpace(flipped, "flipped");
    StatusOr<xspace::ColumnarXSpace> columnar = xspace::ParseColumnarXSpace(flipped, "flipped");
    ASSERT_EQ(proto.ok(), columnar.ok()) << "flip " << i << ": protobuf reader says "
                                         << (proto.ok() ? "ok" : proto.status().ToString()) << ", columnar says "
                                         << (columnar.ok() ? "ok" : columnar.status().ToString());
    if (!proto.ok()) ++rejected;
  }
  EXPECT_GT(rejected, 10);  // the sample exercises refusals, not only harmless flips
}

TEST(CliSameRefusalTest, ABitFlipThatInfoRejectsIsRejectedByEveryCommand) {
  const std::string good = ReadBytes(XPlaneTestDataDir() + "/tracelens_jax_mi300_te_fused_attn.xplane.pb");
  std::mt19937_64 rng(7);
  std::string dir = FreshDir("same_refusal_flip");
  int checked = 0;
  for (int i = 0; i < 200 && checked < 3; ++i) {
    std::string flipped = FlipBit(good, rng);
    if (xspace::ParseXSpace(flipped, "flipped").ok()) continue;
    std::string path = dir + "/flip" + std::to_string(i) + ".xplane.pb";
    WriteBytes(path, flipped);
    ExpectEveryCommandRefuses(path, "flip" + std::to_string(i));
    ++checked;
  }
  EXPECT_EQ(checked, 3);
}

std::string TinyTrace() {
  return R"({"traceEvents": [{"ph": "X", "name": "step", "ts": 1, "dur": 5, "pid": 1, "tid": 1},
                             {"ph": "X", "name": "matmul", "ts": 2, "dur": 2, "pid": 1, "tid": 1}]})";
}

// A FIFO (what `<(zcat trace.json.gz)` gives) is read once, as a stream: it used to be
// opened twice (sniff, then import) and block forever or look empty.
TEST(CliImportStreamTest, FifoIsReadAsAStream) {
  std::string dir = FreshDir("import_fifo");
  std::string fifo = dir + "/trace.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { WriteBytes(fifo, TinyTrace()); });
  ProcessResult r = RunStepscope({"import", fifo, "--logdir", dir + "/logdir", "--run", "piped"});
  writer.join();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2 events read"), std::string::npos) << r.out;
  StatusOr<xspace::XSpace> space = xspace::ReadXSpaceFile(dir + "/logdir/plugins/profile/piped/trace.xplane.pb");
  EXPECT_TRUE(space.ok()) << space.status().ToString();
}

// `stepscope import <(gzip -c trace.json)`: bash's process substitution, a /dev/fd/N pipe.
TEST(CliImportStreamTest, ProcessSubstitutionIsReadAsAStream) {
  std::string dir = FreshDir("import_substitution");
  WriteBytes(dir + "/trace.json", TinyTrace());
  const std::string script = std::string("exec '") + STEPSCOPE_CLI_PATH + "' import <(gzip -c '" + dir +
                             "/trace.json') --logdir '" + dir + "/logdir' --run piped";
  ProcessResult r = RunProcess({"/bin/bash", "-c", script});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2 events read"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir + "/logdir/plugins/profile/piped"));
}

// Every event dropped: an error with the reasons, and no unreadable file written.
TEST(CliImportStreamTest, ATraceWhoseEveryEventIsDroppedFailsWithTheReasons) {
  std::string dir = FreshDir("import_all_dropped");
  WriteBytes(dir + "/bad_ts.json",
             R"({"traceEvents": [{"ph": "X", "name": "a", "ts": 1e30, "dur": 1, "pid": 1, "tid": 1},
                                 {"ph": "X", "name": "b", "ts": -1e30, "dur": 1, "pid": 1, "tid": 1}]})");
  ProcessResult r = RunStepscope({"import", dir + "/bad_ts.json", "--logdir", dir + "/logdir"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.ErrLines(), 1) << r.err;
  EXPECT_NE(r.err.find("nothing to import"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("dropped: 2 x"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/logdir/plugins"));
  WriteBytes(dir + "/no_events.json", R"({"traceEvents": []})");
  ProcessResult none = RunStepscope({"import", dir + "/no_events.json", "--logdir", dir + "/logdir"});
  EXPECT_EQ(none.exit_code, 2) << none.err;
  EXPECT_NE(none.err.find("holds no events"), std::string::npos) << none.err;
  EXPECT_FALSE(fs::exists(dir + "/logdir/plugins"));
}

TEST(CliImportStreamTest, TruncatedGzipAndTrailingGarbageAreNamed) {
  std::string dir = FreshDir("import_gz_damage");
  auto gz = base::Gzip(TinyTrace());
  ASSERT_TRUE(gz.ok());
  WriteBytes(dir + "/trail.json.gz", *gz + "GARBAGE AFTER THE STREAM");
  ProcessResult trail = RunStepscope({"import", dir + "/trail.json.gz", "--logdir", dir + "/logdir"});
  EXPECT_EQ(trail.exit_code, 2) << trail.err;
  EXPECT_NE(trail.err.find("trailing garbage"), std::string::npos) << trail.err;
  WriteBytes(dir + "/cut.json.gz", gz->substr(0, gz->size() - 6));
  ProcessResult cut = RunStepscope({"import", dir + "/cut.json.gz", "--logdir", dir + "/logdir"});
  EXPECT_EQ(cut.exit_code, 2) << cut.err;
  EXPECT_NE(cut.err.find("truncated"), std::string::npos) << cut.err;
  EXPECT_FALSE(fs::exists(dir + "/logdir/plugins"));
}

}  // namespace
}  // namespace stepscope::testing
