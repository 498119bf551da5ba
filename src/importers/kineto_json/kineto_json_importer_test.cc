// The Kineto importer on every PyTorch trace in shared/testdata/traces, checked against
// the README's facts and against an independent read of each file (testing/trace_facts).
#include "src/importers/kineto_json/kineto_json_importer.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "src/importers/importer_registry.h"
#include "src/importers/testing/trace_facts.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_visitor.h"

namespace stepscope::importers {
namespace {

using testing::FileEvent;
using testing::FileFacts;
using testing::ImportedEvent;

struct ReadmeFacts {
  const char* file;
  int events;         // "traceEvents array length"
  const char* host;   // expected host name
  int steps;          // ProfilerStep#N user annotations on the host
  bool no_overlaps;   // the file has no partially overlapping slices on a line
};

// From shared/testdata/traces/README.md (event totals) and the files' distributedInfo.
constexpr ReadmeFacts kKinetoFiles[] = {
    {"hta_sampled_rank-0.json.gz", 4855, "rank0", 2, true},
    {"hta_sampled_rank-1.json.gz", 4720, "rank1", 2, true},
    {"hta_ns_resolution_rank-0.pt.trace.json.gz", 68692, "rank0", 5, true},
    {"hta_amd_mi250_minitoy_train_ROCm6_2_kineto.json.gz", 220, "localhost", 2, true},
    {"tracelens_h100_bert_small.json.gz", 2551, "localhost", 1, false},
    {"tracelens_h100_qwen1.5_0.5b_chat.json.gz", 18221, "localhost", 1, false},
};

const std::set<std::string> kHostCategories = {"cpu_op",          "cuda_runtime",      "cuda_driver",
                                               "user_annotation", "python_function",   "cpu_instant_event"};
const std::set<std::string> kDeviceCategories = {"kernel", "gpu_memcpy", "gpu_memset"};

bool IsMetadataEvent(const FileEvent& event) {
  return event.cat == "Trace" || event.pid == "\"Spans\"" || event.pid == "\"Traces\"" || event.pid == "\"\"";
}

struct Imported {
  Status status;
  ImportStats stats;
  xspace::XSpace space;
  FileFacts facts;
  std::string facts_error;
};

Imported ImportFile(const std::string& file) {
  Imported imported;
  std::string path = testing::TraceTestFile(file);
  imported.status = ImportTraceFile(path, {}, &imported.space, &imported.stats);
  imported.facts = testing::ReadFileFacts(testing::ReadInflated(path), &imported.facts_error);
  return imported;
}

class KinetoFileTest : public ::testing::TestWithParam<ReadmeFacts> {};

TEST_P(KinetoFileTest, ImportsEveryEventOfTheFileAndAccountsForAll) {
  const ReadmeFacts& readme = GetParam();
  Imported imported = ImportFile(readme.file);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  ASSERT_TRUE(imported.facts_error.empty()) << imported.facts_error;
  const ImportStats& stats = imported.stats;
  EXPECT_EQ(stats.format, "kineto_json");
  EXPECT_EQ(stats.events_read, static_cast<uint64_t>(readme.events));
  EXPECT_EQ(imported.facts.events.size(), static_cast<size_t>(readme.events));
  EXPECT_EQ(stats.events_read, stats.events_imported + stats.metadata_events + stats.flow_events + stats.DroppedTotal());
  EXPECT_EQ(stats.DroppedTotal(), 0u) << (stats.dropped.empty() ? "" : stats.dropped.begin()->first);
  EXPECT_EQ(stats.xevents_written, stats.events_imported);
  ASSERT_EQ(imported.space.hostnames_size(), 1);
  EXPECT_EQ(imported.space.hostnames(0), readme.host);

  // Events by where they land, against the file's own counts by category.
  int host = 0, device = 0, annotations = 0, flows = 0;
  for (const auto& [cat, count] : imported.facts.count_by_cat) {
    if (kHostCategories.count(cat)) host += count;
    if (kDeviceCategories.count(cat)) device += count;
    if (cat == "gpu_user_annotation") annotations += count;
  }
  for (const FileEvent& event : imported.facts.events) flows += (event.ph == "s" || event.ph == "f") ? 1 : 0;
  int got_host = 0, got_device = 0, got_annotations = 0;
  for (const ImportedEvent& event : testing::ImportedEvents(imported.space)) {
    if (event.plane == "/host:CPU") {
      ++got_host;
    } else if (event.line == "Framework Name Scope") {
      ++got_annotations;
    } else {
      ++got_device;
    }
  }
  EXPECT_EQ(got_host, host);
  EXPECT_EQ(got_device, device);
  EXPECT_EQ(got_annotations, annotations);
  EXPECT_EQ(stats.flow_events, static_cast<uint64_t>(flows));
}

std::string DeterministicBytes(const xspace::XSpace& space) {
  std::string bytes;
  google::protobuf::io::StringOutputStream stream(&bytes);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  space.SerializeToCodedStream(&coded);
  coded.Trim();
  return bytes;
}

// The threaded import (tokenizer on its own thread, lines readied and planes written in
// parallel) gives the single-threaded result, byte for byte, whatever the window.
TEST_P(KinetoFileTest, ThreadsDoNotChangeTheResult) {
  std::string path = testing::TraceTestFile(GetParam().file);
  ImportOptions one_thread;
  one_thread.threads = 1;
  xspace::XSpace reference;
  ImportStats reference_stats;
  ASSERT_TRUE(ImportTraceFile(path, one_thread, &reference, &reference_stats).ok());
  const std::string reference_bytes = DeterministicBytes(reference);
  for (int threads : {2, 3, 8}) {
    for (size_t window : {size_t{8192}, size_t{4} << 20}) {
      ImportOptions options;
      options.threads = threads;
      options.window_bytes = window;
      xspace::XSpace space;
      ImportStats stats;
      ASSERT_TRUE(ImportTraceFile(path, options, &space, &stats).ok());
      EXPECT_TRUE(DeterministicBytes(space) == reference_bytes)
          << "the XSpaces differ with " << threads << " threads, window " << window;
      EXPECT_EQ(stats.Warnings(), reference_stats.Warnings());
      EXPECT_EQ(stats.events_read, reference_stats.events_read);
      EXPECT_EQ(stats.events_imported, reference_stats.events_imported);
      EXPECT_EQ(stats.flow_events, reference_stats.flow_events);
      EXPECT_EQ(stats.xevents_written, reference_stats.xevents_written);
    }
  }
}

TEST_P(KinetoFileTest, EventsKeepTheFilesNamesTimesAndDurations) {
  const ReadmeFacts& readme = GetParam();
  Imported imported = ImportFile(readme.file);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  using Key = std::tuple<std::string, int64_t, int64_t>;  // name, wall ns, duration ns
  std::vector<Key> expected, got;
  for (const FileEvent& event : imported.facts.events) {
    if ((event.ph != "X" && event.ph != "i") || IsMetadataEvent(event)) continue;
    std::string name = event.name;
    if (name == "[memory]") {
      name = event.args.count("Bytes") && event.args.at("Bytes")[0] == '-' ? "MemoryDeallocation" : "MemoryAllocation";
    }
    int64_t duration = readme.no_overlaps ? event.dur_ns : 0;
    expected.emplace_back(name, imported.facts.base_time_ns + event.ts_ns, duration);
  }
  int sub_ns_offsets = 0;
  for (const ImportedEvent& event : testing::ImportedEvents(imported.space, &sub_ns_offsets)) {
    got.emplace_back(event.display_name, event.wall_ns, readme.no_overlaps ? event.duration_ps / 1000 : 0);
  }
  EXPECT_EQ(sub_ns_offsets, 0);
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i], expected[i]) << "event " << i << ": " << std::get<0>(expected[i]);
  }
}

