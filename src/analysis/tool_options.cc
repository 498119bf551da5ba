#include "src/analysis/tool_options.h"

#include <cstdint>

#include "src/analysis/output/json_writer.h"
#include "src/analysis/tools/graph_viewer.h"
#include "src/analysis/tools/multi_gpu_options.h"
#include "src/base/parse_number.h"

namespace stepscope::analysis {
namespace {

std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

template <auto kMember>
void Copy(const ToolOptions& from, ToolOptions* to) {
  to->*kMember = from.*kMember;
}

// ---- The options. Each is a pair of functions over one ToolOptions member. ----

Status SetIncludeIdle(std::string_view name, std::string_view text, ToolOptions* o) {
  if (text.empty() || text == "0" || text == "false") {
    o->include_idle = false;
  } else if (text == "1" || text == "true") {
    o->include_idle = true;
  } else {
    return InvalidArgumentError(std::string(name) + " must be 0, 1, true or false, not " + Quoted(text));
  }
  return OkStatus();
}
std::string GetIncludeIdle(const ToolOptions& o) { return o.include_idle ? "1" : ""; }

template <std::optional<int64_t> ToolOptions::*kMember>
Status SetPs(std::string_view name, std::string_view text, ToolOptions* o) {
  if (text.empty()) {
    o->*kMember = std::nullopt;
    return OkStatus();
  }
  int64_t ps = 0;
  if (!base::ParseWhole(text, &ps)) {
    return InvalidArgumentError(std::string(name) + " must be a time in picoseconds, not " + Quoted(text));
  }
  o->*kMember = ps;
  return OkStatus();
}
template <std::optional<int64_t> ToolOptions::*kMember>
std::string GetPs(const ToolOptions& o) {
  return (o.*kMember) ? std::to_string(*(o.*kMember)) : "";
}

template <std::string ToolOptions::*kMember>
Status SetText(std::string_view, std::string_view text, ToolOptions* o) {
  o->*kMember = std::string(text);
  return OkStatus();
}
template <std::string ToolOptions::*kMember>
std::string GetText(const ToolOptions& o) {
  return o.*kMember;
}

template <int ToolOptions::*kMember, int kMin, int kMax>
Status SetBoundedInt(std::string_view name, std::string_view text, ToolOptions* o) {
  int64_t value = 0;
  if (!base::ParseWhole(text, &value) || value < kMin || value > kMax) {
    return InvalidArgumentError(std::string(name) + " must be a whole number from " + std::to_string(kMin) + " to " +
                                std::to_string(kMax) + ", not " + Quoted(text));
  }
  o->*kMember = static_cast<int>(value);
  return OkStatus();
}
template <int ToolOptions::*kMember>
std::string GetInt(const ToolOptions& o) {
  return std::to_string(o.*kMember);
}

Status SetParameters(std::string_view name, std::string_view text, ToolOptions* o) {
  if (text.empty()) {
    o->parameter_count = std::nullopt;
    return OkStatus();
  }
  StatusOr<int64_t> count = ParseParameterCount(name, text);
  if (!count.ok()) return count.status();
  o->parameter_count = *count;
  return OkStatus();
}
std::string GetParameters(const ToolOptions& o) {
  return o.parameter_count ? std::to_string(*o.parameter_count) : "";
}

Status SetLinkGbps(std::string_view name, std::string_view text, ToolOptions* o) {
  if (text.empty()) {
    o->link_bandwidth_gbps = std::nullopt;
    return OkStatus();
  }
  StatusOr<double> gbps = ParseLinkGbps(name, text);
  if (!gbps.ok()) return gbps.status();
  o->link_bandwidth_gbps = *gbps;
  return OkStatus();
}
std::string GetLinkGbps(const ToolOptions& o) {
  return o.link_bandwidth_gbps ? output::FormatDoubleRoundTrip(*o.link_bandwidth_gbps) : "";
}

}  // namespace

std::string_view OptionKindName(OptionKind kind) {
  switch (kind) {
    case OptionKind::kBool:
      return "bool";
    case OptionKind::kInt:
      return "int";
    case OptionKind::kNumber:
      return "number";
    case OptionKind::kText:
      return "text";
  }
  return "text";
}

const std::vector<ToolOptionDecl>& AllToolOptions() {
  static const std::vector<ToolOptionDecl> options = {
      {.name = "include_idle",
       .kind = OptionKind::kBool,
       .help = "count idle time as an IDLE op (TensorBoard's \"include idle time\")",
       .default_text = "false",
       .set = SetIncludeIdle,
       .get = GetIncludeIdle,
       .copy = Copy<&ToolOptions::include_idle>},
      {.name = "start_ps",
       .kind = OptionKind::kInt,
       .value_name = "PS",
       .help = "only memory events at or after this time (ps on the profile's timeline) set the peak",
       .min = -9.2e18,
       .max = 9.2e18,
       .set = SetPs<&ToolOptions::start_ps>,
       .get = GetPs<&ToolOptions::start_ps>,
       .copy = Copy<&ToolOptions::start_ps>},
      {.name = "end_ps",
       .kind = OptionKind::kInt,
       .value_name = "PS",
       .help = "only memory events at or before this time (ps) set the peak",
       .min = -9.2e18,
       .max = 9.2e18,
       .set = SetPs<&ToolOptions::end_ps>,
       .get = GetPs<&ToolOptions::end_ps>,
       .copy = Copy<&ToolOptions::end_ps>},
      {.name = "module",
       .kind = OptionKind::kText,
       .value_name = "MODULE",
       .help = "the XLA module, as name(program id), name or program id (default: the largest)",
       .set = SetText<&ToolOptions::module>,
       .get = GetText<&ToolOptions::module>,
       .copy = Copy<&ToolOptions::module>},
      {.name = "op",
       .kind = OptionKind::kText,
       .value_name = "OP",
       .help = "the HLO op to centre on (exact name; otherwise the ops containing it are listed; default: the "
               "entry computation's root)",
       .set = SetText<&ToolOptions::op>,
       .get = GetText<&ToolOptions::op>,
       .copy = Copy<&ToolOptions::op>},
      {.name = "hops",
       .kind = OptionKind::kInt,
       .value_name = "N",
       .help = "operand/user hops around the op",
       .default_text = "2",
       .min = 0,
       .max = kGraphMaxHops,
       .set = SetBoundedInt<&ToolOptions::hops, 0, kGraphMaxHops>,
       .get = GetInt<&ToolOptions::hops>,
       .copy = Copy<&ToolOptions::hops>},
      {.name = "max_nodes",
       .kind = OptionKind::kInt,
       .value_name = "N",
       .help = "the most ops shown",
       .default_text = "150",
       .min = 1,
       .max = kGraphMaxNodesLimit,
       .set = SetBoundedInt<&ToolOptions::max_nodes, 1, kGraphMaxNodesLimit>,
       .get = GetInt<&ToolOptions::max_nodes>,
       .copy = Copy<&ToolOptions::max_nodes>},
      {.name = "max_kernels",
       .kind = OptionKind::kInt,
       .value_name = "N",
       .help = "the most kernel groups and kernel names listed, largest total time first (`truncated` says when "
               "there are more)",
       .default_text = "1000",
       .min = 1,
       .max = 1000000,
       .set = SetBoundedInt<&ToolOptions::max_kernels, 1, 1000000>,
       .get = GetInt<&ToolOptions::max_kernels>,
       .copy = Copy<&ToolOptions::max_kernels>},
      {.name = "parameters",
       .kind = OptionKind::kInt,
       .value_name = "N",
       .help = "the model's parameter count, for the all-reduce estimate parameters x 4 B / link bandwidth "
               "(default: the all-reduce bytes / 4)",
       .min = 1,
       .max = static_cast<double>(kMaxParameterCount),
       .set = SetParameters,
       .get = GetParameters,
       .copy = Copy<&ToolOptions::parameter_count>},
      {.name = "link_gbps",
       .kind = OptionKind::kNumber,
       .value_name = "GBPS",
       .help = "the GPUs' link bandwidth in GB/s, one direction (default: a table by GPU model)",
       .min = 0,
       .max = kMaxLinkGbps,
       .set = SetLinkGbps,
       .get = GetLinkGbps,
       .copy = Copy<&ToolOptions::link_bandwidth_gbps>},
  };
  return options;
}

const ToolOptionDecl* FindToolOption(std::string_view name) {
  for (const ToolOptionDecl& option : AllToolOptions()) {
    if (option.name == name) return &option;
  }
  return nullptr;
}

std::vector<const ToolOptionDecl*> OptionsOf(const Tool& tool) {
  std::vector<const ToolOptionDecl*> options;
  for (std::string_view name : tool.option_names()) {
    const ToolOptionDecl* option = FindToolOption(name);
    if (option != nullptr) options.push_back(option);  // tool_registry_test: every name is declared
  }
  return options;
}

StatusOr<const ToolOptionDecl*> FindOptionOf(const Tool& tool, std::string_view name) {
  std::string names;
  for (const ToolOptionDecl* option : OptionsOf(tool)) {
    if (option->name == name) return option;
    names += (names.empty() ? "" : ", ") + std::string(option->name);
  }
  return InvalidArgumentError(std::string(tool.id()) + " takes no option '" + std::string(name) + "'" +
                              (names.empty() ? "" : "; its options: " + names));
}

Status ValidateToolOptions(const ToolOptions& options, std::string_view prefix) {
  if (options.start_ps && options.end_ps && *options.start_ps > *options.end_ps) {
    return InvalidArgumentError(std::string(prefix) + "start_ps (" + std::to_string(*options.start_ps) +
                                ") is after " + std::string(prefix) + "end_ps (" + std::to_string(*options.end_ps) +
                                ")");
  }
  return OkStatus();
}

ToolOptions MaskToolOptions(const Tool& tool, const ToolOptions& options) {
  ToolOptions masked;
  masked.text_max_rows = options.text_max_rows;
  masked.step = options.step;  // set by code, never by a user: not an option
  for (const ToolOptionDecl* option : OptionsOf(tool)) option->copy(options, &masked);
  return masked;
}

std::string ToolOptionsKey(const Tool& tool, const ToolOptions& options) {
  std::string key;
  for (const ToolOptionDecl* option : OptionsOf(tool)) {
    if (!key.empty()) key += '\0';
    key += option->name;
    key += '=';
    key += option->get(options);
  }
  return key;
}

}  // namespace stepscope::analysis
