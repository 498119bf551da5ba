// The MCP server's protocol core in process: lines in, response lines out, over a logdir
// in a scratch directory holding a copy of a shared JAX profile.
#include <fcntl.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "src/analysis/tool_options.h"
#include "src/analysis/tool_registry.h"
#include "src/base/testing/fresh_dir.h"
#include "src/cli/mcp_json_rpc.h"
#include "src/cli/mcp_logdir.h"
#include "src/cli/mcp_session.h"
#include "src/cli/mcp_stdio.h"
#include "src/cli/mcp_tools.h"

namespace stepscope::cli::mcp {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const char kProfile[] = STEPSCOPE_SHARED_DIR "/testdata/xplane/tracelens_jax_mi300_te_fused_attn.xplane.pb";

void Copy(const std::string& from, const std::string& to) {
  fs::create_directories(fs::path(to).parent_path());
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

// <dir>/logdir with runs run_a and run_b (one host each), and <dir>/outside, a run the
// logdir must not reach.
std::string MakeLogdir(const std::string& name) {
  const std::string dir = base::FreshTestDir("mcp", name);
  Copy(kProfile, dir + "/logdir/plugins/profile/run_a/host0.xplane.pb");
  Copy(kProfile, dir + "/logdir/plugins/profile/run_b/host0.xplane.pb");
  Copy(kProfile, dir + "/outside/plugins/profile/secret/host0.xplane.pb");
  return dir;
}

class McpTest : public ::testing::Test {
 protected:
  void Open(const std::string& logdir) {
    StatusOr<ConfinedLogdir> confined = ConfinedLogdir::Open(logdir);
    ASSERT_TRUE(confined.ok()) << confined.status().ToString();
    tools_ = std::make_unique<McpTools>(std::move(*confined));
    session_ = std::make_unique<McpSession>(tools_.get(), &log_);
    endpoint_ = std::make_unique<JsonRpcEndpoint>(session_.get());
  }
  void SetUp() override {
    dir_ = MakeLogdir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    Open(dir_ + "/logdir");
  }

  // Sends one line; the response parsed (a null document when there is none).
  simdjson::dom::element Send(std::string_view line) {
    last_ = endpoint_->HandleLine(line);
    if (last_.empty()) return {};
    EXPECT_EQ(last_.back(), '\n');
    EXPECT_EQ(last_.find('\n'), last_.size() - 1) << "one line per response";
    simdjson::dom::element root;
    EXPECT_EQ(parser_.parse(last_).get(root), simdjson::SUCCESS) << last_;
    return root;
  }
  simdjson::dom::element Initialize(std::string_view version = "2025-06-18") {
    return Send(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")" +
                std::string(version) + R"(","capabilities":{},"clientInfo":{"name":"test","version":"1"}}})");
  }
  simdjson::dom::element CallTool(std::string_view name, std::string_view arguments_json) {
    return Send(R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":")" + std::string(name) +
                R"(","arguments":)" + std::string(arguments_json) + "}}");
  }
  static int64_t ErrorCode(simdjson::dom::element response) { return int64_t(response["error"]["code"]); }
  // A tool result's isError and its text.
  static bool IsError(simdjson::dom::element response) { return bool(response["result"]["isError"]); }
  static std::string Text(simdjson::dom::element response) {
    return std::string(std::string_view(response["result"]["content"].at(0)["text"]));
  }

  std::string dir_;
  std::ostringstream log_;
  std::unique_ptr<McpTools> tools_;
  std::unique_ptr<McpSession> session_;
  std::unique_ptr<JsonRpcEndpoint> endpoint_;
  simdjson::dom::parser parser_;
  std::string last_;
};

