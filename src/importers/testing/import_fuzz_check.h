// The body of the importers' fuzz targets (tests/fuzz/*_json_fuzzer.cc): imports `data`
// with one importer and aborts when a promise is broken, so libFuzzer reports logic bugs
// as well as crashes. Also used by the corpus replay tests (no libFuzzer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace stepscope::importers {

// Returns 0 (libFuzzer's "keep going"); aborts on a broken invariant:
//  - events_read == imported + metadata + flow points + dropped;
//  - every line's events are sorted by start and properly nested;
//  - every event's metadata id exists on its plane.
int FuzzOneTraceImport(std::string_view importer_name, const uint8_t* data, size_t size);

}  // namespace stepscope::importers
