#include "src/cli/command.h"

#include <gtest/gtest.h>

#include <sstream>

namespace stepscope::cli {
namespace {

TEST(CommandTest, ReportErrorWritesOneLineNamingThePathOnce) {
  std::ostringstream err;
  EXPECT_EQ(ReportError(err, "/a/b.pb", DataLossError("/a/b.pb: not a valid XSpace\nprotobuf")), 2);
  EXPECT_EQ(err.str(), "stepscope: /a/b.pb: not a valid XSpace protobuf\n");

  EXPECT_EQ(ProblemWithoutSubject("no such file: /a/b.pb", "/a/b.pb"), "no such file");
  EXPECT_EQ(ProblemWithoutSubject("/a/b.pb is a directory, not a file", "/a/b.pb"), "is a directory, not a file");
  EXPECT_EQ(ProblemWithoutSubject("cannot open /a/b.pb: denied", "/a/b.pb"), "cannot open /a/b.pb: denied");
  // A peer's message with terminal escapes (retitle, clear) reaches no terminal as such.
  EXPECT_EQ(ProblemWithoutSubject("bad\x1b]0;pwned\x07 \x1b[2Jworker\nline", ""), "bad?]0;pwned? ?[2Jworker line");
  EXPECT_EQ(ProblemWithoutSubject("plain", ""), "plain");

  std::ostringstream empty;
  EXPECT_EQ(ReportError(empty, "p", InternalError("")), 1);
  EXPECT_EQ(empty.str(), "stepscope: p: internal\n");
}

TEST(CommandTest, UsageErrorPointsAtTheCommandsHelp) {
  std::ostringstream err;
  EXPECT_EQ(ReportUsageError(err, "info", "expected one path, got 2"), kExitBadInput);
  EXPECT_EQ(err.str(), "stepscope: info: expected one path, got 2 (see stepscope help info)\n");
}

}  // namespace
}  // namespace stepscope::cli