TEST_F(McpTest, InitializeAnswersTheClientsVersionWhenSupportedElseTheNewest) {
  for (std::string_view version : kProtocolVersions) {
    simdjson::dom::element response = Initialize(version);
    EXPECT_EQ(std::string_view(response["result"]["protocolVersion"]), version);
    EXPECT_EQ(int64_t(response["id"]), 0);
  }
  simdjson::dom::element response = Initialize("1999-01-01");
  EXPECT_EQ(std::string_view(response["result"]["protocolVersion"]), kProtocolVersions[0]);
  EXPECT_EQ(std::string_view(response["result"]["serverInfo"]["name"]), "stepscope");
  EXPECT_TRUE(response["result"]["capabilities"]["tools"].is_object());
  EXPECT_TRUE(response["result"]["capabilities"]["resources"].is_object());
  // Without a version there is nothing to negotiate.
  EXPECT_EQ(ErrorCode(Send(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})")), kInvalidParams);
}

TEST_F(McpTest, NotificationsGetNoAnswerAndPingAnEmptyResult) {
  Initialize();
  EXPECT_EQ(endpoint_->HandleLine(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"), "");
  EXPECT_TRUE(session_->initialized());
  EXPECT_EQ(endpoint_->HandleLine(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}})"), "");
  EXPECT_EQ(endpoint_->HandleLine(R"({"jsonrpc":"2.0","method":"notifications/whatever"})"), "");
  EXPECT_EQ(endpoint_->HandleLine(R"({"jsonrpc":"2.0","id":"p","method":"ping"})"),
            "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"result\":{}}\n");
}

TEST_F(McpTest, RunToolsSchemaFollowsTheToolAndOptionDeclarations) {
  Initialize();
  simdjson::dom::element tools = Send(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})")["result"]["tools"];
  std::set<std::string> names;
  simdjson::dom::element run_tool;
  for (simdjson::dom::element tool : simdjson::dom::array(tools)) {
    names.emplace(std::string_view(tool["name"]));
    EXPECT_FALSE(std::string_view(tool["description"]).empty());
    EXPECT_EQ(std::string_view(tool["inputSchema"]["type"]), "object");
    if (std::string_view(tool["name"]) == "run_tool") run_tool = tool;
  }
  EXPECT_EQ(names, (std::set<std::string>{"list_runs", "run_tool", "diff", "check", "search_trace_events"}));
  simdjson::dom::element schema = run_tool["inputSchema"];
  std::vector<std::string> ids;
  for (simdjson::dom::element id : simdjson::dom::array(schema["properties"]["tool"]["enum"])) {
    ids.emplace_back(std::string_view(id));
  }
  std::vector<std::string> declared_ids;
  for (const analysis::Tool* tool : analysis::AllTools()) declared_ids.emplace_back(tool->id());
  EXPECT_EQ(ids, declared_ids);
  const std::map<analysis::OptionKind, std::string_view> types = {{analysis::OptionKind::kBool, "boolean"},
                                                                  {analysis::OptionKind::kInt, "integer"},
                                                                  {analysis::OptionKind::kNumber, "number"},
                                                                  {analysis::OptionKind::kText, "string"}};
  simdjson::dom::element options = schema["properties"]["options"]["properties"];
  for (const analysis::ToolOptionDecl& option : analysis::AllToolOptions()) {
    simdjson::dom::element property;
    ASSERT_EQ(options[option.name].get(property), simdjson::SUCCESS) << option.name;
    EXPECT_EQ(std::string_view(property["type"]), types.at(option.kind)) << option.name;
    EXPECT_THAT(std::string(std::string_view(property["description"])), HasSubstr(std::string(option.help)));
    if (option.kind == analysis::OptionKind::kInt && !option.default_text.empty()) {
      EXPECT_EQ(std::to_string(int64_t(property["default"])), option.default_text) << option.name;
    }
  }
}

TEST_F(McpTest, MalformedInputIsAnErrorResponseAndTheServerGoesOn) {
  EXPECT_EQ(ErrorCode(Send("not json")), kParseError);
  EXPECT_TRUE(Send("not json")["id"].is_null());
  EXPECT_EQ(ErrorCode(Send(R"({"jsonrpc":"2.0","id":1,"method":"ping")")), kParseError);  // cut short
  EXPECT_EQ(ErrorCode(Send(R"("just a string")")), kInvalidRequest);
  EXPECT_EQ(ErrorCode(Send(R"({"id":1,"method":"ping"})")), kInvalidRequest);  // no jsonrpc
  EXPECT_EQ(int64_t(Send(R"({"id":1,"method":"ping"})")["id"]), 1);
  EXPECT_EQ(ErrorCode(Send(R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})")), kInvalidRequest);
  EXPECT_EQ(ErrorCode(Send(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})")), kInvalidRequest);
  EXPECT_EQ(ErrorCode(Send(R"({"jsonrpc":"2.0","id":1,"method":7})")), kInvalidRequest);
  EXPECT_EQ(ErrorCode(Send(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":3})")), kInvalidRequest);
  EXPECT_EQ(ErrorCode(Send(R"({"jsonrpc":"2.0","id":1,"method":"no/such"})")), kMethodNotFound);
  // Hostile JSON: too deep, invalid UTF-8, numbers past every type.
  EXPECT_EQ(ErrorCode(Send(std::string(100, '[') + std::string(100, ']'))), kParseError);
  EXPECT_EQ(ErrorCode(Send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xff\xfeng\"}")), kParseError);
  const std::string huge = R"({"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"})";
  simdjson::dom::element answer = Send(huge);
  EXPECT_TRUE(answer["error"].is_object()) << last_;
  EXPECT_EQ(ErrorCode(Send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_tool",)"
                           R"("arguments":{"tool":"overview_page","options":{"max_kernels":1e400}}}})")),
            kParseError);
  // A response from the client needs no answer.
  EXPECT_EQ(endpoint_->HandleLine(R"({"jsonrpc":"2.0","id":5,"result":{}})"), "");
  // And the server still answers.
  EXPECT_EQ(std::string_view(Initialize()["result"]["serverInfo"]["name"]), "stepscope");
}

TEST_F(McpTest, BadParamsAreProtocolErrorsAndBadArgumentsToolErrors) {
  Initialize();
  EXPECT_EQ(ErrorCode(Send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}})")), kInvalidParams);
  EXPECT_EQ(ErrorCode(CallTool("no_such_tool", "{}")), kInvalidParams);
  EXPECT_EQ(ErrorCode(Send(R"({"jsonrpc":"2.0","id":1,"method":"resources/read","params":{}})")), kInvalidParams);
  EXPECT_EQ(ErrorCode(Send(R"({"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"stepscope://runs/nope"}})")),
            kResourceNotFound);

  struct Case {
    std::string_view tool, arguments, says;
  };
  for (const Case& c : std::vector<Case>{
           {"run_tool", R"({"tool":"no_tool"})", "overview_page"},  // lists the tools
           {"run_tool", R"({"tool":"kernel_stats","options":{"max_kernels":0}})", "max_kernels"},
           {"run_tool", R"({"tool":"kernel_stats","options":{"max_kernels":"many"}})", "max_kernels"},
           {"run_tool", R"({"tool":"overview_page","options":{"hops":2}})", "takes no option 'hops'"},
           {"run_tool", R"({"tool":"overview_page","run":"no_run"})", "run_a, run_b"},
           {"run_tool", R"({"tool":"overview_page","host":"h9"})", "host0"},
           {"run_tool", R"({"tool":"overview_page","step":"x"})", "step"},
           {"run_tool", R"({"tool":"overview_page","colour":"red"})", "unknown argument 'colour'"},
           {"run_tool", R"([1,2])", "arguments must be an object"},
           {"check", R"({"budgets":["step_ms < 3"]})", "budgets[0]"},
           {"check", R"({"budgets":[]})", "budgets is required"},
           {"diff", R"({"run_a":"run_a"})", "run_b is required"},
           {"search_trace_events", R"({"limit":0})", "limit"},
           {"search_trace_events", R"({"start_ms":5,"end_ms":1})", "before it starts"},
       }) {
    simdjson::dom::element response = CallTool(c.tool, c.arguments);
    ASSERT_TRUE(response["result"].is_object()) << c.arguments << ": " << last_;
    EXPECT_TRUE(IsError(response)) << c.arguments;
    EXPECT_THAT(Text(response), HasSubstr(std::string(c.says))) << c.arguments;
  }
}

