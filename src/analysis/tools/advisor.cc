#include "src/analysis/tools/advisor.h"

#include "src/analysis/model/derivations.h"
#include "src/analysis/output/text_table.h"

namespace stepscope::analysis {
namespace {

using output::ColumnType;
using output::Table;

Table FindingsTable(const std::vector<Finding>& findings) {
  Table t;
  t.name = "findings";
  t.title = "Findings";
  t.columns = {{"id", "Id"},
               {"severity", "Severity"},
               {"title", "Title", ColumnType::kString, 2, 60},
               {"evidence", "Evidence"},
               {"advice", "Advice"},
               {"tool", "Tool"},
               {"impact_percent", "Impact %", ColumnType::kDouble, 1}};
  for (const Finding& f : findings) {
    t.AddRow({f.id, std::string(SeverityName(f.severity)), f.title, f.evidence, f.advice, f.tool, f.impact_percent});
  }
  return t;
}

Table ChecksTable(const std::vector<CheckOutcome>& checks) {
  Table t;
  t.name = "checks";
  t.title = "Checks";
  t.columns = {{"id", "Check"}, {"fired", "Fired", ColumnType::kBool}, {"detail", "Detail", ColumnType::kString, 2, 100}};
  for (const CheckOutcome& c : checks) t.AddRow({c.id, c.fired, c.detail});
  return t;
}

}  // namespace

AdvisorReport ComputeAdvice(const ProfileModel& model) {
  return WithFreshDerivations(model, [&] { return AdviceOf(model); });
}

void WriteFindingsJson(const std::vector<Finding>& findings, output::JsonWriter* w) {
  w->BeginArray();
  for (const Finding& f : findings) {
    w->BeginObject();
    w->Field("id", f.id);
    w->Field("severity", SeverityName(f.severity));
    w->Field("title", f.title);
    w->Field("evidence", f.evidence);
    w->Key("numbers");
    w->BeginObject();
    for (const EvidenceValue& v : f.numbers) w->Field(v.name, v.value);
    w->EndObject();
    w->Field("advice", f.advice);
    w->Field("tool", f.tool);
    w->Field("impact_percent", f.impact_percent);
    w->EndObject();
  }
  w->EndArray();
}

void WriteResultJson(const AdvisorReport& r, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("tool", "advisor");
  w->Key("findings");
  WriteFindingsJson(r.findings, w);
  w->Key("checks");
  output::WriteTableRowsJson(ChecksTable(r.checks), w);
  w->EndObject();
}

std::vector<Table> BuildTables(const AdvisorReport& r) { return {FindingsTable(r.findings), ChecksTable(r.checks)}; }

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
  Table checks = ChecksTable(r.checks);
  out += output::FormatTextTable(checks);
  return out;
}

namespace {

class AdvisorTool final : public Tool {
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
