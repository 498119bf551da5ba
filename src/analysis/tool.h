// The one interface every analysis tool implements, and what a tool run returns.
//
// A tool is a pure function of a ProfileModel (one host's, or several hosts combined):
// it reads the model, computes a result struct, and never re-walks XSpace planes for
// what the model already holds. Tools are reached only through tool_registry.h, by the
// CLI (`stepscope analyze --tool <id>`), the HTTP server and the Python module alike.
//
// A ToolResult presents itself in three forms with the same numbers:
//   - JSON: one object whose field names are a documented contract (docs/tools.md);
//   - tables: every tabular part as an output::Table, exportable as CSV by name;
//   - text: for people at a terminal.
// Formatting primitives (escaping, number formats, alignment) live in analysis/output;
// a tool only decides which fields and tables it has.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/output/json_writer.h"
#include "src/analysis/output/schema.h"
#include "src/analysis/output/schema_writer.h"
#include "src/analysis/output/table.h"
#include "stepscope/status.h"

namespace stepscope::analysis {

struct ToolOptions {
  // framework_op_stats: count idle time as an "IDLE" op in tables and percentages
  // (TensorBoard's "include idle time" switch). Off by default, as there.
  bool include_idle = false;
  // memory_profile: use only the memory events of this step id (group_id, as XProf's).
  // Unset: the model's step_group when it is the model of one step (`--step N`, `step=N`),
  // else the whole profile.
  std::optional<int64_t> step;
  // multi_gpu: the model's parameter count, for TensorFlow's GPU guide estimate of an
  // all-reduce's time per step, parameters x 4 B / link bandwidth; and the link's
  // bandwidth in GB/s (1e9 B/s, one direction) when the built-in table does not know the
  // GPU or is wrong for the machine (src/analysis/tools/link_bandwidth.h).
  std::optional<int64_t> parameter_count;
  std::optional<double> link_bandwidth_gbps;
  // memory_profile: only the memory events with start_ps <= time <= end_ps (ps on the
  // profile's timeline, as the timeline's timeOffsetPs) set the peak, the summary and the
  // timeline. Unset: open on that side.
  std::optional<int64_t> start_ps;
  std::optional<int64_t> end_ps;
  // memory_viewer, graph_viewer: the XLA module, as "name(program id)", name or program id;
  // empty: the largest module (with buffer assignment, for memory_viewer).
  std::string module;
  // graph_viewer: the HLO op to centre on (exact name; otherwise ops containing it are
  // listed); empty: the entry computation's root.
  std::string op;
  // graph_viewer: operand/user hops around the op, and the most nodes shown.
  int hops = 2;
  int max_nodes = 150;
  // kernel_stats: the most rows of its kernel tables (the largest by total time).
  int max_kernels = 1000;
  // Text output prints at most this many rows per table (0 = all); JSON and CSV always
  // carry every row.
  size_t text_max_rows = 20;
};

class ToolResult {
 public:
  virtual ~ToolResult() = default;

  // Writes the result as one JSON object.
  virtual void WriteJson(output::JsonWriter* writer) const = 0;
  // Every table of the result, in a fixed order; names are unique within a result.
  virtual std::vector<output::Table> Tables() const = 0;
  // A human-readable report (summary blocks and the most useful tables).
  virtual std::string FormatText(const ToolOptions& options) const = 0;

  // Convenience: the JSON object as text (pretty = two-space indent), newline-terminated.
  std::string ToJson(bool pretty) const;
  // The table `name`; kNotFound naming the tables that exist otherwise.
  StatusOr<output::Table> FindTable(std::string_view name) const;
  // FindTable as CSV.
  StatusOr<std::string> TableCsv(std::string_view name) const;
  // Names of Tables(), in order.
  std::vector<std::string> TableNames() const;
};

class Tool {
 public:
  virtual ~Tool() = default;

  // The TensorBoard tool id, e.g. "overview_page". Stable.
  virtual std::string_view id() const = 0;
  // One line for `stepscope analyze --help` and the UI's tool list.
  virtual std::string_view description() const = 0;
  // Whether the tool has anything to say about this profile (kernel_stats needs a GPU
  // plane, as in XProf's tool list). Unavailable tools are not listed by the UI.
  virtual bool IsAvailable(const ProfileModel& model) const { return true; }
  // What IsAvailable needs, for the error when a tool is asked for anyway
  // ("a /device:GPU: plane"). Empty for tools that always apply.
  virtual std::string_view requirement() const { return {}; }
  // Why this profile lacks what requirement() names, when the model knows more than its
  // absence (an XLA program that was there but could not be read: the reader's reason).
  // Empty otherwise.
  virtual std::string WhyUnavailable(const ProfileModel& model) const { return {}; }
  // The declared shape of Run's result (output/schema.h), for the generated TypeScript
  // types and docs (DeclaredTool gives it); null only for a tool that declares none (a
  // test's stand-in).
  virtual const output::TypeDesc* result_type() const { return nullptr; }
  // The options this tool reads, by name (tool_options.h declares each once): what the
  // CLI offers it, the HTTP API accepts for it and the result cache keys it by.
  virtual std::vector<std::string_view> option_names() const { return {}; }
  // Runs the tool on `options` reduced to option_names() (MaskToolOptions), so that its
  // result depends on nothing else. Errors only for unusable options; thin data gives an
  // (honestly) empty result, with the reason in the result's diagnostics.
  StatusOr<std::unique_ptr<ToolResult>> Run(const ProfileModel& model, const ToolOptions& options) const;

 protected:
  virtual StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model,
                                                        const ToolOptions& options) const = 0;
};

// Adapts a declared result struct T (output/schema.h: DescribeRecord) to ToolResult: the
// JSON and the tables follow from the declaration. T's tool file provides only its text
// for people, findable by ADL:
//   std::string FormatResultText(const T&, const ToolOptions&);
template <typename T>
  requires output::IsRecord<T>
class StructToolResult final : public ToolResult {
 public:
  explicit StructToolResult(T value) : value_(std::move(value)) {}
  const T& value() const { return value_; }

  void WriteJson(output::JsonWriter* writer) const override { output::WriteRecordJson(value_, writer); }
  std::vector<output::Table> Tables() const override { return output::RecordTables(value_); }
  std::string FormatText(const ToolOptions& options) const override { return FormatResultText(value_, options); }

 private:
  T value_;
};

// A tool whose result is the declared record T: result_type() follows from T.
template <typename T>
class DeclaredTool : public Tool {
 public:
  const output::TypeDesc* result_type() const final { return &output::DescribeType<T>(); }
};

// A tool's result struct as what Tool::Run returns.
template <typename T>
std::unique_ptr<ToolResult> MakeToolResult(T value) {
  return std::make_unique<StructToolResult<T>>(std::move(value));
}

}  // namespace stepscope::analysis
