#include "examples/mnist_mlp/flags.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mnist_mlp {
namespace {

using ::testing::HasSubstr;

TEST(FlagsTest, DefaultsAreTheInputBoundConfiguration) {
  stepscope::StatusOr<Flags> flags = ParseFlags({});
  ASSERT_TRUE(flags.ok());
  EXPECT_EQ(flags->input_threads, 0);
  EXPECT_EQ(flags->prefetch, 0);
  EXPECT_FALSE(flags->cache);
  EXPECT_TRUE(flags->logdir.empty());
  EXPECT_EQ(flags->profile_first_step, -1);
  EXPECT_EQ(flags->profiler_port, 0);
  EXPECT_EQ(flags->profiler_bind, "127.0.0.1");
  EXPECT_EQ(flags->profiler_repository, "");
}

TEST(FlagsTest, ParsesEveryForm) {
  stepscope::StatusOr<Flags> flags =
      ParseFlags({"--steps=40", "--batch_size", "32", "--input_threads=4", "--prefetch", "4", "--cache",
                  "--logdir=/tmp/x", "--profile_steps=10,15", "--data_dir", "/d", "--augment=shift",
                  "--learning_rate=0.05", "--profiler_port=6009", "--input_cost=3", "--read_delay_us=50"});
  ASSERT_TRUE(flags.ok()) << flags.status().ToString();
  EXPECT_EQ(flags->steps, 40);
  EXPECT_EQ(flags->batch_size, 32);
  EXPECT_EQ(flags->input_threads, 4);
  EXPECT_EQ(flags->prefetch, 4);
  EXPECT_TRUE(flags->cache);
  EXPECT_EQ(flags->logdir, "/tmp/x");
  EXPECT_EQ(flags->profile_first_step, 10);
  EXPECT_EQ(flags->profile_last_step, 15);
  EXPECT_EQ(flags->data_dir, "/d");
  EXPECT_EQ(flags->augmentation, Augmentation::kShift);
  EXPECT_FLOAT_EQ(flags->learning_rate, 0.05f);
  EXPECT_EQ(flags->profiler_port, 6009);
  EXPECT_EQ(flags->input_cost, 3);
  EXPECT_EQ(flags->read_delay_us, 50);
  EXPECT_EQ(ParseFlags({"--profiler_bind", "0.0.0.0"})->profiler_bind, "0.0.0.0");
  EXPECT_EQ(ParseFlags({"--profiler_repository=/srv/p"})->profiler_repository, "/srv/p");
}

TEST(FlagsTest, BooleanForms) {
  EXPECT_TRUE(ParseFlags({"--cache=true"})->cache);
  EXPECT_TRUE(ParseFlags({"--cache=1"})->cache);
  EXPECT_FALSE(ParseFlags({"--cache", "--cache=false"})->cache);
  EXPECT_FALSE(ParseFlags({"--cache", "--nocache"})->cache);
  EXPECT_TRUE(ParseFlags({"--nocache", "--cache"})->cache);
}

TEST(FlagsTest, UsageListsEveryFlagWithItsDefaultBySection) {
  const std::string usage = FlagsUsage();
  for (const char* line : {"Training\n", "Input pipeline\n", "Dataset\n", "Profiling\n", "--steps N",
                           "(default: 100)", "--cache, --nocache", "--augment KIND", "(default: shift)",
                           "--learning_rate X", "(default: 0.01)", "--profile_steps A,B", "--profiler_port P"}) {
    EXPECT_THAT(usage, HasSubstr(line));
  }
}

TEST(FlagsTest, HelpStopsParsing) {
  stepscope::StatusOr<Flags> flags = ParseFlags({"--help", "--steps=bogus"});
  ASSERT_TRUE(flags.ok());
  EXPECT_TRUE(flags->help);
  EXPECT_THAT(FlagsUsage(), HasSubstr("--profile_steps"));
}

TEST(FlagsTest, RejectsBadValuesNamingTheFlag) {
  struct Case {
    std::vector<std::string> args;
    const char* message;
  };
  const Case cases[] = {
      {{"--steps=abc"}, "--steps: expected an integer in [1, "},
      {{"--steps=0"}, "--steps: expected an integer in [1, "},
      {{"--steps=12x"}, "got '12x'"},
      {{"--steps=99999999999999999999"}, "--steps: expected"},
      {{"--batch_size=-1"}, "--batch_size: expected an integer in [1, 8192]"},
      {{"--input_threads", "1000"}, "--input_threads: expected an integer in [0, 256]"},
      {{"--prefetch=-2"}, "--prefetch"},
      {{"--cache=maybe"}, "--cache: expected true, false, 1 or 0"},
      {{"--augment=blur"}, "--augment: expected none, shift or elastic"},
      {{"--learning_rate=nan"}, "--learning_rate"},
      {{"--learning_rate=0"}, "--learning_rate"},
      {{"--profile_steps=10", "--logdir=/x"}, "--profile_steps: expected FIRST,LAST"},
      {{"--profile_steps=15,10", "--logdir=/x"}, "FIRST <= LAST"},
      {{"--profile_steps=a,3", "--logdir=/x"}, "--profile_steps"},
      {{"--profile_steps=-1,3", "--logdir=/x"}, "--profile_steps"},
      {{"--profile_steps=5,6"}, "--profile_steps needs --logdir"},
      {{"--steps=40", "--profile_steps=10,40", "--logdir=/x"}, "ends after the last step"},
      {{"--profiler_port=0"}, "--profiler_port"},
      {{"--profiler_port=70000"}, "--profiler_port"},
      {{"--logdir="}, "--logdir needs a value"},
      {{"--data_dir", ""}, "--data_dir needs a value"},
      {{"--steps", "--cache"}, "--steps needs a value"},
      {{"--augment", "xml"}, "--augment: expected none, shift or elastic, got 'xml'"},
      {{"--shards=10", "--train_examples=5"}, "--shards (10) must not exceed --train_examples (5)"},
      {{"--steps"}, "--steps needs a value"},
      {{"--bogus=1"}, "unknown flag --bogus"},
      {{"--nosteps"}, "unknown flag --nosteps"},
      {{"steps=3"}, "unexpected argument 'steps=3'"},
  };
  for (const Case& c : cases) {
    stepscope::StatusOr<Flags> flags = ParseFlags(c.args);
    ASSERT_FALSE(flags.ok()) << c.args[0];
    EXPECT_EQ(flags.status().code(), stepscope::StatusCode::kInvalidArgument) << c.args[0];
    EXPECT_THAT(flags.status().message(), HasSubstr(c.message)) << c.args[0];
  }
}

}  // namespace
}  // namespace mnist_mlp
