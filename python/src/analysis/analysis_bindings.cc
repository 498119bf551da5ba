#include "python/src/analysis/analysis_bindings.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "python/src/errors.h"
#include "src/analysis/output/table.h"
#include "src/analysis/tool.h"
#include "src/analysis/tool_options.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/diff.h"
#include "src/load/profile_loader.h"

namespace py = pybind11;

namespace stepscope::python {
namespace {

// Raises the stepscope exception class for the status's code (stepscope/__init__.py).
[[noreturn]] void Raise(const Status& status) {
  ThrowIfError(status);
  throw std::logic_error("Raise: an ok status");
}

template <typename T>
T ValueOrRaise(StatusOr<T> value) {
  if (!value.ok()) Raise(value.status());
  return std::move(*value);
}

py::object CellValue(const analysis::output::Cell& cell) {
  return std::visit(
      [](const auto& v) -> py::object {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::monostate>) {
          return py::none();
        } else {
          return py::cast(v);
        }
      },
      cell);
}

// One loaded profile: its model (every selected host combined) and the hosts of its run.
class LoadedProfile {
 public:
  static std::unique_ptr<LoadedProfile> Load(const std::string& path, const std::string& run, const std::string& host) {
    load::ProfileRequest request{.path = path, .run = run, .host = host};
    auto profile = std::make_unique<LoadedProfile>();
    Status status = OkStatus();
    {
      py::gil_scoped_release release;  // loading is long and touches no Python object
      StatusOr<load::ResolvedProfile> resolved = load::ResolveProfile(request);
      if (!resolved.ok()) {
        status = resolved.status();
      } else {
        profile->hosts_ = resolved->all_hosts;
        profile->run_ = resolved->run;
        StatusOr<analysis::ProfileModel> model = load::LoadCombinedModel(resolved->files, request.model_options);
        if (model.ok()) {
          profile->model_ = std::make_unique<analysis::ProfileModel>(std::move(*model));
        } else {
          status = model.status();
        }
      }
    }
    if (!status.ok()) Raise(status);
    return profile;
  }

  const std::vector<std::string>& hosts() const { return hosts_; }
  const std::string& run() const { return run_; }

  // The tool's result as its JSON text; options by their declared names, as text.
  std::string ToolJson(const std::string& tool_id, const std::map<std::string, std::string>& options) const {
    return Run(tool_id, options)->ToJson(/*pretty=*/false);
  }

  // `stepscope diff this other` as its JSON text: this profile is A (before), `other` B.
  std::string DiffJson(const LoadedProfile& other, const std::string& label_a, const std::string& label_b) const {
    analysis::DiffOptions options{.label_a = label_a, .label_b = label_b};
    py::gil_scoped_release release;
    return analysis::StructToolResult<analysis::ProfileDiff>(
               analysis::CompareProfiles(*model_, *other.model_, options))
        .ToJson(/*pretty=*/false);
  }

  // The tool's table `name`: (column ids, rows of Python values).
  py::tuple Table(const std::string& tool_id, const std::string& name,
                  const std::map<std::string, std::string>& options) const {
    const analysis::output::Table table = ValueOrRaise(Run(tool_id, options)->FindTable(name));
    py::list columns;
    for (const analysis::output::Column& column : table.columns) columns.append(column.id);
    py::list rows;
    for (const std::vector<analysis::output::Cell>& row : table.rows) {
      py::list values;
      for (const analysis::output::Cell& cell : row) values.append(CellValue(cell));
      rows.append(std::move(values));
    }
    return py::make_tuple(columns, rows);
  }

 private:
  std::unique_ptr<analysis::ToolResult> Run(const std::string& tool_id,
                                            const std::map<std::string, std::string>& options) const {
    const analysis::Tool* tool = ValueOrRaise(analysis::FindTool(tool_id));
    analysis::ToolOptions parsed;
    const std::vector<const analysis::ToolOptionDecl*> declared = analysis::OptionsOf(*tool);
    for (const auto& [name, text] : options) {
      auto option = std::find_if(declared.begin(), declared.end(),
                                 [&](const analysis::ToolOptionDecl* d) { return d->name == name; });
      if (option == declared.end()) {
        std::string own_names;
        for (const analysis::ToolOptionDecl* d : declared) own_names += (own_names.empty() ? "" : ", ") + std::string(d->name);
        Raise(InvalidArgumentError(tool_id + " takes no option '" + name + "'" +
                                   (own_names.empty() ? "" : "; its options: " + own_names)));
      }
      if (Status set = (*option)->set(name, text, &parsed); !set.ok()) Raise(set);
    }
    if (Status valid = analysis::ValidateToolOptions(parsed, ""); !valid.ok()) Raise(valid);
    if (!tool->IsAvailable(*model_)) Raise(analysis::ToolUnavailableError(*tool, *model_));
    StatusOr<std::unique_ptr<analysis::ToolResult>> result = [&] {
      py::gil_scoped_release release;
      return tool->Run(*model_, parsed);
    }();
    return ValueOrRaise(std::move(result));
  }

  std::unique_ptr<analysis::ProfileModel> model_;
  std::vector<std::string> hosts_;
  std::string run_;
};

}  // namespace

void BindAnalysis(py::module_& m) {
  py::module_ sub = m.def_submodule("_analysis", "stepscope.load's bindings over the loader and the analysis tools");
  py::class_<LoadedProfile>(sub, "LoadedProfile")
      .def_static("load", &LoadedProfile::Load, py::arg("path"), py::arg("run") = "", py::arg("host") = "")
      .def_property_readonly("hosts", &LoadedProfile::hosts)
      .def_property_readonly("run", &LoadedProfile::run)
      .def("tool_json", &LoadedProfile::ToolJson, py::arg("tool"), py::arg("options"))
      .def("diff_json", &LoadedProfile::DiffJson, py::arg("other"), py::arg("label_a"), py::arg("label_b"))
      .def("table", &LoadedProfile::Table, py::arg("tool"), py::arg("table"), py::arg("options"));
  sub.def("tool_ids", [] {
    std::vector<std::string> ids;
    for (const analysis::Tool* tool : analysis::AllTools()) ids.emplace_back(tool->id());
    return ids;
  });
}

}  // namespace stepscope::python
