#include "src/importers/testing/trace_facts.h"

#include <simdjson.h>

#include <charconv>
#include <fstream>
#include <sstream>

#include "src/base/gzip.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_visitor.h"

namespace stepscope::importers::testing {
namespace {

namespace od = simdjson::ondemand;

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

// "1712195495501688.523" -> ns. Deliberately simple and separate from the importer's code.
bool MicrosTextToNs(std::string_view text, int64_t* ns) {
  text = Trim(text);
  if (!text.empty() && text.front() == '"') text = text.substr(1, text.size() - 2);
  bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string fraction = dot == std::string_view::npos ? "" : std::string(text.substr(dot + 1));
  while (fraction.size() > 3 && fraction.back() == '0') fraction.pop_back();
  if (fraction.size() > 3) return false;
  while (fraction.size() < 3) fraction.push_back('0');
  int64_t us = 0, frac = 0;
  if (std::from_chars(whole.data(), whole.data() + whole.size(), us).ec != std::errc()) return false;
  if (std::from_chars(fraction.data(), fraction.data() + 3, frac).ec != std::errc()) return false;
  *ns = us * 1000 + frac;
  if (negative) *ns = -*ns;
  return true;
}

}  // namespace

std::string TraceTestFile(const std::string& name) {
  return std::string(STEPSCOPE_SHARED_DIR) + "/testdata/traces/" + name;
}

std::string ReadInflated(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string bytes = buffer.str();
  if (base::IsGzip(bytes)) {
    StatusOr<std::string> inflated = base::GunzipWithLimit(bytes, uint64_t{1} << 32);
    return inflated.ok() ? *inflated : std::string();
  }
  return bytes;
}

FileFacts ReadFileFacts(const std::string& json, std::string* error) {
  FileFacts facts;
  simdjson::padded_string padded(json);
  od::parser parser;
  od::document doc;
  if (parser.iterate(padded).get(doc) != simdjson::SUCCESS) {
    *error = "not JSON";
    return facts;
  }
  od::array events;
  od::json_type root_type;
  if (doc.type().get(root_type) != simdjson::SUCCESS) {
    *error = "no root";
    return facts;
  }
  auto read_event = [&](od::object object) {
    FileEvent event;
    for (auto field_result : object) {
      od::field field;
      if (std::move(field_result).get(field) != simdjson::SUCCESS) return;
      std::string_view key;
      if (field.unescaped_key().get(key) != simdjson::SUCCESS) return;
      std::string key_text(key);
      od::value value = field.value();
      if (key_text == "ph" || key_text == "cat" || key_text == "name") {
        std::string_view text;
        if (value.get_string().get(text) == simdjson::SUCCESS) {
          (key_text == "ph" ? event.ph : key_text == "cat" ? event.cat : event.name) = std::string(text);
        }
      } else if (key_text == "pid" || key_text == "tid" || key_text == "id" || key_text == "bp") {
        std::string text(Trim(value.raw_json_token()));
        (key_text == "pid" ? event.pid : key_text == "tid" ? event.tid : key_text == "id" ? event.id : event.bp) = text;
      } else if (key_text == "ts") {
        if (!MicrosTextToNs(value.raw_json_token(), &event.ts_ns)) *error = "ts finer than ns";
      } else if (key_text == "dur") {
        event.has_dur = MicrosTextToNs(value.raw_json_token(), &event.dur_ns);
      } else if (key_text == "args") {
        od::object args;
        if (value.get_object().get(args) != simdjson::SUCCESS) continue;
        for (auto arg_result : args) {
          od::field arg;
          if (std::move(arg_result).get(arg) != simdjson::SUCCESS) break;
          std::string_view arg_key;
          if (arg.unescaped_key().get(arg_key) != simdjson::SUCCESS) break;
          std::string name(arg_key);
          od::value arg_value = arg.value();
          od::json_type type;
          if (arg_value.type().get(type) != simdjson::SUCCESS) continue;
          std::string_view text;
          if (type == od::json_type::string) {
            if (arg_value.get_string().get(text) == simdjson::SUCCESS) event.args[name] = std::string(text);
          } else if (type == od::json_type::array) {
            od::array array;
            if (arg_value.get_array().get(array) == simdjson::SUCCESS && array.raw_json().get(text) == simdjson::SUCCESS) {
              event.args[name] = std::string(text);
            }
          } else if (type == od::json_type::object) {
            od::object inner;
            if (arg_value.get_object().get(inner) == simdjson::SUCCESS && inner.raw_json().get(text) == simdjson::SUCCESS) {
              event.args[name] = std::string(text);
            }
          } else {
            event.args[name] = std::string(Trim(arg_value.raw_json_token()));
          }
        }
      }
    }
    if (!event.ph.empty()) ++facts.count_by_ph[event.ph];
    if (event.ph == "X" || event.ph == "i") ++facts.count_by_cat[event.cat];
    facts.events.push_back(std::move(event));
  };
  auto read_array = [&](od::array array) {
    for (auto item : array) {
      od::object object;
      if (item.get_object().get(object) != simdjson::SUCCESS) continue;
      read_event(object);
    }
  };
  if (root_type == od::json_type::array) {
    if (doc.get_array().get(events) == simdjson::SUCCESS) read_array(events);
    return facts;
  }
  od::object root;
  if (doc.get_object().get(root) != simdjson::SUCCESS) return facts;
  for (auto field_result : root) {
    od::field field;
    if (std::move(field_result).get(field) != simdjson::SUCCESS) break;
    std::string_view key;
    if (field.unescaped_key().get(key) != simdjson::SUCCESS) break;
    if (key == "traceEvents") {
      if (field.value().get_array().get(events) == simdjson::SUCCESS) read_array(events);
    } else if (key == "baseTimeNanoseconds") {
      int64_t base = 0;
      if (field.value().get_int64().get(base) == simdjson::SUCCESS) facts.base_time_ns = base;
    }
  }
  return facts;
}

std::vector<ImportedEvent> ImportedEvents(const xspace::XSpace& space, int* sub_ns_offsets) {
  int64_t start_ns = 0;
  for (const xspace::XPlane& plane : space.planes()) {
    if (plane.name() != xspace::kTaskEnvPlaneName) continue;
    xspace::XPlaneVisitor visitor(&plane);
    if (auto stat = visitor.GetStat(xspace::StatType::kProfileStartTime)) start_ns = static_cast<int64_t>(stat->UintValue());
  }
  std::vector<ImportedEvent> result;
  if (sub_ns_offsets != nullptr) *sub_ns_offsets = 0;
  for (const xspace::XPlane& plane : space.planes()) {
    xspace::XPlaneVisitor visitor(&plane);
    visitor.ForEachLine([&](const xspace::XLineVisitor& line) {
      line.ForEachEvent([&](const xspace::XEventVisitor& event) {
        ImportedEvent out;
        out.plane = plane.name();
        out.line = std::string(line.name());
        out.name = std::string(event.name());
        out.display_name = std::string(event.display_name());
        out.offset_ps = event.timestamp_ps();
        out.duration_ps = event.duration_ps();
        if (sub_ns_offsets != nullptr && (out.offset_ps % 1000 != 0)) ++*sub_ns_offsets;
        out.wall_ns = start_ns + out.offset_ps / 1000;
        event.ForEachStat([&](const xspace::XStatVisitor& stat) { out.stats[std::string(stat.name())] = stat.ToString(); });
        result.push_back(std::move(out));
      });
    });
  }
  return result;
}

}  // namespace stepscope::importers::testing
