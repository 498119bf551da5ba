#include "src/cli/mcp_tool_args.h"

#include <cmath>

#include "src/base/parse_number.h"

namespace stepscope::cli::mcp {
namespace {

// Messages quote at most this much of a value an agent sent.
constexpr size_t kMaxQuotedBytes = 80;

std::string TypeError(std::string_view name, std::string_view wanted, simdjson::dom::element value) {
  return std::string(name) + " must be " + std::string(wanted) + ", not " + QuotedJson(value);
}

// A declared default as JSON: the kind's type when it reads as one, else nothing.
void WriteDefault(const analysis::ToolOptionDecl& option, analysis::output::JsonWriter* w) {
  const std::string_view text = option.default_text;
  if (text.empty()) return;
  switch (option.kind) {
    case analysis::OptionKind::kBool:
      if (text == "true" || text == "false") {
        w->Key("default");
        w->Bool(text == "true");
      }
      return;
    case analysis::OptionKind::kInt: {
      int64_t value = 0;
      if (base::ParseWhole(text, &value)) w->Field("default", value);
      return;
    }
    case analysis::OptionKind::kNumber: {
      double value = 0;
      if (base::ParseWhole(text, &value)) w->Field("default", value);
      return;
    }
    case analysis::OptionKind::kText:
      w->Field("default", text);
      return;
  }
}

}  // namespace

std::string QuotedJson(simdjson::dom::element value) {
  std::string json = simdjson::minify(value);
  if (json.size() > kMaxQuotedBytes) json = json.substr(0, kMaxQuotedBytes) + "...";
  return json;
}

StatusOr<ToolArgs> ToolArgs::Read(const simdjson::dom::element* arguments,
                                  std::initializer_list<std::string_view> known) {
  if (arguments == nullptr || arguments->is_null()) return ToolArgs(std::nullopt);
  simdjson::dom::object object;
  if (arguments->get_object().get(object) != simdjson::SUCCESS) {
    return InvalidArgumentError("arguments must be an object, not " + QuotedJson(*arguments));
  }
  for (auto field : object) {
    bool is_known = false;
    for (std::string_view name : known) is_known = is_known || field.key == name;
    if (is_known) continue;
    std::string names;
    for (std::string_view name : known) names += (names.empty() ? "" : ", ") + std::string(name);
    return InvalidArgumentError("unknown argument '" + std::string(field.key) + "'; arguments: " + names);
  }
  return ToolArgs(object);
}

std::optional<simdjson::dom::element> ToolArgs::Raw(std::string_view name) const {
  if (!object_) return std::nullopt;
  simdjson::dom::element value;
  if ((*object_)[name].get(value) != simdjson::SUCCESS || value.is_null()) return std::nullopt;
  return value;
}

bool ToolArgs::Has(std::string_view name) const { return Raw(name).has_value(); }

StatusOr<std::string> ToolArgs::String(std::string_view name, std::string fallback) const {
  const std::optional<simdjson::dom::element> value = Raw(name);
  if (!value) return fallback;
  std::string_view text;
  if (value->get_string().get(text) != simdjson::SUCCESS) return InvalidArgumentError(TypeError(name, "a string", *value));
  return std::string(text);
}

StatusOr<std::optional<int64_t>> ToolArgs::Int(std::string_view name) const {
  const std::optional<simdjson::dom::element> value = Raw(name);
  if (!value) return std::optional<int64_t>();
  int64_t number = 0;
  if (value->get_int64().get(number) == simdjson::SUCCESS) return std::optional<int64_t>(number);
  // 5.0 is the integer 5 (JSON does not tell them apart; some clients write every number so).
  double real = 0;
  if (value->get_double().get(real) == simdjson::SUCCESS && std::trunc(real) == real && std::abs(real) < 9e18) {
    return std::optional<int64_t>(static_cast<int64_t>(real));
  }
  return InvalidArgumentError(TypeError(name, "an integer", *value));
}

StatusOr<std::optional<double>> ToolArgs::Number(std::string_view name) const {
  const std::optional<simdjson::dom::element> value = Raw(name);
  if (!value) return std::optional<double>();
  double number = 0;
  if (value->get_double().get(number) == simdjson::SUCCESS) return std::optional<double>(number);
  return InvalidArgumentError(TypeError(name, "a number", *value));
}

StatusOr<bool> ToolArgs::Bool(std::string_view name, bool fallback) const {
  const std::optional<simdjson::dom::element> value = Raw(name);
  if (!value) return fallback;
  bool flag = false;
  if (value->get_bool().get(flag) != simdjson::SUCCESS) return InvalidArgumentError(TypeError(name, "true or false", *value));
  return flag;
}

StatusOr<std::vector<std::string>> ToolArgs::Strings(std::string_view name) const {
  std::vector<std::string> strings;
  const std::optional<simdjson::dom::element> value = Raw(name);
  if (!value) return strings;
  simdjson::dom::array array;
  if (value->get_array().get(array) != simdjson::SUCCESS) {
    return InvalidArgumentError(TypeError(name, "an array of strings", *value));
  }
  for (simdjson::dom::element item : array) {
    std::string_view text;
    if (item.get_string().get(text) != simdjson::SUCCESS) {
      return InvalidArgumentError(TypeError(std::string(name) + "[" + std::to_string(strings.size()) + "]",
                                            "a string", item));
    }
    strings.emplace_back(text);
  }
  return strings;
}

StatusOr<std::optional<simdjson::dom::object>> ToolArgs::Object(std::string_view name) const {
  const std::optional<simdjson::dom::element> value = Raw(name);
  if (!value) return std::optional<simdjson::dom::object>();
  simdjson::dom::object object;
  if (value->get_object().get(object) != simdjson::SUCCESS) {
    return InvalidArgumentError(TypeError(name, "an object", *value));
  }
  return std::optional<simdjson::dom::object>(object);
}

StatusOr<std::string> OptionValueText(const analysis::ToolOptionDecl& option, simdjson::dom::element value) {
  const std::string name(option.name);
  switch (value.type()) {
    case simdjson::dom::element_type::STRING:
      return std::string(std::string_view(value.get_string()));
    case simdjson::dom::element_type::BOOL:
      if (option.kind != analysis::OptionKind::kBool) break;
      return std::string(bool(value.get_bool()) ? "true" : "false");
    case simdjson::dom::element_type::INT64:
      return std::to_string(int64_t(value.get_int64()));
    case simdjson::dom::element_type::UINT64:
      return std::to_string(uint64_t(value.get_uint64()));
    case simdjson::dom::element_type::DOUBLE: {
      const double real = double(value.get_double());
      if (option.kind == analysis::OptionKind::kInt && std::trunc(real) == real && std::abs(real) < 9e18) {
        return std::to_string(static_cast<int64_t>(real));
      }
      return analysis::output::FormatDoubleRoundTrip(real);
    }
    default:
      break;
  }
  static constexpr std::string_view kWanted[] = {"true or false", "an integer", "a number", "a string"};
  return InvalidArgumentError(TypeError(name, kWanted[static_cast<int>(option.kind)], value));
}

void WriteOptionSchema(const analysis::ToolOptionDecl& option, std::string_view description_prefix,
                       analysis::output::JsonWriter* w) {
  static constexpr std::string_view kTypes[] = {"boolean", "integer", "number", "string"};
  w->BeginObject();
  w->Field("type", kTypes[static_cast<int>(option.kind)]);
  w->Field("description", std::string(description_prefix) + std::string(option.help));
  WriteDefault(option, w);
  if (option.kind == analysis::OptionKind::kInt || option.kind == analysis::OptionKind::kNumber) {
    w->Field("minimum", option.min);
    w->Field("maximum", option.max);
  }
  w->EndObject();
}

}  // namespace stepscope::cli::mcp
