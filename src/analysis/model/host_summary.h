// A host's summary: what the multi-host tools read of one host's model, as bytes, so that a
// run's hosts are read once and every later question is answered from the summaries
// (issue 37: XProf's per-host map, cached beside the host's file).
//
// It holds every field of ProfileModel but the two that tie a model to its file, the event
// trees (host_threads) and the columnar source; the XLA programs (hlo) travel as the
// /host:metadata plane they were read from, and are read again from it; the input
// pipeline's events travel as their analysis (PipelineEvents::analysis). A model built with
// keep_event_tree off and then encoded and decoded gives every tool but the trace viewer
// its result byte for byte (host_summary_test holds that on the shared profiles, one host
// and combined).
//
// The format is a cache's, not an archive's: versioned (a summary of another version is
// refused, and rebuilt by its caller), little-endian, and read back on the machine that
// wrote it. Decoding checks every length against the bytes left, so a corrupt or hostile
// summary is an error, never a crash or an allocation larger than itself.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "src/analysis/model/profile_model.h"
#include "stepscope/status.h"

namespace stepscope::analysis {

// Bump on any change to what is encoded or how.
inline constexpr uint32_t kHostSummaryVersion = 3;

// The model as summary bytes (after a magic and the version). `xla_programs`: the
// /host:metadata plane as an XSpace of that one plane (load/plane_scan.h) when the model
// has XLA programs (model.hlo), else empty.
std::string EncodeHostSummary(const ProfileModel& model, std::string_view xla_programs = {});

// The model back. kDataLoss for bytes that are not a summary, a truncated or corrupt one;
// kFailedPrecondition for a summary of another version (stale: rebuild it).
StatusOr<ProfileModel> DecodeHostSummary(std::string_view bytes);

}  // namespace stepscope::analysis
