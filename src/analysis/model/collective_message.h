// Collectives' message sizes and NCCL's bus-bandwidth convention.
//
// Where a profile says how much data a collective moved:
//   - PyTorch >= 2.1 (Kineto): `record_param_comms` scopes, and the NCCL kernels Kineto
//     copies them onto, carry "Collective name", "dtype", "In msg nelems", "Out msg
//     nelems" and "Group size";
//   - older PyTorch: the `nccl:<collective>` record-function scope around the launch
//     carries its input tensor as "Input Dims" ([[n, ...]]) and "Input type" ("float");
//   - TensorFlow / XLA kernels and NCCL kernels of other frameworks carry nothing.
// The rank count of a collective comes from "Group size" when present, else the
// profile's distributedInfo.world_size (the `world_size` host plane stat), else the
// number of devices with activity on that host (multi_gpu applies the last two).
//
// Sizes follow nccl-tests (doc/PERFORMANCE.md): a collective's size S is the all-reduce /
// broadcast / reduce buffer, the all-gather's output (n shards), the reduce-scatter's
// input, the all-to-all's send buffer; algorithm bandwidth = S / time; bus bandwidth =
// algorithm bandwidth x factor(n): all-reduce 2(n-1)/n, all-gather / reduce-scatter /
// all-to-all (n-1)/n, broadcast / reduce / send-recv 1. Bus bandwidth is what compares
// with a link's bandwidth whatever the collective and rank count.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis {

std::string_view CollectiveKindName(CollectiveKind kind);  // "all_reduce", ...

// The collective a name is about: "nccl:all_reduce", "allreduce", "_allgather_base",
// "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "all-reduce.3", "NcclAllReduce".
// kOther when the name says none.
CollectiveKind CollectiveKindFromName(std::string_view name);

// Bytes per element of a dtype as PyTorch writes it: ScalarType names ("Float",
// "BFloat16", "Long") or C++ type names ("float", "c10::Half", "long int", "signed
// char"); 0 when unknown ("Scalar", "TensorList", "").
int64_t DtypeBytes(std::string_view dtype);

// Elements of the first tensor of an "Input Dims" value ("[[19618307]]" -> 19618307,
// "[[2, 3], [4]]" -> 6); nullopt when there is no tensor with dimensions.
std::optional<int64_t> FirstTensorElements(std::string_view input_dims_json);

// NCCL's bus-bandwidth factor for n ranks; 0 when n < 1.
double BusBandwidthFactor(CollectiveKind kind, int64_t ranks);

// What one collective moved, as far as the profile says.
struct CollectiveMessage {
  CollectiveKind kind = CollectiveKind::kOther;
  int64_t in_bytes = 0;    // 0: unknown
  int64_t out_bytes = 0;   // 0: unknown
  int64_t group_size = 0;  // ranks; 0: unknown
  bool sized() const { return in_bytes > 0 || out_bytes > 0; }
};

// The collective's size S in nccl-tests' sense (see the top of this file); `ranks` fills
// in a missing side (all-gather output = n x input); 0 when it cannot be known.
int64_t CollectiveSizeBytes(const CollectiveMessage& message, int64_t ranks);

// Reads CollectiveMessages from the events of one plane (the stats named at the top of
// this file, looked up once per plane).
class CollectiveStatReader {
 public:
  explicit CollectiveStatReader(const xspace::ColumnarPlane& plane);
  // The plane has any stat a message can be read from.
  bool has_any() const { return has_any_; }
  // The message an event's own stats describe; nullopt when they give no size.
  std::optional<CollectiveMessage> Read(uint32_t event) const;

 private:
  enum Role : int { kName, kDtype, kInNelems, kOutNelems, kGroupSize, kInputDims, kInputType, kNumRoles };
  const xspace::ColumnarPlane& plane_;
  std::vector<uint32_t> index_ = std::vector<uint32_t>(kNumRoles, xspace::ColumnarPlane::kNoStat);
  bool has_any_ = false;
};

// The plane stat `world_size` (Kineto's distributedInfo.world_size); 0 when absent.
int64_t PlaneWorldSize(const xspace::ColumnarPlane& plane);

}  // namespace stepscope::analysis
