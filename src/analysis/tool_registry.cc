#include "src/analysis/tool_registry.h"

#include "src/analysis/tools/advisor.h"
#include "src/analysis/tools/framework_op_stats.h"
#include "src/analysis/tools/graph_viewer.h"
#include "src/analysis/tools/hlo_stats.h"
#include "src/analysis/tools/input_pipeline.h"
#include "src/analysis/tools/kernel_stats.h"
#include "src/analysis/tools/memory_profile.h"
#include "src/analysis/tools/memory_viewer.h"
#include "src/analysis/tools/multi_gpu.h"
#include "src/analysis/tools/op_profile.h"
#include "src/analysis/tools/overview_page.h"
#include "src/analysis/tools/pod_viewer.h"
#include "src/analysis/tools/roofline_model.h"
#include "src/analysis/tools/tf_data_bottleneck.h"
#include "src/analysis/tools/trace_viewer.h"

namespace stepscope::analysis {

const std::vector<const Tool*>& AllTools() {
  // The table. Built once, never freed (tools are stateless and live for the program).
  static const std::vector<const Tool*>* const tools = [] {
    auto* list = new std::vector<const Tool*>;
    list->push_back(MakeOverviewPageTool().release());
    list->push_back(MakeInputPipelineTool().release());
    list->push_back(MakeFrameworkOpStatsTool().release());
    list->push_back(MakeKernelStatsTool().release());
    list->push_back(MakeAdvisorTool().release());
    list->push_back(MakePodViewerTool().release());
    list->push_back(MakeTraceViewerTool().release());
    list->push_back(MakeMemoryProfileTool().release());
    list->push_back(MakeMultiGpuTool().release());
    list->push_back(MakeOpProfileTool().release());
    list->push_back(MakeHloStatsTool().release());
    list->push_back(MakeRooflineModelTool().release());
    list->push_back(MakeMemoryViewerTool().release());
    list->push_back(MakeGraphViewerTool().release());
    list->push_back(MakeTfDataBottleneckTool().release());
    return list;
  }();
  return *tools;
}

std::string ToolIdList() {
  std::string ids;
  for (const Tool* tool : AllTools()) {
    if (!ids.empty()) ids += ", ";
    ids += tool->id();
  }
  return ids;
}

StatusOr<const Tool*> FindTool(std::string_view id) {
  for (const Tool* tool : AllTools()) {
    if (tool->id() == id) return tool;
  }
  return NotFoundError("unknown tool '" + std::string(id) + "'; valid tools: " + ToolIdList());
}

std::vector<const Tool*> AvailableTools(const ProfileModel& model) {
  std::vector<const Tool*> available;
  for (const Tool* tool : AllTools()) {
    if (tool->IsAvailable(model)) available.push_back(tool);
  }
  return available;
}

StatusOr<std::unique_ptr<ToolResult>> RunTool(std::string_view id, const ProfileModel& model,
                                              const ToolOptions& options) {
  auto tool = FindTool(id);
  if (!tool.ok()) return tool.status();
  if (!(*tool)->IsAvailable(model)) return ToolUnavailableError(**tool, model);
  return (*tool)->Run(model, options);
}

Status ToolUnavailableError(const Tool& tool, const ProfileModel& model) {
  std::string message = "tool '" + std::string(tool.id()) + "' does not apply to this profile";
  if (!tool.requirement().empty()) message += " (it needs " + std::string(tool.requirement()) + ")";
  std::string why = tool.WhyUnavailable(model);
  if (!why.empty()) message += ": " + why;
  return FailedPreconditionError(message);
}

}  // namespace stepscope::analysis
