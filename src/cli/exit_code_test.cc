#include "src/cli/exit_code.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace stepscope::cli {
namespace {

TEST(ExitCodeTest, OneCodePerKindOfFailure) {
  EXPECT_EQ(ExitCodeFor(OkStatus()), 0);
  // Usage and input.
  for (const Status& status : {InvalidArgumentError("x"), NotFoundError("x"), AlreadyExistsError("x"),
                               FailedPreconditionError("x"), ResourceExhaustedError("x"), DataLossError("x"),
                               UnimplementedError("x")}) {
    EXPECT_EQ(ExitCodeFor(status), 2) << status.ToString();
  }
  EXPECT_EQ(ExitCodeFor(IoError("disk full")), 3);
  EXPECT_EQ(ExitCodeFor(UnavailableError("x")), 4);
  EXPECT_EQ(ExitCodeFor(DeadlineExceededError("x")), 4);
  EXPECT_EQ(ExitCodeFor(InternalError("x")), 1);
}

TEST(ExitCodeTest, HelpListsEveryCodeOnce) {
  const std::string help(ExitCodesHelp());
  std::set<int> listed;
  for (size_t line = help.find("\n  "); line != std::string::npos; line = help.find("\n  ", line + 1)) {
    listed.insert(help[line + 3] - '0');
  }
  EXPECT_EQ(listed, (std::set<int>{kExitOk, kExitInternalError, kExitBadInput, kExitOutputNotWritten,
                                   kExitUnavailable, kExitBudgetBroken}));
}

}  // namespace
}  // namespace stepscope::cli
