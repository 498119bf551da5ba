#include "src/server/request_params.h"

#include <string>

#include "src/base/ascii.h"
#include "src/base/status_macros.h"
#include "src/xspace/logdir.h"

namespace stepscope::server {
namespace {

Status Refuse(std::string_view what, std::string_view why) {
  return InvalidArgumentError("invalid " + std::string(what) + " name: " + std::string(why));
}

}  // namespace

Status ValidateName(std::string_view what, std::string_view value) {
  if (value.empty()) return Refuse(what, "empty");
  if (value.size() > kMaxNameBytes) return Refuse(what, "longer than " + std::to_string(kMaxNameBytes) + " bytes");
  std::string_view problem = xspace::NameCharacterProblem(value);  // the rule every writer of runs follows
  if (!problem.empty()) return Refuse(what, problem);
  if (value.front() == '/') return Refuse(what, "absolute paths are not accepted");
  // Any "." or ".." path segment, wherever it is.
  size_t start = 0;
  while (start <= value.size()) {
    size_t end = value.find('/', start);
    if (end == std::string_view::npos) end = value.size();
    std::string_view segment = value.substr(start, end - start);
    if (segment == "..") return Refuse(what, "'..' is not accepted");
    if (segment == "." || segment.empty()) return Refuse(what, "empty or '.' path segments are not accepted");
    start = end + 1;
  }
  return OkStatus();
}

StatusOr<Params> CheckParams(const QueryParams& query, const std::vector<std::string_view>& required,
                             const std::vector<std::string_view>& optional) {
  auto known_list = [&] {
    std::string list;
    for (const auto* group : {&required, &optional}) {
      for (std::string_view key : *group) list += (list.empty() ? "" : ", ") + std::string(key);
    }
    return list.empty() ? std::string("none") : list;
  };
  Params params;
  for (const auto& [key, value] : query) {
    bool known = false;
    for (const auto* group : {&required, &optional}) {
      for (std::string_view k : *group) known = known || k == key;
    }
    if (!known) return InvalidArgumentError("unknown parameter '" + key + "'; this endpoint takes: " + known_list());
    if (!params.emplace(key, value).second) return InvalidArgumentError("parameter '" + key + "' given twice");
  }
  for (std::string_view key : required) {
    if (params.find(key) == params.end()) return InvalidArgumentError("missing parameter '" + std::string(key) + "'");
  }
  for (std::string_view key : {"run", "host", "tool", "table", "run_a", "run_b", "host_a", "host_b"}) {
    auto it = params.find(key);
    if (it != params.end()) STEPSCOPE_RETURN_IF_ERROR(ValidateName(key, it->second));
  }
  return params;
}

std::string Get(const Params& params, std::string_view key) {
  auto it = params.find(key);
  return it == params.end() ? std::string() : it->second;
}

}  // namespace stepscope::server
