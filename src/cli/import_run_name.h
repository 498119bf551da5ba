// How `stepscope import` names the run it writes, so imported runs can be told apart in
// the dashboard's Run menu and in `stepscope info <logdir>` (named by import time, two
// imports of different traces looked alike).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace stepscope::cli {

// "dir/resnet50_rank-0.pt.trace.json.gz" -> "resnet50_rank-0": the file name without the
// trace suffixes PyTorch, TensorFlow and gzip add.
std::string TraceFileStem(std::string_view path);

// The run name for importing `paths` without --run. One file: its stem. Several: the
// longest common prefix of their stems, trimmed of trailing separators
// ("hta_sampled_rank-0", "hta_sampled_rank-1" -> "hta_sampled_rank"), or, when they share
// no usable prefix, "<first stem>_and_<n>_more". Characters outside [A-Za-z0-9._-] become
// '_', at most 100 characters, never empty, "." or "..".
std::string RunNameForTraces(const std::vector<std::string>& paths);

// `name`, or name_2, name_3, ... whichever does not exist yet under
// <logdir>/plugins/profile/: an import never adds hosts to an earlier run unless --run
// names that run.
std::string FreshRunName(std::string_view logdir, const std::string& name);

}  // namespace stepscope::cli
