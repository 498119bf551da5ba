// One plane of an XSpace without reading the others: the top-level fields are walked by
// their lengths, and only each plane's first bytes (its id and name) are read. For the
// small planes a command needs from a large file: the Task Environment (capture_window.h)
// and the XLA programs of /host:metadata (a host's summary, summary_cache.h).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace stepscope::load {

// Reads up to `size` bytes at `offset` (fewer at the end).
using ReadAt = std::function<std::string(uint64_t offset, size_t size)>;

// A serialized XSpace holding only the plane named `name` (its bytes as they are, behind
// the planes field's tag and length), or nullopt when the `total_bytes` that `read` reads
// are not an XSpace with such a plane of at most `max_plane_bytes`.
std::optional<std::string> FindPlaneAsXSpace(const ReadAt& read, uint64_t total_bytes, std::string_view name,
                                             uint64_t max_plane_bytes);

// The same over an uncompressed .xplane.pb file (a gzip'ed one has no such plane).
std::optional<std::string> FindPlaneInFile(const std::string& path, std::string_view name, uint64_t max_plane_bytes);

// The same over bytes in memory.
std::optional<std::string> FindPlaneInBytes(std::string_view bytes, std::string_view name, uint64_t max_plane_bytes);

}  // namespace stepscope::load
