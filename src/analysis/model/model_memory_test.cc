// ModelMemoryBytes against what building a model really made this process keep: the
// resident set after the build (freed memory given back first) minus before it.
#include "src/analysis/model/model_memory.h"

#include <malloc.h>

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "proto/stepscope/hlo.pb.h"
#include "src/analysis/model/build_profile_model.h"
#include "src/hlo/hlo_test_util.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::analysis {
namespace {

// Resident bytes after handing freed heap memory back to the OS.
size_t ResidentBytes() {
  ::malloc_trim(0);
  std::ifstream status("/proc/self/status");
  std::string key;
  size_t kib = 0;
  while (status >> key) {
    if (key == "VmRSS:") {
      status >> kib;
      break;
    }
  }
  return kib * 1024;
}

// Builds the model of `space`, keeps it, and compares the estimate with what it kept.
void ExpectEstimateNearMeasured(const xspace::XSpace& space, const char* what) {
  std::string bytes = *xspace::SerializeXSpace(space);
  std::string path = ::testing::TempDir() + "/model_memory_" + std::to_string(::getpid()) + ".xplane.pb";
  std::ofstream(path, std::ios::binary) << bytes;
  bytes.clear();
  bytes.shrink_to_fit();
  const size_t before = ResidentBytes();
  StatusOr<ProfileModel> model = BuildProfileModelFromFile(path);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const size_t kept = ResidentBytes() - before;
  const size_t estimate = ModelMemoryBytes(*model);
  std::printf("%s: model keeps %.1f MiB, estimated %.1f MiB\n", what, kept / 1048576.0, estimate / 1048576.0);
  EXPECT_GE(estimate, kept / 2) << what;
  EXPECT_LE(estimate, kept * 2) << what;
  std::remove(path.c_str());
}

// 600 k events on 8 threads, names from a pool, a stat each: the columns and the event
// trees are most of such a model.
TEST(ModelMemoryTest, EventsAndTreesAreCounted) {
  xspace::XSpace space;
  xspace::XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  for (int thread = 0; thread < 8; ++thread) {
    xspace::XLineBuilder line = host.GetOrCreateLine(thread);
    line.SetName("thread " + std::to_string(thread));
    for (int i = 0; i < 75'000; ++i) {
      xspace::XEventBuilder event =
          line.AddEvent(*host.GetOrCreateEventMetadata("op_" + std::to_string((i * 7 + thread) % 5000)));
      event.SetOffsetPs(int64_t{i} * 1'000'000);
      event.SetDurationPs(900'000);
      event.AddStatValue(*host.GetOrCreateStatMetadata("shape"), "[" + std::to_string(i % 97) + ",128]");
    }
  }
  ExpectEstimateNearMeasured(space, "600k events");
}

// An XLA program the reader accepts: its module is most of the model (the estimate left
// programs out, so a server kept 8.4 GB of them while reporting 243 KB).
TEST(ModelMemoryTest, XlaProgramsAreCounted) {
  stepscope::xla_hlo::HloProto proto;
  proto.mutable_hlo_module()->set_name("big");
  proto.mutable_hlo_module()->set_id(1);
  auto* computation = proto.mutable_hlo_module()->add_computations();
  computation->set_name("entry");
  for (int i = 0; i < 40'000; ++i) {
    auto* instruction = computation->add_instructions();
    instruction->set_id(i + 1);
    instruction->set_name("add." + std::to_string(i));
    instruction->set_opcode("add");
  }
  ExpectEstimateNearMeasured(hlo::testing::ProfileWithProgram("big(1)", proto.SerializeAsString()),
                             "40k HLO instructions");
}

}  // namespace
}  // namespace stepscope::analysis
