// Typed typos on every command's flags (src/cli/flags.h, over CLI11): exit 2 and exactly one
// line on stderr that names the command, the flag and the bad value. Checked on the real
// binary, before any input is read, so the paths in these command lines need not exist.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/integration/subprocess.h"

namespace stepscope::testing {
namespace {

struct Typo {
  std::vector<std::string> args;  // the command first
  std::vector<std::string> named;  // what the error line must contain
};

std::string Joined(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& arg : args) out += (out.empty() ? "" : " ") + arg;
  return out;
}

TEST(CliFlagsTest, TypedTyposExitTwoWithOneLineNamingTheFlag) {
  const Typo typos[] = {
      {{"info", "p.xplane.pb", "--format", "xml"}, {"--format", "'xml'", "text, json"}},
      {{"info", "p.xplane.pb", "--max_file_mb=abc"}, {"--max_file_mb", "'abc'"}},
      {{"info", "p.xplane.pb", "--max_file_mb", "0"}, {"--max_file_mb", "an integer in [1, ", "'0'"}},
      {{"capture", "grpc://localhost:1", "--logdir", "d", "--duration_ms", "abc"}, {"--duration_ms", "'abc'"}},
      {{"capture", "grpc://localhost:1", "--logdir", "d", "--retries"}, {"--retries needs a value"}},
      {{"capture", "grpc://localhost:1", "--logdir", "--duration_ms", "5"}, {"--logdir needs a value"}},
      {{"analyze", "p.xplane.pb", "--format", "xml"}, {"--format", "'xml'", "text, json, csv"}},
      {{"analyze", "p.xplane.pb", "--frob"}, {"unknown flag --frob"}},
      {{"analyze", "p.xplane.pb", "-tool", "x"}, {"unknown flag -tool"}},
      {{"analyze", "p.xplane.pb", "--include_idle=maybe"}, {"--include_idle", "'maybe'"}},
      {{"serve", "--logdir", "d", "--port", "99999"}, {"--port", "'99999'", "[0, 65535]"}},
      {{"serve", "--logdir", "d", "--threads"}, {"--threads needs a value"}},
      {{"import", "t.json", "--format", "xml"}, {"--format", "'xml'", "kineto_json"}},
      {{"import", "t.json", "--allow_truncated=2"}, {"--allow_truncated", "'2'"}},
      {{"convert", "p.xplane.pb", "--to", "xml", "-o", "out.json"}, {"--to", "'xml'", "chrome, perfetto"}},
      {{"convert", "p.xplane.pb", "--to", "chrome", "-o"}, {"--output needs a value"}},
  };
  for (const Typo& typo : typos) {
    SCOPED_TRACE(Joined(typo.args));
    const ProcessResult r = RunStepscope(typo.args);
    EXPECT_FALSE(r.signaled);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.ErrLines(), 1) << r.err;
    EXPECT_EQ(r.err.rfind("stepscope: " + typo.args[0] + ": ", 0), 0u) << r.err;
    for (const std::string& part : typo.named) EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST(CliFlagsTest, HelpWinsOverBadFlagsAndEveryFormIsAccepted) {
  for (const std::string command : {"info", "capture", "analyze", "mcp", "serve", "import", "convert"}) {
    SCOPED_TRACE(command);
    for (const std::string help : {"-h", "--help"}) {
      const ProcessResult r = RunStepscope({command, "--frob", help});
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_NE(r.out.find("usage: stepscope " + command), std::string::npos) << r.out;
      EXPECT_NE(r.out.find("flags:\n"), std::string::npos) << r.out;
    }
  }
  // --name value, --name=value, -o, -o=, --bool=false and "--" reach the command: these
  // fail only on the (missing) input, after every flag was accepted.
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"info", "--format", "json", "--max_file_mb=10", "--", "missing.xplane.pb"},
           {"analyze", "--format=json", "--include_idle=false", "--tool", "overview_page", "missing.xplane.pb"},
           {"convert", "missing.xplane.pb", "--to=perfetto", "-o=out.json"},
           {"convert", "missing.xplane.pb", "--to", "chrome", "-o", "out.json"},
           {"import", "--allow_truncated", "--format=chrome_json", "missing.json"}}) {
    SCOPED_TRACE(Joined(args));
    const ProcessResult r = RunStepscope(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.ErrLines(), 1) << r.err;
    EXPECT_NE(r.err.find("missing."), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace stepscope::testing
