#include "src/server/static_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace stepscope::server {
namespace {
namespace fs = std::filesystem;

class StaticFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("stepscope_static_" + std::to_string(::getpid()));
    fs::remove_all(base_);
    root_ = base_ / "dist";
    fs::create_directories(root_ / "assets");
    Write(root_ / "index.html", "<html>ui</html>");
    Write(root_ / "assets" / "index-abc123.js", "console.log(1)");
    Write(base_ / "secret.txt", "do not serve");
    fs::create_symlink(base_ / "secret.txt", root_ / "leak.txt");
  }
  void TearDown() override { fs::remove_all(base_); }

  static void Write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }
  static std::string Header(const HttpReply& reply, const std::string& name) {
    for (const auto& [key, value] : reply.headers) {
      if (key == name) return value;
    }
    return "";
  }

  fs::path base_;
  fs::path root_;
};

TEST_F(StaticFilesTest, ServesIndexAndHashedAssets) {
  StaticFiles files(root_.string());
  HttpReply index = files.Serve("/");
  EXPECT_EQ(index.status, 200);
  EXPECT_EQ(index.body, "<html>ui</html>");
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(Header(index, "Cache-Control"), "no-cache");

  HttpReply script = files.Serve("/assets/index-abc123.js");
  EXPECT_EQ(script.status, 200);
  EXPECT_EQ(script.body, "console.log(1)");
  EXPECT_EQ(script.content_type, "text/javascript; charset=utf-8");
  EXPECT_NE(Header(script, "Cache-Control").find("immutable"), std::string::npos);
}

TEST_F(StaticFilesTest, NeverServesAnythingOutsideTheRoot) {
  StaticFiles files(root_.string());
  for (const char* path : {"/../secret.txt", "/assets/../../secret.txt", "/assets/../index.html", "//etc/passwd",
                           "/leak.txt", "/%2e%2e/secret.txt", "/a\\..\\secret.txt"}) {
    HttpReply reply = files.Serve(path);
    EXPECT_EQ(reply.status, 400) << path;
    EXPECT_EQ(reply.body.find("do not serve"), std::string::npos) << path;
    EXPECT_NE(reply.body.find("\"error\""), std::string::npos) << path;
  }
  EXPECT_EQ(files.Serve(std::string("/index.html\0.js", 15)).status, 400);
  EXPECT_EQ(files.Serve("/missing.js").status, 404);
  EXPECT_EQ(files.Serve("/assets").status, 404);  // a directory is not a file
}

TEST_F(StaticFilesTest, WithoutABuiltUiExplainsHowToBuildIt) {
  StaticFiles files("");
  HttpReply page = files.Serve("/");
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("./dev build"), std::string::npos);
  EXPECT_EQ(files.Serve("/assets/x.js").status, 404);
}

TEST_F(StaticFilesTest, FindUiDirHonoursTheFlagAndRefusesDirectoriesWithoutIndex) {
  auto found = FindUiDir(root_.string());
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, root_.string());
  auto missing = FindUiDir((base_ / "nowhere").string());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
}

TEST(ContentTypeTest, ByExtension) {
  EXPECT_EQ(ContentTypeForPath("a.css"), "text/css; charset=utf-8");
  EXPECT_EQ(ContentTypeForPath("a.svg"), "image/svg+xml");
  EXPECT_EQ(ContentTypeForPath("a.bin"), "application/octet-stream");
}

}  // namespace
}  // namespace stepscope::server
