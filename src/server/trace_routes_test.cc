// The trace viewer's HTTP API: every endpoint on TensorFlow's real GPU profile, the
// request checks, and the export read back by the Chrome JSON importer.
#include "src/server/trace_routes.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <simdjson.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "src/base/gzip.h"
#include "src/importers/importer_registry.h"
#include "src/server/http_server.h"
#include "src/xspace/logdir.h"

namespace stepscope::server {
namespace {
namespace fs = std::filesystem;

constexpr char kRun[] = "tf_gpu";

std::string TfDemoFile() {
  return std::string(STEPSCOPE_SHARED_DIR) +
         "/testdata/xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb";
}

QueryParams Params(std::initializer_list<std::pair<std::string, std::string>> list) {
  QueryParams params;
  for (const auto& [k, v] : list) params.emplace(k, v);
  return params;
}

uint64_t EventsIn(const xspace::XSpace& space) {
  uint64_t n = 0;
  for (const auto& plane : space.planes()) {
    for (const auto& line : plane.lines()) n += static_cast<uint64_t>(line.events_size());
  }
  return n;
}

class TraceRoutesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    base_ = new fs::path(fs::temp_directory_path() / ("stepscope_trace_routes_" + std::to_string(::getpid())));
    fs::remove_all(*base_);
    fs::path run = fs::path(xspace::ProfileRootDir((*base_ / "logdir").string())) / kRun;
    fs::create_directories(run);
    fs::copy_file(TfDemoFile(), run / "34.83.195.179_6003.xplane.pb");
    ProfileStoreOptions options;
    options.logdir = (*base_ / "logdir").string();
    store_ = new ProfileStore(options);
    routes_ = new TraceRoutes(store_);
  }
  static void TearDownTestSuite() {
    delete routes_;
    delete store_;
    fs::remove_all(*base_);
    delete base_;
  }

  static simdjson::dom::element Json(const HttpReply& reply, simdjson::dom::parser& parser) {
    EXPECT_EQ(reply.status, 200) << reply.body;
    return parser.parse(reply.body);
  }
  static std::string ErrorOf(const HttpReply& reply) {
    simdjson::dom::parser parser;
    auto doc = parser.parse(reply.body);
    std::string_view message;
    EXPECT_FALSE(doc["error"].get(message)) << reply.body;
    return std::string(message);
  }

  static fs::path* base_;
  static ProfileStore* store_;
  static TraceRoutes* routes_;
};
fs::path* TraceRoutesTest::base_ = nullptr;
ProfileStore* TraceRoutesTest::store_ = nullptr;
TraceRoutes* TraceRoutesTest::routes_ = nullptr;

TEST_F(TraceRoutesTest, TracksListDeviceSectionsThenHostThreads) {
  simdjson::dom::parser parser;
  auto tracks = Json(routes_->Handle("/api/trace/tracks", Params({{"run", kRun}})), parser);
  std::vector<std::string> sections;
  uint64_t events = 0;
  for (simdjson::dom::element section : tracks["sections"].get_array()) {
    sections.emplace_back(std::string_view(section["name"]));
    for (simdjson::dom::element track : section["tracks"].get_array()) events += uint64_t(track["events"]);
  }
  ASSERT_GE(sections.size(), 4u);
  // TF's demo host has activity on GPUs 1, 4 and 6 (testdata README), then the host.
  EXPECT_EQ(sections[0], "/device:GPU:1");
  EXPECT_EQ(sections[1], "/device:GPU:4");
  EXPECT_EQ(sections[2], "/device:GPU:6");
  EXPECT_EQ(sections[3], "Host Threads");
  EXPECT_EQ(events, uint64_t(tracks["events"]));
  // Device tracks start with Steps and TensorFlow Ops, then streams (GPU 1 has only a
  // copy stream; GPU 4 has everything).
  auto gpu4 = tracks["sections"].at(1)["tracks"];
  EXPECT_EQ(std::string_view(gpu4.at(0)["name"]), "Steps");
  EXPECT_EQ(std::string_view(gpu4.at(0)["kind"]), "steps");
  EXPECT_EQ(std::string_view(gpu4.at(1)["name"]), "TensorFlow Ops");
  EXPECT_EQ(std::string_view(gpu4.at(3)["kind"]), "stream");
}

