#include "src/cli/command_profile.h"

#include <unistd.h>

#include <chrono>
#include <future>

#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"
#include "src/cli/batch_memory.h"
#include "src/load/summary_cache.h"

namespace stepscope::cli {
namespace {

namespace output = analysis::output;

// Reading takes longer than this: say on stderr what is going on, so a user with a
// gigabyte profile does not think the command hangs. Only on a terminal: in scripts and
// logs, stderr carries the one line of an error and nothing else.
constexpr std::chrono::milliseconds kProgressAfter{1000};

bool StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

}  // namespace

StatusOr<analysis::ProfileModel> BuildCommandModel(std::string_view command, const load::ResolvedProfile& profile,
                                                   std::ostream& err, const analysis::ModelOptions& model_options) {
  int64_t total_bytes = 0;
  for (const load::HostProfileFile& file : profile.files) total_bytes += file.size_bytes;
  analysis::ModelOptions options = model_options;
  // Tools read the summarised model only; dropping per-event trees halves memory.
  options.keep_event_tree = false;
  const auto start = std::chrono::steady_clock::now();
  // Several hosts: each from its summary, written the first time, so the next question
  // about the run reads summaries, not the hosts' files (load::LoadRunModel).
  std::vector<std::string> notes;
  auto job = std::async(std::launch::async, [&profile, options, &notes] {
    return load::LoadRunModel(profile.files, options, {}, &notes);
  });
  auto report_notes = [&] {
    for (const std::string& note : notes) err << "stepscope: " << command << ": " << note << "\n";
  };
  if (StderrIsTerminal() && job.wait_for(kProgressAfter) != std::future_status::ready) {
    err << "stepscope: " << command << ": reading " << profile.files.size()
        << (profile.files.size() == 1 ? " host" : " hosts") << " ("
        << output::FormatFixed(total_bytes / 1048576.0, 1) << " MiB)...\n";
    err.flush();
    StatusOr<analysis::ProfileModel> model = job.get();
    report_notes();
    if (!model.ok()) return model;  // the error is the next line, not "model built"
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    err << "stepscope: " << command << ": model built in " << output::FormatFixed(seconds, 1) << " s\n";
    return model;
  }
  StatusOr<analysis::ProfileModel> model = job.get();
  report_notes();
  return model;
}

StatusOr<load::ResolvedProfile> ResolveCommandProfile(std::string_view command, const load::ProfileRequest& request,
                                                      std::string_view run_flag, std::ostream& err) {
  auto resolved = load::ResolveProfile(request);
  if (!resolved.ok()) return resolved.status();
  if (request.run.empty() && resolved->run_count > 1) {
    err << "stepscope: " << command << ": " << resolved->run_count << " runs in " << request.path
        << "; using the newest, " << resolved->run << " (choose with " << run_flag << ")\n";
  }
  return resolved;
}

StatusOr<CommandProfile> LoadCommandProfile(std::string_view command, const load::ProfileRequest& request,
                                            std::string_view run_flag, std::ostream& err) {
  CommandProfile profile;
  auto resolved = ResolveCommandProfile(command, request, run_flag, err);
  if (!resolved.ok()) return resolved.status();
  profile.resolved = std::move(*resolved);
  PrepareHeapForInputs(load::ProfilePaths(profile.resolved));
  auto model = BuildCommandModel(command, profile.resolved, err, request.model_options);
  if (!model.ok()) return model.status();
  profile.model = std::move(*model);
  return profile;
}

std::string DescribeProfile(const std::string& path, const load::ResolvedProfile& resolved) {
  std::string hosts;
  for (const load::HostProfileFile& f : resolved.files) hosts += (hosts.empty() ? "" : ", ") + f.host;
  return (resolved.run.empty() ? path : "run " + resolved.run) + " (" +
         (resolved.files.size() == 1 ? "host " : "hosts ") + hosts + ")";
}

Status PrintResult(const analysis::ToolResult& result, std::string_view format, const std::string& table,
                   const analysis::ToolOptions& options, std::ostream& out) {
  if (format == "csv" && table.empty()) {
    return InvalidArgumentError("--format csv prints one table: add --table NAME");
  }
  if (!table.empty()) {
    std::string known;
    for (output::Table& t : result.Tables()) {
      if (t.name != table) {
        known += (known.empty() ? "" : ", ") + t.name;
        continue;
      }
      out << output::FormatOneTable(t, format);
      return OkStatus();
    }
    return NotFoundError("no table '" + table + "'; tables: " + known);
  }
  if (format == "json") {
    out << result.ToJson(/*pretty=*/true);
  } else {
    out << result.FormatText(options);
  }
  return OkStatus();
}

}  // namespace stepscope::cli
