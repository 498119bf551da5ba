// Reading one serialized xla.HloProto (the bytes of an `Hlo Proto` stat) into an HloModule.
//
// The bytes come from a profile file, so they are untrusted: the reader never crashes and
// never overflows on them. Unreadable bytes (truncated, not an HloProto, over the limits
// below) give an error naming the problem; readable bytes with inconsistent contents
// (ids that name nothing, cyclic computation calls, saturated shapes) give a module with
// the problems listed in HloModule::diagnostics. Fields this build does not know are
// skipped, so newer XLA versions read as well as the one the schema was taken from.
#pragma once

#include <cstdint>
#include <string_view>

#include "src/hlo/hlo_module.h"
#include "stepscope/status.h"

namespace stepscope::hlo {

struct HloReadLimits {
  // Serialized size. Real modules are 1 KB - a few tens of MB; the protobuf decoder needs
  // the whole message in memory at once.
  int64_t max_bytes = int64_t{256} << 20;
  // Messages (instructions, shapes, metadata, buffers, heap events, ...) in one proto. A
  // message can be 2 bytes on the wire but ~100-300 in memory, so this, not max_bytes,
  // bounds what hostile bytes make the decoder allocate (~1 GB at the limit). A large
  // real module (100k instructions with buffer assignment) has ~1-2M.
  int64_t max_messages = 4'000'000;
  // Nesting of messages (tuple shapes in tuple shapes ...), protobuf's own default.
  int max_depth = 100;
  // What the decoded module may cost, estimated from the bytes before anything is
  // decoded (the generated messages and HloModule's records): at most
  // decoded_bytes_per_byte for each byte read (at least decoded_floor_bytes for any file),
  // and never more than max_decoded_bytes. 3.9 M empty instructions (2 bytes each on
  // the wire, 7.8 MB) decoded to 4.5 GB: ~575 bytes per byte. Real modules (JAX's, in
  // ../shared) are estimated at 25-30 per byte, a module of 50 k small instructions with
  // laid-out shapes at 48: their instructions carry names, shapes and metadata.
  int64_t decoded_bytes_per_byte = 64;
  int64_t decoded_floor_bytes = int64_t{1} << 20;
  int64_t max_decoded_bytes = INT64_MAX;
};

// The decoded size ParseHloProto allows a proto of `serialized_bytes`.
int64_t DecodedBytesAllowed(const HloReadLimits& limits, int64_t serialized_bytes);

// Parses `bytes` as an xla.HloProto. Errors (kDataLoss for undecodable bytes,
// kResourceExhausted over a limit, kInvalidArgument without a module) are one line.
StatusOr<HloModule> ParseHloProto(std::string_view bytes, const HloReadLimits& limits = {});

}  // namespace stepscope::hlo
