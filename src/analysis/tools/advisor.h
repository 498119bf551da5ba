// advisor: the recommendations of the TensorFlow performance guides, each fired only by
// evidence in the model and citing that evidence with its numbers.
//
// The rules, their thresholds and the report types are the model's
// (src/analysis/model/advice/: one file per family of rules, the registry in advice.cc),
// derived once per model (AdviceOf) because the overview page shows the same findings;
// this file presents the report (JSON, tables, text) and is the tool.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/analysis/model/advice/advice.h"
#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {

// The model's advice (AdviceOf), as this tool's result.
AdvisorReport ComputeAdvice(const ProfileModel& model);

void WriteResultJson(const AdvisorReport& report, output::JsonWriter* writer);
// The "findings" array alone (the overview page's "recommendations").
void WriteFindingsJson(const std::vector<Finding>& findings, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const AdvisorReport& report);
std::string FormatResultText(const AdvisorReport& report, const ToolOptions& options);
// "Findings" as text (also used by the overview page).
std::string FormatFindingsText(const std::vector<Finding>& findings);

std::unique_ptr<Tool> MakeAdvisorTool();

}  // namespace stepscope::analysis
