// TensorFlow-style captures (no emit_xspace: "write the profile to repository_root") against
// the real gRPC profiler server: without a configured root nothing is written anywhere;
// with one, only paths below it are, and no '..', foreign absolute path or symbolic link
// leads out of it. The last test drives mnist_mlp --profiler_repository end to end.
#include <gmock/gmock.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "proto/stepscope/profiler_service.grpc.pb.h"
#include "stepscope/profiler_server.h"
#include "tests/integration/remote_test_util.h"
#include "tests/integration/training_steps.h"

namespace stepscope::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// What TensorFlow's client (tf.profiler.experimental.client.trace) sends: no emit_xspace,
// repository_root = <logdir>/plugins/profile, session_id = the run.
tensorflow::ProfileRequest TensorFlowStyleRequest(const std::string& repository_root, const std::string& session_id) {
  tensorflow::ProfileRequest request;
  request.set_duration_ms(100);
  request.set_max_events(1000000);
  request.add_tools("xplane.pb");
  request.set_repository_root(repository_root);
  request.set_session_id(session_id);
  request.set_host_name("worker0");
  request.mutable_opts()->set_version(1);
  request.mutable_opts()->set_host_tracer_level(2);
  request.mutable_opts()->set_device_tracer_level(1);
  request.mutable_opts()->set_duration_ms(100);
  return request;
}

grpc::Status Profile(const std::string& address, const tensorflow::ProfileRequest& request) {
  auto stub = tensorflow::ProfilerService::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  tensorflow::ProfileResponse response;
  return stub->Profile(&context, request, &response);
}

// Every regular file and link below `dir` (recursively), for "nothing was written".
std::vector<std::string> FilesBelow(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    if (!entry.is_directory(ec)) files.push_back(entry.path().string());
  }
  return files;
}

class RemoteRepositoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_ = ScratchDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  }

  std::unique_ptr<ProfilerServer> StartServer(const std::string& repository_root) {
    ProfilerServerOptions options;
    options.repository_root = repository_root;
    auto server = StartProfilerServer(options);
    EXPECT_TRUE(server.ok()) << server.status().ToString();
    return server.ok() ? std::move(server).value() : nullptr;
  }

  std::string scratch_;
  TrainingSteps training_;
};

TEST_F(RemoteRepositoryTest, WithoutARootATensorFlowStyleRequestIsRefusedAndNothingIsWritten) {
  auto server = StartServer("");
  ASSERT_NE(server, nullptr);
  std::string target = scratch_ + "/x";
  grpc::Status status = Profile(server->address(), TensorFlowStyleRequest(target + "/plugins/profile", "run"));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("started without a repository root"));
  EXPECT_THAT(status.error_message(), HasSubstr("--profiler_repository DIR"));
  EXPECT_FALSE(fs::exists(target)) << "a refused request must not create anything";
  EXPECT_EQ(FilesBelow(scratch_), std::vector<std::string>{});
}

TEST_F(RemoteRepositoryTest, PathsThatLeaveTheRootAreRefusedNamingIt) {
  std::string root = scratch_ + "/root";
  auto server = StartServer(root);
  ASSERT_NE(server, nullptr);
  for (const std::string& requested : {std::string("../../etc"), std::string("/etc"), scratch_ + "/elsewhere",
                                       root + "/../elsewhere", root + "2/plugins/profile"}) {
    grpc::Status status = Profile(server->address(), TensorFlowStyleRequest(requested, "run"));
    EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << requested << ": " << status.error_message();
    EXPECT_THAT(status.error_message(), HasSubstr("only below its repository root " + root)) << requested;
  }
  EXPECT_FALSE(fs::exists(scratch_ + "/elsewhere"));
  EXPECT_FALSE(fs::exists(root + "2"));
  EXPECT_EQ(FilesBelow(scratch_), std::vector<std::string>{});
}