TEST_F(McpTest, RunsAndHostsAreNamesNeverPaths) {
  Initialize();
  for (std::string_view run : {R"("../outside")", R"("/etc")", R"("run_a/../run_b")", R"("./run_a")",
                               R"("run_a\u0000")", R"("..")", R"("a\\b")"}) {
    simdjson::dom::element response = CallTool("run_tool", R"({"tool":"overview_page","run":)" + std::string(run) + "}");
    EXPECT_TRUE(IsError(response)) << run;
  }
  EXPECT_TRUE(IsError(CallTool("run_tool", R"({"tool":"overview_page","host":"../host0"})")));
  EXPECT_THAT(Text(CallTool("search_trace_events", R"({"run":"/tmp"})")), HasSubstr("absolute path"));
}

TEST_F(McpTest, SymlinksLeadingOutOfTheLogdirAreNotFollowed) {
  const std::string logdir = dir_ + "/logdir/plugins/profile";
  fs::create_directory_symlink(dir_ + "/outside/plugins/profile/secret", logdir + "/linked_out");
  fs::create_directories(logdir + "/run_c");
  fs::create_symlink(dir_ + "/outside/plugins/profile/secret/host0.xplane.pb", logdir + "/run_c/stolen.xplane.pb");
  Copy(kProfile, logdir + "/run_c/own.xplane.pb");
  // A link that stays inside is fine.
  fs::create_directory_symlink(logdir + "/run_a", logdir + "/linked_in");
  Initialize();
  const std::string runs = Text(CallTool("list_runs", "{}"));
  EXPECT_THAT(runs, Not(HasSubstr("linked_out")));
  EXPECT_THAT(runs, Not(HasSubstr("stolen")));
  EXPECT_THAT(runs, HasSubstr("\"own\""));
  EXPECT_THAT(runs, HasSubstr("linked_in"));
  EXPECT_THAT(Text(CallTool("run_tool", R"({"tool":"overview_page","run":"linked_out"})")), HasSubstr("no run"));
  EXPECT_THAT(Text(CallTool("run_tool", R"({"tool":"overview_page","run":"run_c","host":"stolen"})")),
              HasSubstr("no host 'stolen'"));
  EXPECT_FALSE(IsError(CallTool("run_tool", R"({"tool":"overview_page","run":"linked_in"})")));
}

