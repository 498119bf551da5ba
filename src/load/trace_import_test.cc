#include "src/load/trace_import.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "src/base/file_io.h"
#include "src/xspace/columnar/columnar_test_util.h"
#include "src/xspace/columnar/columnar_writer.h"
#include "src/xspace/columnar/xspace_to_columnar.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::load {
namespace {

// Calls `check(path)` for every trace file the shared test data holds; the number checked.
template <typename Check>
int ForEachSharedTrace(const Check& check) {
  int traces = 0;
  const std::string dir = std::string(STEPSCOPE_SHARED_DIR) + "/testdata/traces";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string path = entry.path().string();
    if (!path.ends_with(".json") && !path.ends_with(".json.gz")) continue;
    SCOPED_TRACE(path);
    check(path);
    ++traces;
  }
  return traces;
}

// The analysis path reads imported traces through the message walk; on every shared
// trace it must give the columns the streaming reader gives for the same XSpace.
TEST(TraceImportTest, ColumnarImportEqualsTheReaderOnEverySharedTrace) {
  ASSERT_TRUE(TraceImportAvailable());
  const int traces = ForEachSharedTrace([](const std::string& path) {
    StatusOr<xspace::XSpace> message = ImportTraceFile(path);
    ASSERT_TRUE(message.ok()) << message.status().ToString();
    StatusOr<xspace::ColumnarXSpace> want = xspace::ConvertXSpaceToColumnar(*message);
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    StatusOr<xspace::ColumnarXSpace> got = ImportTraceFileColumnar(path);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    xspace::ExpectSameColumns(*want, *got);
  });
  EXPECT_GE(traces, 5);
}

// `stepscope import` writes the imported columns as they are (columnar_writer.h): on every
// shared trace the file must be, byte for byte, the serialization of the XSpace message
// the message path builds, so it reads the same everywhere TensorBoard's files are read.
TEST(TraceImportTest, WrittenColumnsAreTheMessagesSerializationOnEverySharedTrace) {
  const std::filesystem::path out = std::filesystem::temp_directory_path() /
                                    ("stepscope_trace_import_test_" + std::to_string(::getpid()) + ".xplane.pb");
  const int traces = ForEachSharedTrace([&out](const std::string& path) {
    StatusOr<xspace::XSpace> message = ImportTraceFile(path);
    ASSERT_TRUE(message.ok()) << message.status().ToString();
    StatusOr<std::string> want = xspace::SerializeXSpace(*message);
    ASSERT_TRUE(want.ok());
    StatusOr<xspace::ColumnarXSpace> columns = ImportTraceFileColumnar(path);
    ASSERT_TRUE(columns.ok()) << columns.status().ToString();
    ASSERT_TRUE(xspace::WriteColumnarXSpaceFile(out.string(), *columns).ok());
    StatusOr<std::string> got = base::ReadFile(out.string(), uint64_t{1} << 30);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(got->size(), want->size());
    EXPECT_TRUE(*got == *want);
  });
  std::filesystem::remove(out);
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
