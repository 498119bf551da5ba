#include "src/load/trace_import.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "src/xspace/columnar/columnar_test_util.h"
#include "src/xspace/columnar/xspace_to_columnar.h"

namespace stepscope::load {
namespace {

// The analysis path reads imported traces through the message walk; on every shared
// trace it must give the columns the streaming reader gives for the same XSpace.
TEST(TraceImportTest, ColumnarImportEqualsTheReaderOnEverySharedTrace) {
  ASSERT_TRUE(TraceImportAvailable());
  int traces = 0;
  const std::string dir = std::string(STEPSCOPE_SHARED_DIR) + "/testdata/traces";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string path = entry.path().string();
    if (!path.ends_with(".json") && !path.ends_with(".json.gz")) continue;
    SCOPED_TRACE(path);
    StatusOr<xspace::XSpace> message = ImportTraceFile(path);
    ASSERT_TRUE(message.ok()) << message.status().ToString();
    StatusOr<xspace::ColumnarXSpace> want = xspace::ConvertXSpaceToColumnar(*message);
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    StatusOr<xspace::ColumnarXSpace> got = ImportTraceFileColumnar(path);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    xspace::ExpectSameColumns(*want, *got);
    ++traces;
  }
  EXPECT_GE(traces, 5);
}

TEST(TraceImportTest, ErrorsNameTheFile) {
  StatusOr<xspace::ColumnarXSpace> missing = ImportTraceFileColumnar("/nonexistent/trace.json.gz");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/trace.json.gz"), std::string::npos)
      << missing.status().message();
}

}  // namespace
}  // namespace stepscope::load
