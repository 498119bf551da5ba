// Reading and writing whole XSpace files (`*.xplane.pb`, optionally gzip-compressed).
//
// Commands read profiles only with the streaming reader (columnar_reader.h): one reader,
// no 2 GiB limit. ParseXSpace / ReadXSpaceFile remain as an independent decoder for tests
// and the protobuf fuzzer; product code writes with WriteXSpaceFile.
//
// Reads are bounded and checked by the rules of read_rules.h, the same as the streaming
// reader's: a file larger than the limit, a gzip stream that inflates past it or like a
// bomb, or bytes that are not an XSpace give a Status naming the file and the problem,
// never a crash or a silently empty profile.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "src/xspace/read_rules.h"
#include "src/xspace/xplane.h"
#include "stepscope/status.h"

namespace stepscope::xspace {

// Protobuf cannot parse one message of 2 GiB or more: files past that are refused here
// (the streaming reader, columnar_reader.h, has no such limit).
inline constexpr uint64_t kMaxProtobufXSpaceBytes = (uint64_t{2} << 30) - 1;

// Parses serialized XSpace bytes (gzip is detected and inflated). `what` names the
// source in error messages.
StatusOr<XSpace> ParseXSpace(std::string_view bytes, std::string_view what, const ReadLimits& limits = {});

// Reads `path` (`.xplane.pb` or gzip-compressed) into an XSpace.
StatusOr<XSpace> ReadXSpaceFile(const std::string& path, const ReadLimits& limits = {});

// Serializes deterministically (metadata maps in key order: one XSpace, one byte string).
// kResourceExhausted over protobuf's 2 GiB limit.
StatusOr<std::string> SerializeXSpace(const XSpace& space);

// Serializes as SerializeXSpace and writes atomically (temp file + rename); with `gzip` the file is compressed.
// With replace false, a file already at `path` is kAlreadyExists and stays as it was.
Status WriteXSpaceFile(const std::string& path, const XSpace& space, bool gzip = false, bool replace = true);

}  // namespace stepscope::xspace
