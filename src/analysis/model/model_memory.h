// What a ProfileModel holds in memory, for the server's model cache: its budget counts
// this, so it must count what the model really keeps - the columnar events and strings it
// points at, the XLA programs, the event trees and the tables - not only its rows.
// (The cache's estimate left out the HLO modules and the XSpace's strings: /api/info said
// 243,520 bytes while the process kept 8.4 GB.) Checked against measured allocation in
// model_memory_test.cc.
#pragma once

#include <cstddef>

#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis {

// Bytes the model keeps alive, shared parts (source, programs) included in full.
size_t ModelMemoryBytes(const ProfileModel& model);

}  // namespace stepscope::analysis
