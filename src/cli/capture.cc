// `stepscope capture grpc://host:port[,grpc://host:port...] --logdir DIR`: on-demand capture
// from running profiler servers (stepscope's, TensorFlow's, JAX's) into one run.
//
// Output: one line per worker on stdout (ok with the file's size, its events and the
// events the worker dropped, or FAILED with the exact problem), then a summary; each
// captured profile's warnings (XSpace.warnings) on stderr, one line each, naming the
// worker. Exit 0 when at least one worker was captured; when none was, one line on stderr
// and the exit code of why (NoneCaptured): 4 when the workers were unavailable, 3 when
// their profiles could not be written (src/cli/exit_code.h).
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/output/text_table.h"
#include "src/base/capture_settings.h"
#include "src/cli/command.h"
#include "src/cli/commands.h"
#include "src/cli/flags.h"
#include "src/remote/multi_worker_capture.h"
#include "src/remote/service_address.h"

namespace stepscope::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: stepscope capture <grpc://host:port[,grpc://host:port...]> --logdir DIR [flags]\n"
    "\n"
    "Records --duration_ms of every listed worker at once (a program started with a\n"
    "profiler server: stepscope::StartProfilerServer, tf.profiler.experimental.server.start,\n"
    "jax.profiler.start_server) and saves <logdir>/plugins/profile/<run>/<host>.xplane.pb per\n"
    "worker, host = the address with ':' -> '_'. A worker whose capture fails with\n"
    "UNAVAILABLE or busy, or comes back empty, is retried up to --retries more times.\n"
    "Each worker's line gives its events and the events it dropped; the warnings in its\n"
    "profile go to stderr. Exit code 0 when at least one worker was captured.\n"
    "A capture never replaces an earlier one: without --run the run is named by the time\n"
    "(a second capture in the same second gets _2); a --run that already holds a worker's\n"
    "file fails that worker unless --overwrite. A worker on a Unix socket is written\n"
    "unix:/path/to.sock (grpc://unix:... is a host named unix).\n"
    "\n"
    "flags:\n";

std::string FormatBytes(uint64_t bytes) {
  char text[32];
  if (bytes >= (1u << 20)) {
    std::snprintf(text, sizeof(text), "%.1f MiB", static_cast<double>(bytes) / (1u << 20));
  } else {
    std::snprintf(text, sizeof(text), "%.1f KiB", static_cast<double>(bytes) / 1024);
  }
  return text;
}

// "0 dropped", "1234 dropped", or that the profile does not say.
std::string DroppedText(const std::optional<int64_t>& dropped) {
  return dropped ? std::to_string(*dropped) + " dropped" : "drops not counted";
}

std::string Attempts(int attempts) {
  return std::to_string(attempts) + (attempts == 1 ? " attempt" : " attempts");
}

// Why no worker was captured, as one Status for the exit code: a profile that could not
// be written here wins (the local disk is the thing to fix); otherwise the workers' own
// failure when they all agree (e.g. all refused the options), else unavailable.
Status NoneCaptured(const std::vector<remote::WorkerCapture>& workers) {
  const std::string message = "no worker was captured (" + std::to_string(workers.size()) +
                              " failed; the lines above say why)";
  bool all_same = true;
  for (const remote::WorkerCapture& worker : workers) {
    if (worker.status.code() == StatusCode::kIoError) return IoError(message);
    all_same = all_same && worker.status.code() == workers.front().status.code();
  }
  if (all_same && !workers.empty() && !workers.front().status.ok()) return Status(workers.front().status.code(), message);
  return UnavailableError(message);
}

}  // namespace