TEST_F(McpTest, ToolsAnswerWithTheCommandsJsonAndStructuredContentFromVersion20250618) {
  Initialize("2025-06-18");
  simdjson::dom::element response = CallTool("run_tool", R"({"tool":"overview_page","run":"run_a"})");
  ASSERT_FALSE(IsError(response)) << last_;
  simdjson::dom::parser text_parser;
  simdjson::dom::element from_text;
  ASSERT_EQ(text_parser.parse(Text(response)).get(from_text), simdjson::SUCCESS);
  EXPECT_EQ(std::string_view(from_text["tool"]), "overview_page");
  EXPECT_EQ(simdjson::minify(response["result"]["structuredContent"]), simdjson::minify(from_text));

  Initialize("2024-11-05");
  response = CallTool("run_tool", R"({"tool":"overview_page","run":"run_a"})");
  simdjson::dom::element structured;
  EXPECT_NE(response["result"]["structuredContent"].get(structured), simdjson::SUCCESS);

  // Every tool runs on a real profile.
  EXPECT_FALSE(IsError(CallTool("diff", R"({"run_a":"run_a","run_b":"run_b"})"))) << last_;
  response = CallTool("check", R"({"budgets":["step_ms <= 0.000001"]})");
  EXPECT_FALSE(IsError(response)) << last_;  // a broken budget is a result
  EXPECT_THAT(Text(response), HasSubstr("\"all_hold\":false"));
  response = CallTool("search_trace_events", R"({"run":"run_a","limit":3,"end_ms":1000000})");
  ASSERT_FALSE(IsError(response)) << last_;
  EXPECT_THAT(Text(response), HasSubstr("\"events\":[{\"name\""));
  // Models of run_a (asked for three times) and run_b, and run_a's trace index.
  EXPECT_EQ(tools_->context().cache.entries(), 3u);
}