// A one-host run has one index and one model, whatever its host is called: no host,
// "all", or the host's name.
TEST_F(TraceRoutesTest, OneHostRunHasOneIndexWhateverTheHostIsCalled) {
  const int64_t indexes = routes_->store().index_cache_stats().computations;
  const int64_t models = store_->model_cache_stats().computations;
  EXPECT_EQ(routes_->Handle("/api/trace/tracks", Params({{"run", kRun}})).status, 200);
  for (const char* host : {"all", "34.83.195.179_6003"}) {
    HttpReply reply = routes_->Handle("/api/trace/tracks", Params({{"run", kRun}, {"host", host}}));
    EXPECT_EQ(reply.status, 200) << host << ": " << reply.body;
  }
  EXPECT_LE(routes_->store().index_cache_stats().computations, indexes + 1);
  EXPECT_LE(store_->model_cache_stats().computations, models + 1);
}

TEST_F(TraceRoutesTest, FullRangeTilesAccountForEveryEvent) {
  simdjson::dom::parser parser;
  auto tracks = Json(routes_->Handle("/api/trace/tracks", Params({{"run", kRun}})), parser);
  const uint64_t total = uint64_t(tracks["events"]);
  const int64_t end = int64_t(tracks["end_ps"]);
  simdjson::dom::parser tile_parser;
  auto tiles = Json(routes_->Handle("/api/trace/tiles", Params({{"run", kRun},
                                                                 {"start_ps", "0"},
                                                                 {"end_ps", std::to_string(end + 1)},
                                                                 {"width_px", "1200"}})),
                    tile_parser);
  uint64_t counted = 0, primitives = 0;
  for (simdjson::dom::element track : tiles["tracks"].get_array()) {
    for (simdjson::dom::element count : track["count"].get_array()) {
      uint64_t c = uint64_t(count);
      counted += c == 0 ? 1 : c;
      ++primitives;
    }
  }
  EXPECT_EQ(counted, total);
  EXPECT_EQ(uint64_t(tiles["events"]), total);
  EXPECT_EQ(uint64_t(tiles["primitives"]), primitives);
  EXPECT_LT(primitives, total / 4) << "zoomed out, most events are summarised";
}

TEST_F(TraceRoutesTest, SummaryOfTheWholeTraceCountsEveryEventAtAnyZoom) {
  simdjson::dom::parser parser;
  auto tracks = Json(routes_->Handle("/api/trace/tracks", Params({{"run", kRun}})), parser);
  const uint64_t total = uint64_t(tracks["events"]);
  const std::string end = std::to_string(int64_t(tracks["end_ps"]) + 1);
  simdjson::dom::parser summary_parser;
  auto summary = Json(routes_->Handle("/api/trace/summary", Params({{"run", kRun}, {"start_ps", "0"}, {"end_ps", end}})),
                      summary_parser);
  EXPECT_EQ(uint64_t(summary["events"]), total) << "every event, though a full-range tile summarises most";
  uint64_t named = 0;
  int64_t previous = INT64_MAX;
  for (simdjson::dom::element name : summary["names"].get_array()) {
    named += uint64_t(name["count"]);
    const int64_t total_ps = int64_t(name["total_ps"]);
    EXPECT_LE(total_ps, previous) << "largest total first";
    EXPECT_LE(int64_t(name["self_ps"]), total_ps);
    previous = total_ps;
  }
  if (!bool(summary["truncated"])) {
    EXPECT_EQ(named, total);
  }
  // Restricted to one track: that track's events alone.
  simdjson::dom::element first = tracks["sections"].at(0)["tracks"].at(0);
  simdjson::dom::parser one_parser;
  auto one = Json(routes_->Handle("/api/trace/summary", Params({{"run", kRun},
                                                                {"start_ps", "0"},
                                                                {"end_ps", end},
                                                                {"tracks", std::to_string(int64_t(first["id"]))}})),
                  one_parser);
  EXPECT_EQ(uint64_t(one["events"]), uint64_t(first["events"]));
  HttpReply inverted = routes_->Handle("/api/trace/summary", Params({{"run", kRun}, {"start_ps", "10"}, {"end_ps", "5"}}));
  EXPECT_EQ(inverted.status, 400);
  EXPECT_NE(ErrorOf(inverted).find("before start_ps"), std::string::npos);
}