int RunCaptureCommand(CommandContext& context) {
  remote::CaptureOptions options;
  int64_t duration_ms = 2000;
  int64_t host_level = options.host_tracer_level;
  int64_t device_level = options.device_tracer_level;
  int64_t python_level = options.python_tracer_level;
  int64_t retries = options.retries;
  int64_t delay_ms = 0;
  int64_t connect_timeout_ms = static_cast<int64_t>(options.connect_timeout_ms);
  int64_t max_workers = options.max_workers;
  int64_t max_response_bytes = static_cast<int64_t>(options.max_response_bytes);
  FlagSet flags;
  flags.AddString("logdir", &options.logdir, "TensorBoard logdir to write the run into (required)");
  // Ranges of these six: base::ValidateCaptureSettings below, the same rule and message
  // as POST /api/capture and the library.
  flags.AddInt("duration_ms", &duration_ms, "how long to record");
  flags.AddString("run", &options.run, "run directory name (default: local time YYYY_MM_DD_HH_MM_SS)");
  flags.AddBool("overwrite", &options.overwrite, "replace a worker's file already in --run");
  flags.AddInt("host_tracer_level", &host_level, "0 off, 1 user annotations and steps, 2 + info, 3 + verbose");
  flags.AddInt("device_tracer_level", &device_level,
               "0 off, 1 on (TensorFlow/JAX workers; a stepscope worker has none and warns)");
  flags.AddInt("python_tracer_level", &python_level, "0 off, 1 on");
  flags.AddInt("retries", &retries, "extra attempts per worker after UNAVAILABLE, busy or an empty capture");
  flags.AddInt("delay_ms", &delay_ms, "start recording this long after the request, on every worker at once");
  flags.AddInt("connect_timeout_ms", &connect_timeout_ms, "give up on a worker that does not accept a connection",
               1, 600000);
  flags.AddInt("max_workers", &max_workers, "refuse a capture of more workers than this (one thread each)", 1,
               1 << 20);
  flags.AddInt("max_response_bytes", &max_response_bytes,
               "profile bytes held in memory for all workers together (each worker gets its share)", 1, INT64_MAX);
  std::vector<std::string> positional;
  Status parsed = flags.Parse(context.args, &positional);
  if (!parsed.ok()) return ReportUsageError(context.err, "capture", parsed.message());
  if (flags.help_requested()) {
    context.out << kUsage << flags.Usage();
    return kExitOk;
  }
  if (positional.empty()) {
    return ReportUsageError(context.err, "capture", "expected the service addresses, e.g. grpc://10.0.0.1:6009");
  }
  std::string joined;
  for (const std::string& part : positional) joined += (joined.empty() ? "" : ",") + part;
  StatusOr<std::vector<std::string>> addresses = remote::ParseServiceAddresses(joined, remote::UnixSockets::kAllowed);
  if (!addresses.ok()) return ReportError(context.err, "capture", addresses.status());

  // Checked before narrowing, so 2^40 is refused as typed rather than wrapped into range.
  Status settings = base::ValidateCaptureSettings({.duration_ms = duration_ms,
                                                   .host_tracer_level = host_level,
                                                   .device_tracer_level = device_level,
                                                   .python_tracer_level = python_level,
                                                   .retries = retries,
                                                   .delay_ms = delay_ms});
  if (!settings.ok()) return ReportError(context.err, "capture", settings);
  options.duration_ms = static_cast<uint64_t>(duration_ms);
  options.host_tracer_level = static_cast<int>(host_level);
  options.device_tracer_level = static_cast<int>(device_level);
  options.python_tracer_level = static_cast<int>(python_level);
  options.retries = static_cast<int>(retries);
  options.delay_ms = static_cast<uint64_t>(delay_ms);
  options.connect_timeout_ms = static_cast<uint64_t>(connect_timeout_ms);
  options.max_workers = static_cast<int>(max_workers);
  options.max_response_bytes = static_cast<uint64_t>(max_response_bytes);
  std::ostream& out = context.out;
  // A worker's words (progress, notes, warnings, errors) reach the terminal only sanitized.
  options.progress = [&out](std::string_view line) {
    out << "  " << analysis::output::SanitizeForTerminal(line) << "\n" << std::flush;
  };
  Status valid = remote::ValidateCaptureOptions(options);
  if (valid.ok()) valid = remote::CheckCaptureBounds(addresses->size(), options);
  if (!valid.ok()) return ReportError(context.err, "capture", valid);

  out << "Capturing " << addresses->size() << (addresses->size() == 1 ? " worker" : " workers") << " for "
      << options.duration_ms << " ms" << (options.delay_ms > 0 ? " after " + std::to_string(options.delay_ms) + " ms" : "")
      << " ...\n"
      << std::flush;
  StatusOr<remote::CaptureResult> result = remote::CaptureWorkers(*addresses, options);
  if (!result.ok()) return ReportError(context.err, "capture", result.status());

  for (const remote::WorkerCapture& worker : result->workers) {
    if (worker.status.ok()) {
      out << "  " << worker.address << "  ok      " << Attempts(worker.attempts) << "  "
          << FormatBytes(worker.file_bytes);
      if (worker.event_count > 0) out << "  " << worker.event_count << " events";
      out << "  " << DroppedText(worker.dropped_events);
      out << "  " << worker.path;
      if (!worker.note.empty()) out << "  (" << analysis::output::SanitizeForTerminal(worker.note) << ")";
      out << "\n";
      // The profile's diagnostics (e.g. a tracer level the worker cannot act on), on
      // stderr so they are seen even when stdout goes to a file.
      for (const std::string& warning : worker.warnings) {
        context.err << "stepscope: capture: " << worker.address
                    << ": warning: " << analysis::output::SanitizeForTerminal(warning) << "\n";
      }
    } else {
      out << "  " << worker.address << "  FAILED  " << Attempts(worker.attempts) << "  "
          << ProblemWithoutSubject(worker.status.message(), worker.address) << "\n";
    }
  }
  int succeeded = result->succeeded();
  int total = static_cast<int>(result->workers.size());
  out << succeeded << " of " << total << " workers captured";
  if (succeeded > 0) out << " into run " << result->run << " (" << result->run_dir << ")";
  out << "\n";
  if (succeeded == 0) return ReportError(context.err, "capture", NoneCaptured(result->workers));
  return kExitOk;
}

}  // namespace stepscope::cli
