#include "tests/golden/golden_file.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include <simdjson.h>

#include "src/base/file_io.h"

namespace stepscope::golden {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

constexpr double kRelativeTolerance = 1e-9;

bool IsNumber(element_type t) {
  return t == element_type::INT64 || t == element_type::UINT64 || t == element_type::DOUBLE;
}

double AsDouble(const element& e) {
  switch (e.type()) {
    case element_type::INT64: return static_cast<double>(int64_t(e));
    case element_type::UINT64: return static_cast<double>(uint64_t(e));
    default: return double(e);
  }
}

std::string Show(const element& e) {
  std::string s = simdjson::minify(e);
  return s.size() > 120 ? s.substr(0, 117) + "..." : s;
}

// Appends the first difference below `path` to `diff`; returns false when one is found.
bool Compare(const element& expected, const element& actual, const std::string& path, std::string* diff) {
  const element_type te = expected.type(), ta = actual.type();
  if (IsNumber(te) && IsNumber(ta)) {
    const double a = AsDouble(expected), b = AsDouble(actual);
    const double scale = std::max({1.0, std::fabs(a), std::fabs(b)});
    if (std::fabs(a - b) <= kRelativeTolerance * scale) return true;
    *diff = path + ": expected " + Show(expected) + ", got " + Show(actual);
    return false;
  }
  if (te != ta) {
    *diff = path + ": expected " + Show(expected) + ", got " + Show(actual);
    return false;
  }
  switch (te) {
    case element_type::ARRAY: {
      simdjson::dom::array ea = expected, aa = actual;
      if (ea.size() != aa.size()) {
        *diff = path + ": expected " + std::to_string(ea.size()) + " elements, got " + std::to_string(aa.size());
        return false;
      }
      auto it = aa.begin();
      size_t i = 0;
      for (element e : ea) {
        if (!Compare(e, *it, path + "[" + std::to_string(i) + "]", diff)) return false;
        ++it;
        ++i;
      }
      return true;
    }
    case element_type::OBJECT: {
      simdjson::dom::object eo = expected, ao = actual;
      std::map<std::string, element> em, am;
      for (auto field : eo) em.emplace(std::string(field.key), field.value);
      for (auto field : ao) am.emplace(std::string(field.key), field.value);
      for (const auto& [key, value] : em) {
        auto found = am.find(key);
        if (found == am.end()) {
          *diff = path + "." + key + ": missing in the actual output";
          return false;
        }
        if (!Compare(value, found->second, path + "." + key, diff)) return false;
      }
      for (const auto& [key, value] : am) {
        if (!em.count(key)) {
          *diff = path + "." + key + ": not in the golden file (new field " + Show(value) + ")";
          return false;
        }
      }
      return true;
    }
    case element_type::STRING:
      if (std::string_view(expected) == std::string_view(actual)) return true;
      break;
    case element_type::BOOL:
      if (bool(expected) == bool(actual)) return true;
      break;
    default:  // null
      return true;
  }
  *diff = path + ": expected " + Show(expected) + ", got " + Show(actual);
  return false;
}

}  // namespace

std::string CompareJson(std::string_view expected_json, std::string_view actual_json) {
  simdjson::dom::parser expected_parser, actual_parser;
  simdjson::padded_string expected_text(expected_json), actual_text(actual_json);
  auto expected = expected_parser.parse(expected_text);
  if (expected.error()) return std::string("golden file is not JSON: ") + simdjson::error_message(expected.error());
  auto actual = actual_parser.parse(actual_text);
  if (actual.error()) return std::string("actual output is not JSON: ") + simdjson::error_message(actual.error());
  std::string diff;
  Compare(expected.value_unsafe(), actual.value_unsafe(), "$", &diff);
  return diff;
}

std::string CheckGolden(const std::string& relative_path, const std::string& actual_json) {
  const std::string path = std::string(STEPSCOPE_SOURCE_DIR) + "/tests/golden/" + relative_path;
  const char* update = std::getenv("STEPSCOPE_UPDATE_GOLDEN");
  if (update != nullptr && std::string_view(update) == "1") {
    const size_t slash = path.rfind('/');
    Status dir = base::CreateDirectories(path.substr(0, slash));
    if (!dir.ok()) return dir.ToString();
    std::string text = actual_json;
    if (text.empty() || text.back() != '\n') text.push_back('\n');
    Status written = base::WriteFileAtomically(path, text);
    return written.ok() ? "" : written.ToString();
  }
  auto expected = base::ReadFile(path, 64 << 20);
  if (!expected.ok()) {
    return "cannot read golden file " + path + " (" + expected.status().ToString() +
           "); run with STEPSCOPE_UPDATE_GOLDEN=1 to create it, then review it by hand";
  }
  std::string diff = CompareJson(*expected, actual_json);
  if (diff.empty()) return "";
  return "output differs from " + path + "\n  " + diff +
         "\n  (if the change is intended: STEPSCOPE_UPDATE_GOLDEN=1, then review the diff)";
}

}  // namespace stepscope::golden
