#include "src/server/capture_route.h"

#include <simdjson.h>

#include <string>

#include "src/analysis/output/json_writer.h"
#include "src/base/capture_settings.h"
#include "src/remote/multi_worker_capture.h"
#include "src/remote/service_address.h"

namespace stepscope::server {
namespace {

using analysis::output::JsonWriter;

// Reads one optional integer member into `*value`; its range is checked by
// base::ValidateCaptureSettings, with the CLI's words.
Status ReadInt(simdjson::dom::object& object, std::string_view key, int64_t* value) {
  simdjson::dom::element element;
  if (object[key].get(element) != simdjson::SUCCESS) return OkStatus();  // absent: default
  int64_t number = 0;
  if (element.get_int64().get(number) != simdjson::SUCCESS) {
    return InvalidArgumentError(std::string(key) + " must be an integer");
  }
  *value = number;
  return OkStatus();
}

struct ParsedRequest {
  std::vector<std::string> addresses;
  remote::CaptureOptions options;
};

StatusOr<ParsedRequest> ParseRequest(std::string_view body, const std::string& logdir, const CaptureLimits& limits) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(body);
  simdjson::dom::element root;
  if (parser.parse(padded).get(root) != simdjson::SUCCESS) {
    return InvalidArgumentError("the request body is not valid JSON");
  }
  simdjson::dom::object object;
  if (root.get_object().get(object) != simdjson::SUCCESS) {
    return InvalidArgumentError("the request body must be a JSON object");
  }
  for (auto field : object) {
    static constexpr std::string_view kKnown[] = {"service_addresses", "duration_ms",        "host_tracer_level",
                                                  "device_tracer_level", "python_tracer_level", "retries",
                                                  "delay_ms",            "run"};
    bool known = false;
    for (std::string_view key : kKnown) known = known || field.key == key;
    if (!known) return InvalidArgumentError("unknown field '" + std::string(field.key) + "'");
  }

  std::string list;
  simdjson::dom::element addresses;
  if (object["service_addresses"].get(addresses) != simdjson::SUCCESS) {
    return InvalidArgumentError("missing service_addresses (e.g. \"grpc://10.0.0.1:6009\")");
  }
  std::string_view text;
  simdjson::dom::array array;
  if (addresses.get_string().get(text) == simdjson::SUCCESS) {
    list = std::string(text);
  } else if (addresses.get_array().get(array) == simdjson::SUCCESS) {
    for (simdjson::dom::element item : array) {
      if (item.get_string().get(text) != simdjson::SUCCESS) {
        return InvalidArgumentError("service_addresses must hold strings");
      }
      list += (list.empty() ? "" : ",") + std::string(text);
    }
  } else {
    return InvalidArgumentError("service_addresses must be a string or an array of strings");
  }

  ParsedRequest parsed;
  auto addresses_parsed = remote::ParseServiceAddresses(list);
  if (!addresses_parsed.ok()) return addresses_parsed.status();
  parsed.addresses = std::move(*addresses_parsed);

  remote::CaptureOptions& options = parsed.options;
  options.logdir = logdir;
  options.max_workers = limits.max_workers;
  options.max_response_bytes = limits.max_response_bytes;
  // Absent fields take the library's defaults, as the CLI's flags do.
  int64_t duration_ms = static_cast<int64_t>(options.duration_ms), host = options.host_tracer_level,
          device = options.device_tracer_level, python = options.python_tracer_level, retries = options.retries,
          delay_ms = static_cast<int64_t>(options.delay_ms);
  for (Status status : {ReadInt(object, "duration_ms", &duration_ms), ReadInt(object, "host_tracer_level", &host),
                        ReadInt(object, "device_tracer_level", &device),
                        ReadInt(object, "python_tracer_level", &python), ReadInt(object, "retries", &retries),
                        ReadInt(object, "delay_ms", &delay_ms)}) {
    if (!status.ok()) return status;
  }
  Status settings = base::ValidateCaptureSettings({.duration_ms = duration_ms,
                                                   .host_tracer_level = host,
                                                   .device_tracer_level = device,
                                                   .python_tracer_level = python,
                                                   .retries = retries,
                                                   .delay_ms = delay_ms});
  if (!settings.ok()) return settings;
  options.duration_ms = static_cast<uint64_t>(duration_ms);
  options.host_tracer_level = static_cast<int>(host);
  options.device_tracer_level = static_cast<int>(device);
  options.python_tracer_level = static_cast<int>(python);
  options.retries = static_cast<int>(retries);
  options.delay_ms = static_cast<uint64_t>(delay_ms);
  simdjson::dom::element run;
  if (object["run"].get(run) == simdjson::SUCCESS) {
    if (run.get_string().get(text) != simdjson::SUCCESS) return InvalidArgumentError("run must be a string");
    options.run = std::string(text);
  }
  Status valid = remote::ValidateCaptureOptions(options);
  if (valid.ok()) valid = remote::CheckCaptureBounds(parsed.addresses.size(), options);
  if (!valid.ok()) return valid;
  return parsed;
}

bool IsJsonContentType(std::string_view content_type) {
  std::string_view media = content_type.substr(0, content_type.find(';'));
  while (!media.empty() && media.back() == ' ') media.remove_suffix(1);
  return media == "application/json";
}

}  // namespace

HttpReply CaptureRoute::Handle(std::string_view content_type, std::string_view body) {
  if (!IsJsonContentType(content_type)) {
    return ErrorReply(415, "POST /api/capture takes Content-Type: application/json");
  }
  StatusOr<ParsedRequest> parsed = ParseRequest(body, logdir_, limits_);
  if (!parsed.ok()) return ErrorReply(400, parsed.status().message());

  std::unique_lock<std::mutex> lock(busy_, std::try_to_lock);
  if (!lock.owns_lock()) return ErrorReply(409, "a capture is already running; wait for it to finish");
  StatusOr<remote::CaptureResult> result = remote::CaptureWorkers(parsed->addresses, parsed->options);
  if (!result.ok()) return ErrorReply(400, result.status().message());

  int succeeded = result->succeeded();
  int failed = static_cast<int>(result->workers.size()) - succeeded;
  HttpReply reply;
  // 200 even when no worker was captured: the capture ran and the body says per worker what
  // happened (a 5xx would also make browsers log a console error for an expected outcome).
  reply.status = 200;
  JsonWriter w(&reply.body);
  w.BeginObject();
  w.Field("run", result->run);
  w.Field("succeeded", succeeded);
  w.Field("failed", failed);
  w.Key("workers");
  w.BeginArray();
  for (const remote::WorkerCapture& worker : result->workers) {
    w.BeginObject();
    w.Field("address", worker.address);
    w.Field("host", worker.host);
    w.Field("ok", worker.status.ok());
    w.Field("attempts", worker.attempts);
    w.Field("path", worker.path);
    w.Field("file_bytes", worker.file_bytes);
    w.Field("event_count", worker.event_count);
    w.Key("dropped_events");
    if (worker.dropped_events) {
      w.Int(*worker.dropped_events);
    } else {
      w.Null();
    }
    w.Field("note", worker.note);
    w.Key("warnings");
    w.BeginArray();
    for (const std::string& warning : worker.warnings) w.String(warning);
    w.EndArray();
    w.Field("error", worker.status.ok() ? std::string() : worker.status.message());
    w.EndObject();
  }
  w.EndArray();
  if (succeeded == 0) {
    w.Field("error", "no worker was captured (" + std::to_string(failed) + " failed; see workers)");
  }
  w.EndObject();
  return reply;
}

}  // namespace stepscope::server