TEST_P(KinetoFileTest, StepsAreTheProfilerStepAnnotationsWithTheirDurations) {
  const ReadmeFacts& readme = GetParam();
  Imported imported = ImportFile(readme.file);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  std::vector<std::pair<int64_t, int64_t>> expected;  // step, duration ps
  for (const FileEvent& event : imported.facts.events) {
    if (event.cat != "user_annotation" || event.name.rfind("ProfilerStep#", 0) != 0) continue;
    expected.emplace_back(std::stoll(event.name.substr(13)), event.dur_ns * 1000);
  }
  std::vector<std::pair<int64_t, int64_t>> got;
  for (const ImportedEvent& event : testing::ImportedEvents(imported.space)) {
    if (!event.stats.count("_r")) continue;
    EXPECT_EQ(event.plane, "/host:CPU");
    EXPECT_EQ(event.name, "ProfilerStep");
    EXPECT_EQ(event.stats.at("_r"), "1");
    EXPECT_EQ(event.display_name, "ProfilerStep#" + event.stats.at("step_num"));
    got.emplace_back(std::stoll(event.stats.at("step_num")), event.duration_ps);
  }
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(static_cast<int>(got.size()), readme.steps);
  EXPECT_EQ(got, expected);
}

TEST_P(KinetoFileTest, KernelsCarryLaunchDetailsAndLinkToTheirLaunch) {
  const ReadmeFacts& readme = GetParam();
  Imported imported = ImportFile(readme.file);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  std::map<std::pair<std::string, int64_t>, const FileEvent*> file_kernels;
  std::set<std::string> file_launches;
  for (const FileEvent& event : imported.facts.events) {
    if (event.cat == "kernel") file_kernels[{event.name, imported.facts.base_time_ns + event.ts_ns}] = &event;
    if ((event.cat == "cuda_runtime" || event.cat == "cuda_driver") && event.args.count("correlation")) {
      file_launches.insert(event.args.at("correlation"));
    }
  }
  int expected_linked = 0;
  for (const auto& [key, event] : file_kernels) expected_linked += file_launches.count(event->args.at("correlation"));
  std::vector<ImportedEvent> events = testing::ImportedEvents(imported.space);
  std::set<std::string> host_correlations;
  for (const ImportedEvent& event : events) {
    if (event.plane == "/host:CPU" && event.stats.count("correlation_id")) host_correlations.insert(event.stats.at("correlation_id"));
  }
  int kernels = 0, linked = 0;
  for (const ImportedEvent& event : events) {
    auto it = file_kernels.find({event.name, event.wall_ns});
    if (event.plane == "/host:CPU" || it == file_kernels.end()) continue;
    ++kernels;
    const FileEvent& source = *it->second;
    ASSERT_TRUE(event.stats.count("kernel_details")) << event.name;
    const std::string& details = event.stats.at("kernel_details");
    if (source.args.count("registers per thread")) {
      EXPECT_EQ(details.rfind("regs:" + source.args.at("registers per thread") + " static_shared:" +
                                  source.args.at("shared memory") + " dynamic_shared:0 grid:", 0),
                0u)
          << details;
      std::string grid = source.args.at("grid");  // "[x, y, z]"
      grid.erase(std::remove_if(grid.begin(), grid.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
                 grid.end());
      EXPECT_NE(details.find("grid:" + grid.substr(1, grid.size() - 2) + " "), std::string::npos) << details;
      EXPECT_NE(details.find(" occ_pct:"), std::string::npos) << details;
    }
    EXPECT_EQ(event.stats.at("correlation_id"), source.args.at("correlation"));
    linked += host_correlations.count(event.stats.at("correlation_id")) ? 1 : 0;
  }
  EXPECT_EQ(kernels, imported.facts.count_by_cat["kernel"]);
  // Kernels whose launch is in the file find it through correlation_id.
  EXPECT_EQ(linked, expected_linked);
  EXPECT_GT(linked, 0);
}

INSTANTIATE_TEST_SUITE_P(TestTraces, KinetoFileTest, ::testing::ValuesIn(kKinetoFiles),
                         [](const ::testing::TestParamInfo<ReadmeFacts>& info) {
                           std::string name = info.param.file;
                           name = name.substr(0, name.find('.'));
                           for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

TEST(KinetoImporterTest, ReadmeCategoryCountsOfRank0) {
  Imported imported = ImportFile("hta_sampled_rank-0.json.gz");
  ASSERT_TRUE(imported.status.ok());
  std::map<std::string, int> expected = {{"cpu_op", 2329},         {"cuda_runtime", 1204}, {"kernel", 1154},
                                         {"user_annotation", 73}, {"gpu_memcpy", 40},     {"gpu_memset", 10}};
  for (const auto& [cat, count] : expected) EXPECT_EQ(imported.facts.count_by_cat[cat], count) << cat;
}

TEST(KinetoImporterTest, NsResolutionIsKept) {
  Imported imported = ImportFile("hta_ns_resolution_rank-0.pt.trace.json.gz");
  ASSERT_TRUE(imported.status.ok());
  std::set<int64_t> ns_within_us;
  for (const ImportedEvent& event : testing::ImportedEvents(imported.space)) ns_within_us.insert(event.wall_ns % 1000);
  // Through a double the fractions of these 1.7e15 us timestamps would collapse to
  // multiples of 250 ns; the file has ns-resolution values.
  EXPECT_GT(ns_within_us.size(), 500u);
}

TEST(KinetoImporterTest, AcToGFlowsJoinALaunchToItsKernel) {
  Imported imported = ImportFile("hta_ns_resolution_rank-0.pt.trace.json.gz");
  ASSERT_TRUE(imported.status.ok());
  // Independently: ac2g ids with an 's' on a host thread and an 'f' on the device.
  std::map<std::string, std::pair<bool, bool>> file_flows;
  for (const FileEvent& event : imported.facts.events) {
    if (event.cat != "ac2g") continue;
    if (event.ph == "s") file_flows[event.id].first = true;
    if (event.ph == "f" && event.pid == "0") file_flows[event.id].second = true;
  }
  int expected_pairs = 0;
  for (const auto& [id, ends] : file_flows) expected_pairs += ends.first && ends.second;
  std::vector<ImportedEvent> events = testing::ImportedEvents(imported.space);
  int pairs = 0;
  std::map<uint64_t, std::pair<const ImportedEvent*, const ImportedEvent*>> by_id;
  for (const ImportedEvent& event : events) {
    auto it = event.stats.find("flow");
    if (it == event.stats.end()) continue;
    uint64_t value = std::stoull(it->second);
    if ((value >> 58) != 9) continue;  // GpuLaunch flows only
    uint64_t id = (value >> 2) & ((uint64_t{1} << 56) - 1);
    if ((value & 3) == 2 && event.plane == "/host:CPU") by_id[id].first = &event;
    if ((value & 3) == 1 && event.plane != "/host:CPU") by_id[id].second = &event;
  }
  for (const auto& [id, ends] : by_id) {
    if (ends.first == nullptr || ends.second == nullptr) continue;
    ++pairs;
    EXPECT_EQ(ends.first->stats.at("correlation_id"), std::to_string(id));
    EXPECT_EQ(ends.second->stats.at("correlation_id"), std::to_string(id));
  }
  EXPECT_EQ(pairs, expected_pairs);
  EXPECT_GT(pairs, 1000);
}

TEST(KinetoImporterTest, DevicePropertiesBecomeDeviceCapabilities) {
  Imported imported = ImportFile("hta_ns_resolution_rank-0.pt.trace.json.gz");
  ASSERT_TRUE(imported.status.ok());
  int gpus = 0;
  for (const xspace::XPlane& plane : imported.space.planes()) {
    if (!xspace::IsGpuPlaneName(plane.name())) continue;
    ++gpus;
    xspace::XPlaneVisitor visitor(&plane);
    EXPECT_EQ(visitor.GetStat(xspace::StatType::kDevCapCoreCount)->IntValue(), 80);
    EXPECT_EQ(visitor.GetStat(xspace::StatType::kDevCapMemorySize)->UintValue(), 34079637504u);
    EXPECT_EQ(visitor.GetStat(xspace::StatType::kDevCapComputeCapMajor)->IntValue(), 7);
    EXPECT_EQ(visitor.GetStat(xspace::StatType::kGpuDeviceName)->StrOrRefValue(), "Tesla V100-SXM2-32GB");
  }
  EXPECT_EQ(gpus, 8);  // "an 8x Tesla V100-SXM2-32GB host"
}

TEST(KinetoImporterTest, MemoryEventsBecomeAllocatorEvents) {
  Imported imported = ImportFile("tracelens_h100_bert_small.json.gz");
  ASSERT_TRUE(imported.status.ok());
  int file_memory = 0;
  std::map<std::string, int> file_allocators;
  for (const FileEvent& event : imported.facts.events) {
    if (event.name != "[memory]") continue;
    ++file_memory;
    ++file_allocators[event.args.at("Device Type") == "1" ? "cuda:" + event.args.at("Device Id") : "cpu"];
  }
  int allocations = 0, deallocations = 0;
  std::map<std::string, int> allocators;
  for (const ImportedEvent& event : testing::ImportedEvents(imported.space)) {
    if (event.name != "MemoryAllocation" && event.name != "MemoryDeallocation") continue;
    (event.name == "MemoryAllocation" ? allocations : deallocations)++;
    EXPECT_EQ(event.duration_ps, 0);
    ++allocators[event.stats.at("allocator_name")];
    EXPECT_TRUE(event.stats.count("bytes_allocated") && event.stats.count("requested_bytes") &&
                event.stats.count("addr") && event.stats.count("bytes_available") &&
                event.stats.count("peak_bytes_in_use"));
    EXPECT_GE(std::stoll(event.stats.at("peak_bytes_in_use")), std::stoll(event.stats.at("bytes_allocated")));
  }
  EXPECT_EQ(allocations + deallocations, file_memory);
  EXPECT_EQ(allocators, file_allocators);
  EXPECT_EQ(file_memory, 236);  // README: 236 cpu_instant_event
  EXPECT_GT(deallocations, 0);
}

}  // namespace
}  // namespace stepscope::importers
