// advisor: the recommendations of the TensorFlow performance guides, each fired only by
// evidence in the model and citing that evidence with its numbers.
//
// The rules, their thresholds and the report types are the model's
// (src/analysis/model/advice/: one file per family of rules, the registry in advice.cc),
// derived once per model (AdviceOf) because the overview page shows the same findings;
// this file declares the report (its JSON, tables, TypeScript and docs follow from the
// declaration; a Finding's one declaration also writes the overview's "recommendations")
// and is the tool.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/analysis/model/advice/advice.h"
#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {

// The model's advice (AdviceOf), as this tool's result.
AdvisorReport ComputeAdvice(const ProfileModel& model);

// ---- The result's declaration (output/schema.h): its JSON, tables, TypeScript and docs. ----

namespace finding_fields {
inline constexpr output::FieldInfo kId{.label = "Id", .description = "the rule's stable id, e.g. `input_bound`"};
inline constexpr output::FieldInfo kSeverity{.label = "Severity", .description = "`high`, `medium` or `low`"};
inline constexpr output::FieldInfo kTitle{.label = "Title", .description = "short, with the key number",
                                          .max_width = 60};
inline constexpr output::FieldInfo kEvidence{.label = "Evidence", .description = "the numbers that fired the rule, in words"};
inline constexpr output::FieldInfo kAdvice{.label = "Advice", .description = "what to change"};
inline constexpr output::FieldInfo kTool{.label = "Tool", .description = "the tool id that shows the evidence"};
inline constexpr output::FieldInfo kImpact{
    .label = "Impact %", .unit = "%", .description = "the share of step time (or device time) concerned; for ordering",
    .decimals = 1};
}  // namespace finding_fields

constexpr auto DescribeRecord(std::type_identity<Finding>) {
  using R = Finding;
  namespace f = finding_fields;
  return output::Record(
      "Finding", output::Field("id", &R::id, f::kId),
      output::Computed<R>("severity", [](const R& r) { return SeverityName(r.severity); }, f::kSeverity),
      output::Field("title", &R::title, f::kTitle), output::Field("evidence", &R::evidence, f::kEvidence),
      output::Computed<R>("numbers",
                          [](const R& r) {
                            std::vector<std::pair<std::string, double>> numbers;
                            numbers.reserve(r.numbers.size());
                            for (const EvidenceValue& v : r.numbers) numbers.emplace_back(v.name, v.value);
                            return numbers;
                          },
                          {.description = "the evidence's numbers by name, in the order the evidence cites them"}),
      output::Field("advice", &R::advice, f::kAdvice), output::Field("tool", &R::tool, f::kTool),
      output::Field("impact_percent", &R::impact_percent, f::kImpact));
}

// A finding as a table row: its fields but the numbers (a map, no column).
struct FindingRow {
  std::string id;
  std::string_view severity;
  std::string title;
  std::string evidence;
  std::string advice;
  std::string tool;
  double impact_percent = 0;
};
std::vector<FindingRow> FindingRows(const std::vector<Finding>& findings);

constexpr auto DescribeRecord(std::type_identity<FindingRow>) {
  using R = FindingRow;
  namespace f = finding_fields;
  return output::Record("FindingRow", output::Field("id", &R::id, f::kId),
                        output::Field("severity", &R::severity, f::kSeverity),
                        output::Field("title", &R::title, f::kTitle),
                        output::Field("evidence", &R::evidence, f::kEvidence),
                        output::Field("advice", &R::advice, f::kAdvice), output::Field("tool", &R::tool, f::kTool),
                        output::Field("impact_percent", &R::impact_percent, f::kImpact));
}

constexpr auto DescribeRecord(std::type_identity<CheckOutcome>) {
  using R = CheckOutcome;
  return output::Record(
      "CheckOutcome", output::Field("id", &R::id, {.label = "Check", .description = "the rule's id"}),
      output::Field("fired", &R::fired, {.label = "Fired", .description = "the rule found a problem (a finding)"}),
      output::Field("detail", &R::detail,
                    {.label = "Detail",
                     .description = "the measured value against the threshold, or why the rule did not apply",
                     .max_width = 100}));
}

constexpr auto DescribeRecord(std::type_identity<AdvisorReport>) {
  using R = AdvisorReport;
  return output::Record(
      "AdvisorReport", output::Constant("tool", "advisor"),
      output::Field("findings", &R::findings,
                    {.description = "by severity (`high`, `medium`, `low`), then impact"}),
      output::TableView<R>("findings", [](const R& r) { return FindingRows(r.findings); }, "Findings",
                           {.description = "the findings without their numbers, one row each"}),
      output::TableField("checks", &R::checks, "Checks",
                         {.description = "every rule, fired or not, in evaluation order"}));
}

std::string FormatResultText(const AdvisorReport& report, const ToolOptions& options);
// "Findings" as text (also used by the overview page).
std::string FormatFindingsText(const std::vector<Finding>& findings);

std::unique_ptr<Tool> MakeAdvisorTool();

}  // namespace stepscope::analysis