TEST_F(TraceRoutesTest, BadRequestsGetClearFourHundreds) {
  auto tiles = [](std::initializer_list<std::pair<std::string, std::string>> extra) {
    QueryParams params = Params({{"run", kRun}});
    for (const auto& [k, v] : extra) params.emplace(k, v);
    return routes_->Handle("/api/trace/tiles", params);
  };
  EXPECT_EQ(tiles({{"start_ps", "0"}, {"end_ps", "100"}}).status, 400);  // no width
  HttpReply inverted = tiles({{"start_ps", "100"}, {"end_ps", "100"}, {"width_px", "10"}});
  EXPECT_EQ(inverted.status, 400);
  EXPECT_NE(ErrorOf(inverted).find("empty"), std::string::npos);
  EXPECT_EQ(tiles({{"start_ps", "0"}, {"end_ps", "100"}, {"width_px", "0"}}).status, 400);
  EXPECT_EQ(tiles({{"start_ps", "0"}, {"end_ps", "100"}, {"width_px", "99999999"}}).status, 400);
  EXPECT_EQ(tiles({{"start_ps", "x"}, {"end_ps", "100"}, {"width_px", "10"}}).status, 400);
  EXPECT_EQ(tiles({{"start_ps", "0"}, {"end_ps", "100"}, {"width_px", "10"}, {"tracks", "1,,2"}}).status, 400);
  EXPECT_EQ(tiles({{"start_ps", "0"}, {"end_ps", "100"}, {"width_px", "10"}, {"tracks", "999999"}}).status, 400);
  EXPECT_EQ(tiles({{"start_ps", "0"}, {"end_ps", "100"}, {"width_px", "10"}, {"color", "red"}}).status, 400);
  EXPECT_EQ(tiles({{"start_ps", "0"}, {"end_ps", "100"}, {"width_px", "10"}, {"max_primitives", "0"}}).status, 400);
  EXPECT_EQ(routes_->Handle("/api/trace/tracks", Params({{"run", "../etc"}})).status, 400);
  EXPECT_EQ(routes_->Handle("/api/trace/tracks", Params({{"run", "nope"}})).status, 404);
  EXPECT_EQ(routes_->Handle("/api/trace/tracks", Params({{"run", kRun}, {"host", "nope"}})).status, 404);
  EXPECT_EQ(routes_->Handle("/api/trace/event", Params({{"run", kRun}, {"track", "0"}, {"event", "999999999"}})).status,
            404);
  EXPECT_EQ(routes_->Handle("/api/trace/search", Params({{"run", kRun}, {"q", ""}})).status, 400);
  EXPECT_EQ(routes_->Handle("/api/trace/search", Params({{"run", kRun}, {"q", "x"}, {"direction", "up"}})).status, 400);
  EXPECT_EQ(routes_->Handle("/api/trace/nothing", Params({{"run", kRun}})).status, 404);
  EXPECT_EQ(routes_->PrepareExport(Params({{"run", kRun}, {"format", "svg"}})).status().code(),
            StatusCode::kInvalidArgument);
}

