// tf_data_bottleneck_analysis: which stage of the input pipeline to fix, and how.
//
// The analysis is the model's (src/analysis/model/tf_data_analysis.h, derived once per
// model and also read by the input analysis); this file presents it (JSON, tables, text).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/model/tf_data_analysis.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {


// The model's tf.data analysis (TfDataAnalysisOf), as this tool's result.
TfDataBottleneckResult ComputeTfDataBottleneck(const ProfileModel& model);

void WriteResultJson(const TfDataBottleneckResult& result, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const TfDataBottleneckResult& result);
std::string FormatResultText(const TfDataBottleneckResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeTfDataBottleneckTool();

}  // namespace stepscope::analysis
