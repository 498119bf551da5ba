#include "src/importers/kineto_json/kineto_args.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace stepscope::importers {
namespace {

// Each Kineto arg the importer maps is found under its exact spelling, and nothing else
// is taken for one of them (other capitalizations, prefixes, lookalikes of equal length).
TEST(KinetoArgIndexTest, KnownArgsAndOnlyThoseAreFound) {
  const std::vector<std::pair<std::string, KinetoArg>> known = {
      {"device", KinetoArg::kDevice},
      {"stream", KinetoArg::kStream},
      {"context", KinetoArg::kContext},
      {"correlation", KinetoArg::kCorrelation},
      {"External id", KinetoArg::kExternalId},
      {"external id", KinetoArg::kExternalIdLower},
      {"registers per thread", KinetoArg::kRegisters},
      {"shared memory", KinetoArg::kSharedMemory},
      {"grid", KinetoArg::kGrid},
      {"block", KinetoArg::kBlock},
      {"est. achieved occupancy %", KinetoArg::kAchievedOccupancy},
      {"theoretical occupancy %", KinetoArg::kTheoreticalOccupancy},
      {"bytes", KinetoArg::kBytes},
      {"Bytes", KinetoArg::kMemoryBytes},
      {"Total Allocated", KinetoArg::kTotalAllocated},
      {"Total Reserved", KinetoArg::kTotalReserved},
      {"Addr", KinetoArg::kAddr},
      {"Device Id", KinetoArg::kDeviceId},
      {"Device Type", KinetoArg::kDeviceType},
      {"Ev Idx", KinetoArg::kEvIdx},
  };
  const std::vector<std::string> unknown = {"", "Device", "Stream", "correlatioN", "External Id", "gird",
                                            "blocks", "byte", "Total allocated", "Ev Idy", "queued",
                                            "Sequence number", "Fwd thread id", "cbid", "warps per SM"};
  RawTraceEvent event;
  for (const auto& [key, arg] : known) event.args.push_back({key, {JsonKind::kNumber, "1"}});
  for (const std::string& key : unknown) event.args.push_back({key, {JsonKind::kNumber, "2"}});
  KinetoArgIndex index;
  index.Index(event);
  for (size_t i = 0; i < known.size(); ++i) {
    EXPECT_EQ(index.KindOf(i), known[i].second) << known[i].first;
    EXPECT_EQ(index.Get(known[i].second), &event.args[i]) << known[i].first;
  }
  for (size_t i = 0; i < unknown.size(); ++i) {
    EXPECT_EQ(index.KindOf(known.size() + i), KinetoArg::kCount) << unknown[i];
  }
}

}  // namespace
}  // namespace stepscope::importers
