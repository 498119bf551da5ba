#include "src/collect/traceme_encoding.h"

#include <cstdint>
#include <limits>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "stepscope/annotation.h"

namespace stepscope::collect {
namespace {

using ::testing::ElementsAre;

MATCHER_P2(Arg, key, value, "") { return arg.key == key && arg.value == value; }

TEST(EncodeMetadataTest, EncodesLikeTraceMeEncode) {
  EXPECT_EQ(EncodeMetadata("read", {{"file", "a.rec"}, {"bytes", 123}}), "read#file=a.rec,bytes=123#");
  EXPECT_EQ(EncodeMetadata("train", {{"step_num", int64_t{5}}, {"_r", 1}}), "train#step_num=5,_r=1#");
  EXPECT_EQ(EncodeMetadata("plain", {}), "plain");
}

TEST(EncodeMetadataTest, FormatsEveryValueKind) {
  std::string path = "/data/x";
  EXPECT_EQ(EncodeMetadata("e", {{"s", path},
                                 {"neg", -42},
                                 {"u", std::numeric_limits<uint64_t>::max()},
                                 {"i64", std::numeric_limits<int64_t>::min()},
                                 {"d", 0.1},
                                 {"whole", 2.0},
                                 {"yes", true},
                                 {"no", false}}),
            "e#s=/data/x,neg=-42,u=18446744073709551615,i64=-9223372036854775808,d=0.1,"
            "whole=2,yes=1,no=0#");
}

TEST(EncodeMetadataTest, AppendMetadataMergesBlocks) {
  EXPECT_EQ(AppendMetadata("a#x=1#", {{"y", 2}}), "a#x=1,y=2#");
  EXPECT_EQ(AppendMetadata("a", {{"y", 2}}), "a#y=2#");
  EXPECT_EQ(AppendMetadata("a#x=1#", {}), "a#x=1#");
}

TEST(DecodeTraceMeNameTest, NameWithoutMetadataIsKeptWhole) {
  DecodedTraceMeName decoded = DecodeTraceMeName("Iterator::Batch::Map");
  EXPECT_EQ(decoded.name, "Iterator::Batch::Map");
  EXPECT_TRUE(decoded.args.empty());
  // '#' inside a name that does not end with '#' is not metadata.
  EXPECT_EQ(DecodeTraceMeName("a#b").name, "a#b");
}

TEST(DecodeTraceMeNameTest, SplitsPairsAndStripsWhitespace) {
  DecodedTraceMeName decoded = DecodeTraceMeName(" train #step_num=5, _r = 1#");
  EXPECT_EQ(decoded.name, "train");
  EXPECT_THAT(decoded.args, ElementsAre(Arg("step_num", "5"), Arg("_r", "1")));
}

TEST(DecodeTraceMeNameTest, KeepsCommasInsideQuotesAndBrackets) {
  DecodedTraceMeName decoded =
      DecodeTraceMeName("op#shape=[1,2,3],dims=(4,5),m={a:1,b:2},s='x,y',t=\"u,v\",last=z#");
  EXPECT_EQ(decoded.name, "op");
  EXPECT_THAT(decoded.args, ElementsAre(Arg("shape", "[1,2,3]"), Arg("dims", "(4,5)"),
                                        Arg("m", "{a:1,b:2}"), Arg("s", "'x,y'"),
                                        Arg("t", "\"u,v\""), Arg("last", "z")));
}

TEST(DecodeTraceMeNameTest, DropsEmptyKeysAndValuesAndSplitsAtFirstEquals) {
  DecodedTraceMeName decoded = DecodeTraceMeName("e#=1,k=,novalue,eq=a=b,ok=2#");
  EXPECT_THAT(decoded.args, ElementsAre(Arg("eq", "a=b"), Arg("ok", "2")));
}

TEST(DecodeTraceMeNameTest, ReadsSeveralMetadataBlocks) {
  DecodedTraceMeName decoded = DecodeTraceMeName("e#a=1##b=2#");
  EXPECT_EQ(decoded.name, "e");
  EXPECT_THAT(decoded.args, ElementsAre(Arg("a", "1"), Arg("b", "2")));
}

TEST(DecodeTraceMeNameTest, RoundTripsEncodeMetadata) {
  std::string encoded = EncodeMetadata("read", {{"file", "[a,b]"}, {"bytes", 7}, {"ratio", 0.25}});
  DecodedTraceMeName decoded = DecodeTraceMeName(encoded);
  EXPECT_EQ(decoded.name, "read");
  EXPECT_THAT(decoded.args, ElementsAre(Arg("file", "[a,b]"), Arg("bytes", "7"), Arg("ratio", "0.25")));
}

}  // namespace
}  // namespace stepscope::collect
