// What the analysing commands (analyze, diff, check) share: turning a path (+ run, host)
// into a model with the loader the server uses, telling the user on stderr when a choice
// was made for them or reading takes long, and printing a result as text, JSON or one
// table as CSV.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"
#include "src/load/profile_loader.h"
#include "stepscope/status.h"

namespace stepscope::cli {

struct CommandProfile {
  load::ResolvedProfile resolved;
  analysis::ProfileModel model;
};

// Finds the files `request` names. On stderr: "<command>: N runs in PATH; using the
// newest, R (choose with <run_flag>)" when a logdir had several runs and none was named.
StatusOr<load::ResolvedProfile> ResolveCommandProfile(std::string_view command, const load::ProfileRequest& request,
                                                      std::string_view run_flag, std::ostream& err);

// Builds the model of the resolved hosts (combined when several) with `options` (event
// trees always left out), with a progress line on stderr when reading takes more than a
// second.
StatusOr<analysis::ProfileModel> BuildCommandModel(std::string_view command, const load::ResolvedProfile& profile,
                                                   std::ostream& err, const analysis::ModelOptions& options = {});

// ResolveCommandProfile, the batch heap sized for its files (batch_memory.h), then
// BuildCommandModel with the request's model options (e.g. one step): one profile's whole
// load. Errors name the path.
StatusOr<CommandProfile> LoadCommandProfile(std::string_view command, const load::ProfileRequest& request,
                                            std::string_view run_flag, std::ostream& err);

// "run R" / the file path, "host H" / "hosts H1, H2": how text output names a profile.
std::string DescribeProfile(const std::string& path, const load::ResolvedProfile& resolved);

// Prints `result` as `format` ("text", "json" or "csv"); with a non-empty `table` only that
// table (required for csv). kNotFound listing the tables for an unknown table name.
Status PrintResult(const analysis::ToolResult& result, std::string_view format, const std::string& table,
                   const analysis::ToolOptions& options, std::ostream& out);

}  // namespace stepscope::cli
