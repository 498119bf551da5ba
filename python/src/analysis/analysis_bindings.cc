#include "python/src/analysis/analysis_bindings.h"

#include <pybind11/stl.h>

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
#include "src/analysis/tools/check.h"
#include "src/analysis/tools/diff.h"
#include "src/load/bytes_profile.h"
#include "src/load/profile_loader.h"
#include "src/load/summary_cache.h"

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

py::object ColumnDict(const analysis::output::Column& column) {
  py::dict d;
  d["id"] = column.id;
  d["label"] = column.label;
  d["unit"] = column.unit;
  d["decimals"] = column.text_decimals;
  return d;
}

// The model the CLI's commands build: the tools read its summaries only, and without the
// per-event trees it takes half the memory (a Profile may live as long as a notebook).
analysis::ModelOptions ToolModelOptions() {
  analysis::ModelOptions options;
  options.keep_event_tree = false;
  return options;
}

// A tool's (or diff's, or check's) result: its JSON, its tables and its text, from the
// one ToolResult the CLI would print.
class Result {
 public:
  Result(std::unique_ptr<analysis::ToolResult> result, analysis::ToolOptions options)
      : result_(std::move(result)), options_(std::move(options)) {}

  std::string Json() const { return result_->ToJson(/*pretty=*/false); }
  std::vector<std::string> TableNames() const { return result_->TableNames(); }
  std::string Text() const { return result_->FormatText(options_); }

  // The table `name`: {name, title, columns: [{id, label, unit, decimals}], rows}.
  py::dict Table(const std::string& name) const {
    const analysis::output::Table table = ValueOrRaise(result_->FindTable(name));
    py::list columns;
    for (const analysis::output::Column& column : table.columns) columns.append(ColumnDict(column));
    py::list rows;
    for (const std::vector<analysis::output::Cell>& row : table.rows) {
      py::list values;
      for (const analysis::output::Cell& cell : row) values.append(CellValue(cell));
      rows.append(std::move(values));
    }
    py::dict d;
    d["name"] = table.name;
    d["title"] = table.title;
    d["columns"] = std::move(columns);
    d["rows"] = std::move(rows);
    return d;
  }

 private:
  std::unique_ptr<analysis::ToolResult> result_;
  analysis::ToolOptions options_;
};

