#include "src/analysis/model/collective_message.h"

#include <gtest/gtest.h>

namespace stepscope::analysis {
namespace {

TEST(CollectiveMessageTest, KindsFromEveryFrameworksNames) {
  EXPECT_EQ(CollectiveKindFromName("nccl:all_reduce"), CollectiveKind::kAllReduce);
  EXPECT_EQ(CollectiveKindFromName("allreduce"), CollectiveKind::kAllReduce);
  EXPECT_EQ(CollectiveKindFromName("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"),
            CollectiveKind::kAllReduce);
  EXPECT_EQ(CollectiveKindFromName("all-reduce.3"), CollectiveKind::kAllReduce);
  EXPECT_EQ(CollectiveKindFromName("nccl:_all_gather_base"), CollectiveKind::kAllGather);
  EXPECT_EQ(CollectiveKindFromName("_allgather_base"), CollectiveKind::kAllGather);
  EXPECT_EQ(CollectiveKindFromName("ncclKernel_ReduceScatter_RING_LL_Sum_half"), CollectiveKind::kReduceScatter);
  EXPECT_EQ(CollectiveKindFromName("reduce-scatter.1"), CollectiveKind::kReduceScatter);
  EXPECT_EQ(CollectiveKindFromName("nccl:all_to_all"), CollectiveKind::kAllToAll);
  EXPECT_EQ(CollectiveKindFromName("nccl:broadcast"), CollectiveKind::kBroadcast);
  EXPECT_EQ(CollectiveKindFromName("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t"), CollectiveKind::kSendRecv);
  EXPECT_EQ(CollectiveKindFromName("ncclKernel_Reduce_RING_LL_Sum_float"), CollectiveKind::kReduce);
  EXPECT_EQ(CollectiveKindFromName("ncclDevKernel_Generic"), CollectiveKind::kOther);
}

TEST(CollectiveMessageTest, DtypesInBothOfPyTorchsSpellings) {
  EXPECT_EQ(DtypeBytes("Float"), 4);
  EXPECT_EQ(DtypeBytes("float"), 4);
  EXPECT_EQ(DtypeBytes("BFloat16"), 2);
  EXPECT_EQ(DtypeBytes("c10::Half"), 2);
  EXPECT_EQ(DtypeBytes("long int"), 8);
  EXPECT_EQ(DtypeBytes("signed char"), 1);
  EXPECT_EQ(DtypeBytes("unsigned char"), 1);
  EXPECT_EQ(DtypeBytes("TensorList"), 0);
  EXPECT_EQ(DtypeBytes(""), 0);
}

TEST(CollectiveMessageTest, FirstTensorOfInputDims) {
  EXPECT_EQ(FirstTensorElements("[[19618307]]"), 19618307);
  EXPECT_EQ(FirstTensorElements("[[2, 3], [4]]"), 6);
  EXPECT_EQ(FirstTensorElements("[[], [4, 5]]"), 20);
  EXPECT_EQ(FirstTensorElements("[[], []]"), std::nullopt);
  EXPECT_EQ(FirstTensorElements("[[-1]]"), std::nullopt);
  EXPECT_EQ(FirstTensorElements("[[99999999999, 99999999999]]"), std::nullopt) << "overflow";
  EXPECT_EQ(FirstTensorElements("junk"), std::nullopt);
}

TEST(CollectiveMessageTest, NcclBusFactorsAndSizes) {
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveKind::kAllReduce, 8), 2.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveKind::kAllGather, 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveKind::kReduceScatter, 4), 3.0 / 4);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveKind::kBroadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveKind::kAllReduce, 0), 0.0);
  // All-gather: the gathered output; from the input shard when only that is known.
  EXPECT_EQ(CollectiveSizeBytes({CollectiveKind::kAllGather, 100, 800, 8}, 8), 800);
  EXPECT_EQ(CollectiveSizeBytes({CollectiveKind::kAllGather, 100, 0, 0}, 4), 400);
  // Reduce-scatter: the full input.
  EXPECT_EQ(CollectiveSizeBytes({CollectiveKind::kReduceScatter, 800, 100, 8}, 8), 800);
  EXPECT_EQ(CollectiveSizeBytes({CollectiveKind::kReduceScatter, 0, 100, 0}, 8), 800);
  EXPECT_EQ(CollectiveSizeBytes({CollectiveKind::kAllReduce, 400, 400, 2}, 2), 400);
  EXPECT_EQ(CollectiveSizeBytes({CollectiveKind::kAllGather, 100, 0, 0}, 0), 0) << "ranks unknown";
}

}  // namespace
}  // namespace stepscope::analysis
