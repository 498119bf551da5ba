// TraceMe name encoding, both directions: "name#key=value,key2=value2#".
//
// Encoding is stepscope::EncodeMetadata (include/stepscope/annotation.h). Decoding
// follows the rules TensorFlow's host tracer applies when it turns a TraceMe name into
// an XEvent (reference/xspace.md §3): a name has metadata iff it ends with '#'; the text
// before the first '#' (whitespace-stripped) is the event name; each '#'-separated part
// after it is split on ',' except inside quotes, (), [] or {}; each pair is split at its
// first '='; pairs with an empty key or value are dropped.
#pragma once

#include <string_view>
#include <vector>

namespace stepscope::collect {

struct TraceMeArg {
  std::string_view key;
  std::string_view value;
};

struct DecodedTraceMeName {
  std::string_view name;          // the event name, without metadata
  std::vector<TraceMeArg> args;   // in order of appearance; views into the input
};

// Views point into `encoded`, which must outlive the result.
DecodedTraceMeName DecodeTraceMeName(std::string_view encoded);

}  // namespace stepscope::collect