TEST_F(TraceRoutesTest, SearchStepsThroughMatchesAndDetailsCarryEveryStat) {
  simdjson::dom::parser parser;
  auto first = Json(routes_->Handle("/api/trace/search", Params({{"run", kRun}, {"q", "memcpyh2d"}})), parser);
  ASSERT_GT(uint64_t(first["total"]), 1u);
  int64_t first_start = int64_t(first["match"]["start_ps"]);
  int64_t track = int64_t(first["match"]["track"]);
  int64_t event = int64_t(first["match"]["event"]);
  simdjson::dom::parser next_parser;
  auto next = Json(routes_->Handle("/api/trace/search", Params({{"run", kRun},
                                                                 {"q", "memcpyh2d"},
                                                                 {"from_ps", std::to_string(first_start)},
                                                                 {"track", std::to_string(track)},
                                                                 {"event", std::to_string(event)},
                                                                 {"direction", "next"}})),
                   next_parser);
  EXPECT_EQ(int64_t(next["index"]), 1);
  EXPECT_GE(int64_t(next["match"]["start_ps"]), first_start);
  simdjson::dom::parser details_parser;
  auto details = Json(routes_->Handle("/api/trace/event", Params({{"run", kRun},
                                                                   {"track", std::to_string(track)},
                                                                   {"event", std::to_string(event)}})),
                      details_parser);
  // Search is case-insensitive; the event keeps its own spelling (MemcpyH2D).
  std::string name{std::string_view(details["name"])};
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  EXPECT_NE(name.find("memcpyh2d"), std::string::npos) << name;
  EXPECT_EQ(int64_t(details["start_ps"]), first_start);
  EXPECT_GT(simdjson::dom::array(details["stats"]).size(), 0u);
}

TEST_F(TraceRoutesTest, ExportRoundTripsThroughTheChromeJsonImporter) {
  auto index = store_->FindRun(kRun);
  ASSERT_TRUE(index.ok());
  auto handle = routes_->store().GetIndex(*index, "");
  ASSERT_TRUE(handle.ok());
  const uint64_t expected = handle->index->num_events();
  for (const char* format : {"chrome", "perfetto"}) {
    for (const char* gzip : {"0", "1"}) {
      auto plan = routes_->PrepareExport(Params({{"run", kRun}, {"format", format}, {"gzip", gzip}}));
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      std::string bytes;
      ASSERT_TRUE(TraceRoutes::WriteExport(*plan, [&bytes](std::string_view piece) {
                    bytes.append(piece);
                    return true;
                  }).ok());
      EXPECT_EQ(base::IsGzip(bytes), gzip[0] == '1');
      xspace::XSpace space;
      importers::ImportStats stats;
      Status imported = importers::ImportTraceBytes(bytes, {}, &space, &stats);
      ASSERT_TRUE(imported.ok()) << format << " gzip=" << gzip << ": " << imported.ToString();
      EXPECT_EQ(EventsIn(space), expected) << format << " gzip=" << gzip;
    }
  }
}

TEST_F(TraceRoutesTest, ServedOverHttpWithStreamedExport) {
  ServerOptions options;
  options.logdir = (*base_ / "logdir").string();
  options.port = 0;
  options.ui_dir = (*base_ / "ui").string();
  fs::create_directories(options.ui_dir);
  std::ofstream(*base_ / "ui" / "index.html") << "<!doctype html><title>test</title>";
  auto server = HttpServer::Create(options);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  std::thread thread([&] { (void)(*server)->Run(); });
  httplib::Client client("127.0.0.1", (*server)->port());
  for (int i = 0; i < 100 && !client.Get("/api/info"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  auto tracks = client.Get("/api/trace/tracks?run=tf_gpu");
  ASSERT_TRUE(tracks);
  EXPECT_EQ(tracks->status, 200);
  auto bad = client.Get("/api/trace/tiles?run=tf_gpu&start_ps=5&end_ps=1&width_px=10");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  EXPECT_NE(bad->body.find("\"error\""), std::string::npos);
  auto exported = client.Get("/api/trace/export?run=tf_gpu&format=perfetto");
  ASSERT_TRUE(exported);
  EXPECT_EQ(exported->status, 200);
  EXPECT_NE(exported->get_header_value("Content-Disposition").find("tf_gpu_all.perfetto.json"), std::string::npos);
  xspace::XSpace space;
  EXPECT_TRUE(importers::ImportTraceBytes(exported->body, {}, &space).ok());
  EXPECT_GT(EventsIn(space), 10000u);
  (*server)->Stop();
  thread.join();
}

}  // namespace
}  // namespace stepscope::server