TEST_F(McpTest, RunsAreResources) {
  Initialize();
  simdjson::dom::element list = Send(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})");
  simdjson::dom::array resources = list["result"]["resources"];
  ASSERT_EQ(resources.size(), 2u);
  EXPECT_EQ(std::string_view(resources.at(0)["uri"]), "stepscope://runs/run_a");
  EXPECT_EQ(std::string_view(resources.at(0)["mimeType"]), "application/json");
  simdjson::dom::element read =
      Send(R"({"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"stepscope://runs/run_a"}})");
  EXPECT_THAT(std::string(std::string_view(read["result"]["contents"].at(0)["text"])), HasSubstr("available_tools"));
  EXPECT_EQ(RunUri("a b/c%"), "stepscope://runs/a%20b/c%25");
}

TEST_F(McpTest, BatchesOnlyUnderTheVersionThatHasThem) {
  Initialize("2025-06-18");
  EXPECT_EQ(ErrorCode(Send(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])")), kInvalidRequest);
  Initialize("2025-03-26");
  simdjson::dom::array answers =
      Send(R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},)"
           R"({"jsonrpc":"2.0","id":2,"method":"nope"}])");
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(int64_t(answers.at(1)["error"]["code"]), kMethodNotFound);
  EXPECT_EQ(endpoint_->HandleLine(R"([{"jsonrpc":"2.0","method":"notifications/x"}])"), "");
  EXPECT_EQ(ErrorCode(Send("[]")), kInvalidRequest);
}

TEST_F(McpTest, NothingIsWrittenUnderTheLogdir) {
  auto snapshot = [&] {
    std::vector<std::string> entries;
    for (const auto& entry : fs::recursive_directory_iterator(dir_ + "/logdir")) {
      entries.push_back(entry.path().string() + " " +
                        (entry.is_regular_file() ? std::to_string(fs::file_size(entry.path())) : "dir"));
    }
    std::sort(entries.begin(), entries.end());
    return entries;
  };
  const std::vector<std::string> before = snapshot();
  Initialize();
  CallTool("run_tool", R"({"tool":"overview_page"})");
  CallTool("search_trace_events", R"({"query":"fusion"})");
  Send(R"({"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"stepscope://runs/run_b"}})");
  EXPECT_EQ(snapshot(), before);
}

TEST(McpStdioTest, AnOversizedLineIsAnsweredWithAnErrorAndTheNextOneServed) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string input = std::string(200, 'x') + "\n" + R"({"jsonrpc":"2.0","id":1,"method":"ping"})" + "\n" +
                            R"({"jsonrpc":"2.0","id":2,"method":"ping"})";  // the last line lacks its '\n'
  ASSERT_EQ(::write(fds[1], input.data(), input.size()), static_cast<ssize_t>(input.size()));
  ::close(fds[1]);
  struct PingOnly : RpcDispatcher {
    RpcOutcome Call(std::string_view, const simdjson::dom::element*, bool) override { return RpcOutcome::Result("{}"); }
    bool AcceptsBatches(std::string*) const override { return false; }
  } dispatcher;
  JsonRpcEndpoint endpoint(&dispatcher);
  std::vector<std::string> written;
  ServeLines(
      fds[0], endpoint,
      [&](std::string_view line) {
        written.emplace_back(line);
        return true;
      },
      /*max_line_bytes=*/100);
  ::close(fds[0]);
  ASSERT_EQ(written.size(), 3u);
  EXPECT_THAT(written[0], HasSubstr("\"code\":-32600"));
  EXPECT_THAT(written[0], HasSubstr("longer than 100 bytes"));
  EXPECT_EQ(written[1], "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
  EXPECT_EQ(written[2], "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n");
}

TEST(McpLogdirTest, NamesAreChecked) {
  EXPECT_TRUE(CheckName("run", "2026_11_21").ok());
  EXPECT_TRUE(CheckName("run", "sub/run").ok());
  for (std::string_view bad : {"", "..", ".", "../x", "x/..", "/abs", "a//b", "a\\b", "tab\there", "x/"}) {
    EXPECT_EQ(CheckName("run", bad).code(), StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ(CheckName("run", std::string_view("a\0b", 3)).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ConfinedLogdir::Open("/no/such/logdir").status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace stepscope::cli::mcp