// One loaded profile: its model (every selected host combined) and the hosts of its run.
class LoadedProfile {
 public:
  static std::unique_ptr<LoadedProfile> Load(const std::string& path, const std::string& run, const std::string& host) {
    load::ProfileRequest request{.path = path, .run = run, .host = host, .model_options = ToolModelOptions()};
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

  // A profile given as bytes (an XSpace or trace JSON, gzip or not); `what` names it in
  // errors. Nothing is written: this is how a session collected in memory is analysed.
  static std::unique_ptr<LoadedProfile> LoadBytes(const py::buffer& data, const std::string& what) {
    const py::buffer_info info = data.request();
    if (info.ndim != 1 || info.itemsize != 1) Raise(InvalidArgumentError("load: bytes are expected, not a buffer of " + std::to_string(info.ndim) + " dimensions"));
    const std::string_view bytes(static_cast<const char*>(info.ptr), static_cast<size_t>(info.size));
    auto profile = std::make_unique<LoadedProfile>();
    StatusOr<analysis::ProfileModel> model = InternalError("unreachable");
    {
      py::gil_scoped_release release;  // the buffer is kept alive by `data`, held by the caller
      model = load::LoadModelFromBytes(bytes, what, ToolModelOptions());
    }
    if (!model.ok()) Raise(model.status());
    profile->model_ = std::make_unique<analysis::ProfileModel>(std::move(*model));
    profile->hosts_ = profile->model_->hostnames;
    return profile;
  }

  const std::vector<std::string>& hosts() const { return hosts_; }
  const std::string& run() const { return run_; }

  // The tool's result; options by their declared names, as text.
  Result RunTool(const std::string& tool_id, const std::map<std::string, std::string>& options) const {
    analysis::ToolOptions parsed = ParseOptions(tool_id, options);
    return Result(Run(tool_id, parsed), parsed);
  }

  // `stepscope diff this other`: this profile is A (before), `other` B.
  Result Diff(const LoadedProfile& other, const std::string& label_a, const std::string& label_b) const {
    analysis::DiffOptions options{.label_a = label_a, .label_b = label_b};
    py::gil_scoped_release release;
    return Result(std::make_unique<analysis::StructToolResult<analysis::ProfileDiff>>(
                      analysis::CompareProfiles(*model_, *other.model_, options)),
                  {});
  }

  // `stepscope check`: `budgets` in the budget file's syntax (one `KEY <= VALUE` or
  // `KEY >= VALUE` per line). A broken budget is a result, not an error.
  Result Check(const std::string& budgets) const {
    std::vector<analysis::Budget> parsed = ValueOrRaise(analysis::ParseBudgetFile(budgets));
    if (parsed.empty()) {
      Raise(InvalidArgumentError("check: no budgets (e.g. \"step_ms <= 120\"); keys: " + analysis::BudgetKeyList()));
    }
    return Result(std::make_unique<analysis::StructToolResult<analysis::CheckResult>>(
                      analysis::CheckBudgets(*model_, parsed)),
                  {});
  }

 private:
  static analysis::ToolOptions ParseOptions(const std::string& tool_id,
                                            const std::map<std::string, std::string>& options) {
    const analysis::Tool* tool = ValueOrRaise(analysis::FindTool(tool_id));
    analysis::ToolOptions parsed;
    for (const auto& [name, text] : options) {
      const analysis::ToolOptionDecl* option = ValueOrRaise(analysis::FindOptionOf(*tool, name));
      if (Status set = option->set(name, text, &parsed); !set.ok()) Raise(set);
    }
    if (Status valid = analysis::ValidateToolOptions(parsed, ""); !valid.ok()) Raise(valid);
    return parsed;
  }

  std::unique_ptr<analysis::ToolResult> Run(const std::string& tool_id, const analysis::ToolOptions& options) const {
    const analysis::Tool* tool = ValueOrRaise(analysis::FindTool(tool_id));
    if (!tool->IsAvailable(*model_)) Raise(analysis::ToolUnavailableError(*tool, *model_));
    StatusOr<std::unique_ptr<analysis::ToolResult>> result = [&] {
      py::gil_scoped_release release;
      return tool->Run(*model_, options);
    }();
    return ValueOrRaise(std::move(result));
  }

  std::unique_ptr<analysis::ProfileModel> model_;
  std::vector<std::string> hosts_;
  std::string run_;
};

// ---- stepscope.cluster: a multi-host map's task, run in process on a cluster's worker ----

py::dict HostDict(const load::HostInRun& host) {
  py::dict d;
  d["run"] = host.run;
  d["host"] = host.file.host;
  d["path"] = host.file.path;
  d["format"] = host.file.format == load::ProfileFormat::kXSpace ? "xspace" : "trace_json";
  d["size_bytes"] = host.file.size_bytes;
  d["mtime_ns"] = host.file.mtime_ns;
  return d;
}

load::HostProfileFile HostFileOf(const py::dict& host) {
  return {.host = host["host"].cast<std::string>(),
          .path = host["path"].cast<std::string>(),
          .format = host["format"].cast<std::string>() == "xspace" ? load::ProfileFormat::kXSpace
                                                                    : load::ProfileFormat::kTraceJson,
          .size_bytes = host["size_bytes"].cast<int64_t>(),
          .mtime_ns = host["mtime_ns"].cast<int64_t>()};
}

// Every host file `path` names, as dicts (run, host, path, format, size_bytes, mtime_ns).
py::list HostFiles(const std::string& path) {
  StatusOr<std::vector<load::HostInRun>> hosts = [&] {
    py::gil_scoped_release release;
    return load::ListHostFiles(path);
  }();
  py::list out;
  for (const load::HostInRun& host : ValueOrRaise(std::move(hosts))) out.append(HostDict(host));
  return out;
}

bool HasCurrentSummary(const py::dict& host, const std::string& cache_dir) {
  const load::HostProfileFile file = HostFileOf(host);
  py::gil_scoped_release release;
  return load::HasCurrentSummary(file, {.cache_dir = cache_dir});
}

// Reads or builds and writes one host's summary (what `stepscope summarize` does for it):
// {state, summary_path, summary_bytes, note}. Raises the loader's error for a host that
// cannot be read.
py::dict SummarizeHost(const py::dict& host, const std::string& cache_dir) {
  const load::HostProfileFile file = HostFileOf(host);
  StatusOr<load::SummarizedHost> summarized = [&] {
    py::gil_scoped_release release;
    return load::SummarizeHost(file, {.cache_dir = cache_dir});
  }();
  const load::SummarizedHost& done = ValueOrRaise(std::move(summarized));
  py::dict d;
  d["state"] = std::string(load::SummaryStateName(done.found));
  d["summary_path"] = done.summary_path;
  d["summary_bytes"] = done.summary_bytes;
  d["note"] = done.note;
  return d;
}

}  // namespace

void BindAnalysis(py::module_& m) {
  py::module_ sub = m.def_submodule("_analysis", "stepscope.load's bindings over the loader and the analysis tools");
  py::class_<Result>(sub, "Result")
      .def("json", &Result::Json)
      .def("table_names", &Result::TableNames)
      .def("table", &Result::Table, py::arg("name"))
      .def("text", &Result::Text);
  py::class_<LoadedProfile>(sub, "LoadedProfile")
      .def_static("load", &LoadedProfile::Load, py::arg("path"), py::arg("run") = "", py::arg("host") = "")
      .def_static("load_bytes", &LoadedProfile::LoadBytes, py::arg("data"), py::arg("what"))
      .def_property_readonly("hosts", &LoadedProfile::hosts)
      .def_property_readonly("run", &LoadedProfile::run)
      // A result may refer to its profile's model: the profiles live as long as it does.
      .def("run_tool", &LoadedProfile::RunTool, py::arg("tool"), py::arg("options"), py::keep_alive<0, 1>())
      .def("check", &LoadedProfile::Check, py::arg("budgets"), py::keep_alive<0, 1>())
      .def("diff", &LoadedProfile::Diff, py::arg("other"), py::arg("label_a"), py::arg("label_b"),
           py::keep_alive<0, 1>(), py::keep_alive<0, 2>());
  sub.def("host_files", &HostFiles, py::arg("path"));
  sub.def("has_current_summary", &HasCurrentSummary, py::arg("host"), py::arg("cache_dir") = "");
  sub.def("summarize_host", &SummarizeHost, py::arg("host"), py::arg("cache_dir") = "");
  sub.def("tool_ids", [] {
    std::vector<std::string> ids;
    for (const analysis::Tool* tool : analysis::AllTools()) ids.emplace_back(tool->id());
    return ids;
  });
}

}  // namespace stepscope::python
