// A profile handed over as bytes instead of a path: `stepscope.load(data)` in Python, and a
// session collected in memory (`stepscope.stop(write=False)`), which must reach the tools
// without a file ever being written.
#pragma once

#include <string_view>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/model/profile_model.h"
#include "stepscope/status.h"

namespace stepscope::load {

// What the bytes hold, told by their content (there is no file name to go by): trace JSON
// when the first non-blank byte is '{' or '[', else a serialized XSpace. Either may be
// gzip-compressed.
enum class BytesFormat { kXSpace, kTraceJson };
BytesFormat SniffBytesFormat(std::string_view bytes);

// Builds the model of one host's profile from `bytes`, as LoadHostModel does from a file:
// the same readers, limits and errors, which name `what` ("<bytes>" when empty) instead of
// a path. The host name comes from the profile (its XSpace hostnames, the trace's rank),
// else options.hostname, else "localhost".
StatusOr<analysis::ProfileModel> LoadModelFromBytes(std::string_view bytes, std::string_view what,
                                                    const analysis::ModelOptions& options = {});

}  // namespace stepscope::load
