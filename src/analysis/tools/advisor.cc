#include "src/analysis/tools/advisor.h"

#include "src/analysis/model/derivations.h"
#include "src/analysis/output/text_table.h"

namespace stepscope::analysis {

AdvisorReport ComputeAdvice(const ProfileModel& model) {
  return WithFreshDerivations(model, [&] { return AdviceOf(model); });
}

std::vector<FindingRow> FindingRows(const std::vector<Finding>& findings) {
  std::vector<FindingRow> rows;
  rows.reserve(findings.size());
  for (const Finding& f : findings) {
    rows.push_back({f.id, SeverityName(f.severity), f.title, f.evidence, f.advice, f.tool, f.impact_percent});
  }
  return rows;
}

std::string FormatFindingsText(const std::vector<Finding>& findings) {
  if (findings.empty()) return "  No problems found by the advisor's checks.\n";
  std::string out;
  int n = 0;
  for (const Finding& f : findings) {
    out += "  " + std::to_string(++n) + ". [" + std::string(SeverityName(f.severity)) + "] " +
           output::SanitizeForTerminal(f.title) + "\n";
    out += "     evidence: " + output::SanitizeForTerminal(f.evidence) + "\n";
    out += "     advice:   " + output::SanitizeForTerminal(f.advice) + "\n";
    out += "     see:      " + f.tool + "\n";
  }
  return out;
}

std::string FormatResultText(const AdvisorReport& r, const ToolOptions&) {
  std::string out = "Advisor findings\n" + FormatFindingsText(r.findings) + "\n";
  out += output::FormatTextTable(output::RowsTable("checks", "Checks", r.checks));
  return out;
}

namespace {

class AdvisorTool final : public DeclaredTool<AdvisorReport> {
 public:
  std::string_view id() const override { return "advisor"; }
  std::string_view description() const override {
    return "Recommendations from the TF performance guides, each tied to the numbers that triggered it.";
  }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions&) const override {
    return MakeToolResult(AdviceOf(model));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeAdvisorTool() { return std::make_unique<AdvisorTool>(); }

}  // namespace stepscope::analysis