TEST_F(RemoteRepositoryTest, SymbolicLinksInsideTheRootThatLeadOutAreRefused) {
  std::string root = scratch_ + "/root";
  std::string outside = scratch_ + "/outside";
  fs::create_directories(root + "/plugins/profile");
  fs::create_directories(outside);
  fs::create_directory_symlink(outside, root + "/escape");               // a directory on the way
  fs::create_directory_symlink(outside, root + "/plugins/profile/run");  // the session directory itself
  auto server = StartServer(root);
  ASSERT_NE(server, nullptr);

  grpc::Status status = Profile(server->address(), TensorFlowStyleRequest(root + "/escape/plugins", "run"));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr(root + "/escape is a symbolic link"));
  EXPECT_THAT(status.error_message(), HasSubstr("repository root " + root));
  status = Profile(server->address(), TensorFlowStyleRequest("plugins/profile", "run"));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << status.error_message();
  EXPECT_EQ(FilesBelow(outside), std::vector<std::string>{}) << "nothing may land outside the root";

  // A link planted where the file goes is replaced, not written through.
  fs::create_directories(root + "/plugins/profile/run2");
  std::string victim = outside + "/victim";
  std::ofstream(victim) << "untouched";
  fs::create_symlink(victim, root + "/plugins/profile/run2/worker0.xplane.pb");
  status = Profile(server->address(), TensorFlowStyleRequest(root + "/plugins/profile", "run2"));
  ASSERT_TRUE(status.ok()) << status.error_message();
  std::ifstream in(victim);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "untouched");
  EXPECT_FALSE(fs::is_symlink(root + "/plugins/profile/run2/worker0.xplane.pb"));
  EXPECT_FALSE(StepNumbersInFile(root + "/plugins/profile/run2/worker0.xplane.pb").empty());
}

TEST_F(RemoteRepositoryTest, TheTensorFlowCompatiblePathInsideTheRootWorks) {
  std::string root = scratch_ + "/logdir";
  auto server = StartServer(root);
  ASSERT_NE(server, nullptr);
  ASSERT_TRUE(fs::is_directory(root)) << "the root is created at start";
  // TensorBoard with --logdir <root>: repository_root <root>/plugins/profile, session = run.
  grpc::Status status = Profile(server->address(), TensorFlowStyleRequest(root + "/plugins/profile", "2026_01_02"));
  ASSERT_TRUE(status.ok()) << status.error_message();
  std::string path = root + "/plugins/profile/2026_01_02/worker0.xplane.pb";
  ASSERT_TRUE(fs::is_regular_file(path));
  std::vector<int64_t> steps = StepNumbersInFile(path);
  EXPECT_GE(steps.size(), 5u);
  EXPECT_TRUE(Consecutive(steps));
  EXPECT_EQ(FilesBelow(root), std::vector<std::string>{path}) << "no temporary file is left behind";
  // TensorFlow's client asks for device tracing; the profile says nothing could act on it.
  auto space = xspace::ReadXSpaceFile(path);
  ASSERT_TRUE(space.ok());
  ASSERT_GE(space->warnings_size(), 1);
  EXPECT_THAT(space->warnings(0), HasSubstr("device tracer level 1 requested: no device tracer is built into this "
                                            "process; no GPU activity recorded"));
}

TEST(RemoteRepositoryProcessTest, MnistMlpWritesOnlyBelowProfilerRepository) {
  std::string data_dir = ScratchDir("repository_data");
  ASSERT_TRUE(PrepareTrainingData(data_dir));
  std::string root = ScratchDir("repository_root");
  int port = PickFreePort();
  std::vector<std::string> args = LightTrainingArgs(data_dir, 100000);
  for (const std::string& arg : {std::string("--profiler_port"), std::to_string(port),
                                 std::string("--profiler_repository"), root}) {
    args.push_back(arg);
  }
  BackgroundProcess worker(args);
  ASSERT_TRUE(worker.WaitForError(ListeningLine(port), std::chrono::seconds(60))) << worker.err();
  ASSERT_TRUE(worker.WaitForOutput("training", std::chrono::seconds(60)));
  std::string address = "127.0.0.1:" + std::to_string(port);
  grpc::Status status = Profile(address, TensorFlowStyleRequest(root + "/plugins/profile", "run"));
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_FALSE(StepNumbersInFile(root + "/plugins/profile/run/worker0.xplane.pb").empty());
  status = Profile(address, TensorFlowStyleRequest("../../etc", "run"));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_TRUE(worker.Alive());
}

}  // namespace
}  // namespace stepscope::testing
