// A GPU's inter-GPU link bandwidth, for comparing collectives' bus bandwidth with it.
//
// Profiles do not record it (CUPTI, Kineto's deviceProperties and TF's device plane stats
// carry the memory bandwidth, not the link's), so it is looked up from the device's name
// and compute capability in a table of published per-GPU figures, one direction (what
// nccl-tests' bus bandwidth compares with):
//
//   NVLink (SXM / HBM parts):  V100 (7.0) NVLink 2, 6 links  150 GB/s
//                              A100 (8.0) NVLink 3, 12 links 300 GB/s
//                              H100/H200 (9.0) NVLink 4, 18  450 GB/s
//                              B200/GB200 (10.0) NVLink 5    900 GB/s
//   PCIe x16 otherwise:        compute capability < 8: Gen3 16 GB/s; 8.x: Gen4 32 GB/s;
//                              9.0 and later: Gen5 64 GB/s
//
// A name with "PCIe" is taken as a PCIe card whatever its compute capability. The figures
// are peaks: NCCL reaches about 80-90 % of them on large messages.
#pragma once

#include <string>

#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis {

struct LinkBandwidth {
  double gb_per_s = 0;  // 1e9 bytes per second, one direction; 0 when unknown
  std::string link;     // "NVLink 4 (18 links)", "PCIe Gen4 x16", ""
};

LinkBandwidth LinkBandwidthOf(const DeviceCapabilities& device);

}  // namespace stepscope::analysis
