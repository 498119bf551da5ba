#include "src/server/profile_store.h"

#include <filesystem>
#include <system_error>
#include <utility>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tool_options.h"
#include "src/analysis/tool_registry.h"
#include "src/base/logging.h"
#include "src/analysis/model/model_memory.h"
#include "src/base/memory_budget.h"
#include "src/base/status_macros.h"

namespace stepscope::server {
namespace {

std::string ModelKey(const load::RunProfiles& run, const std::vector<load::HostProfileFile>& files,
                     std::optional<int64_t> step) {
  // By the files the selection covers, not the host text: the pages ask with no host and
  // the trace viewer by the host's name (keyed by the text, a 10 M-event profile was built
  // and held twice).
  std::string key = run.name;
  key += '\0';
  key += load::SelectionKey(run, files);
  key += '\0';
  key += step ? "step " + std::to_string(*step) : std::string("all steps");
  return key;
}

size_t ModelCacheBytes(const ProfileStoreOptions& options) {
  return options.model_cache_bytes != 0 ? options.model_cache_bytes : base::MemoryBudgetBytes() / 2;
}

}  // namespace

ProfileStore::ProfileStore(ProfileStoreOptions options)
    : options_(std::move(options)),
      models_(ModelCacheBytes(options_), [](const analysis::ProfileModel& model) {
        return analysis::ModelMemoryBytes(model);
      }),
      results_(options_.result_cache_bytes, [](const CachedResult& result) {
        // The JSON text, plus about as much again for the result struct behind the tables.
        return 2 * result.json.size() + 1024;
      }) {}

bool ProfileStore::LogdirExists() const {
  std::error_code ec;
  return std::filesystem::is_directory(options_.logdir, ec);
}

StatusOr<std::vector<load::RunProfiles>> ProfileStore::RunsFromCacheOrDisk(bool force_refresh) {
  std::lock_guard<std::mutex> lock(runs_mutex_);
  auto now = std::chrono::steady_clock::now();
  if (!force_refresh && runs_valid_ && now - runs_listed_at_ < kRunListTtl) return runs_;
  if (!LogdirExists()) {
    runs_valid_ = false;
    return NotFoundError("the logdir " + options_.logdir + " does not exist (was it deleted?)");
  }
  auto runs = load::ListLogdirRuns(options_.logdir, options_.list_options);
  // An existing logdir without runs is not an error for a server: runs may come later.
  runs_ = runs.ok() ? std::move(runs).value() : std::vector<load::RunProfiles>{};
  runs_listed_at_ = now;
  runs_valid_ = true;
  return runs_;
}

StatusOr<std::vector<load::RunProfiles>> ProfileStore::ListRuns() { return RunsFromCacheOrDisk(true); }

StatusOr<load::RunProfiles> ProfileStore::FindRun(std::string_view name) {
  for (bool refresh : {false, true}) {
    STEPSCOPE_ASSIGN_OR_RETURN(std::vector<load::RunProfiles> runs, RunsFromCacheOrDisk(refresh));
    for (load::RunProfiles& run : runs) {
      if (run.name != name) continue;
      auto files = load::RelistRunFiles(run);
      if (!files.ok()) return NotFoundError("run '" + std::string(name) + "' was removed from the logdir");
      run.hosts = std::move(files).value();
      return std::move(run);
    }
  }
  return NotFoundError("no run '" + std::string(name) + "' in the logdir");
}

std::vector<std::string> ProfileStore::HostChoices(const load::RunProfiles& run) {
  std::vector<std::string> hosts;
  if (run.hosts.size() > 1) hosts.emplace_back(load::kAllHosts);
  for (const load::HostProfileFile& file : run.hosts) hosts.push_back(file.host);
  return hosts;
}

StatusOr<std::vector<load::HostProfileFile>> ProfileStore::SelectFiles(const load::RunProfiles& run,
                                                                        std::string_view host) const {
  if (run.hosts.empty()) return NotFoundError("run '" + run.name + "' holds no profile files yet");
  if (host.empty() || host == load::kAllHosts) return run.hosts;
  for (const load::HostProfileFile& file : run.hosts) {
    if (file.host == host) return std::vector<load::HostProfileFile>{file};
  }
  std::string valid;
  for (const std::string& choice : HostChoices(run)) valid += (valid.empty() ? "" : ", ") + choice;
  return NotFoundError("no host '" + std::string(host) + "' in run '" + run.name + "'; hosts: " + valid);
}

// A model larger than the whole model cache is refused (and freed) rather than served
// and held outside the budget: the server's memory stays within --max_memory_mb.
StatusOr<std::shared_ptr<const analysis::ProfileModel>> ProfileStore::KeepIfItFits(analysis::ProfileModel model,
                                                                                  const std::string& run) const {
  const size_t bytes = analysis::ModelMemoryBytes(model);
  if (bytes > models_.capacity_bytes()) {
    return ResourceExhaustedError("the model of run " + run + " needs " + std::to_string(bytes >> 20) +
                                  " MiB, more than the server's model cache of " +
                                  std::to_string(models_.capacity_bytes() >> 20) +
                                  " MiB (half of --max_memory_mb); serve with a larger --max_memory_mb, or open "
                                  "one host or one step");
  }
  return std::make_shared<const analysis::ProfileModel>(std::move(model));
}

// Several hosts' model (no step) from their summaries, as the CLI's commands read them
// (load::LoadRunModel): written the first time, so a restarted server, the CLI and the
// server share them. A rebuilt summary is logged.
StatusOr<analysis::ProfileModel> ProfileStore::LoadModel(const std::vector<load::HostProfileFile>& files,
                                                         std::optional<int64_t> step) const {
  analysis::ModelOptions options;
  options.step = step;
  std::vector<std::string> notes;
  StatusOr<analysis::ProfileModel> model = load::LoadRunModel(files, options, options_.summaries, &notes);
  for (const std::string& note : notes) base::LogWarning("serve: %s", note.c_str());
  return model;
}

StatusOr<std::shared_ptr<const analysis::ProfileModel>> ProfileStore::GetModel(const load::RunProfiles& run,
                                                                              std::string_view host,
                                                                              std::optional<int64_t> step) {
  STEPSCOPE_ASSIGN_OR_RETURN(std::vector<load::HostProfileFile> files, SelectFiles(run, host));
  // A step's model starts from the run's all-steps model when that is cached (the UI asks
  // for it first): a step the profile does not have is answered from it, and one host's
  // step model shares its columns instead of reading and decoding the file again.
  if (step) {
    if (std::shared_ptr<const analysis::ProfileModel> all = models_.Peek(ModelKey(run, files, std::nullopt))) {
      STEPSCOPE_RETURN_IF_ERROR(analysis::StepGroupId(*all, *step).status());
      if (files.size() == 1 && all->source != nullptr) {
        return models_.GetOrCompute(ModelKey(run, files, step),
                                    [&]() -> StatusOr<std::shared_ptr<const analysis::ProfileModel>> {
                                      analysis::ModelOptions options;
                                      options.step = step;
                                      options.hostname = files[0].host;  // as load::LoadHostModel names it
                                      STEPSCOPE_ASSIGN_OR_RETURN(analysis::ProfileModel model,
                                                                 analysis::BuildProfileModel(all->source, options));
                                      return KeepIfItFits(std::move(model), run.name);
                                    });
      }
    }
  }
  return models_.GetOrCompute(ModelKey(run, files, step),
                              [&]() -> StatusOr<std::shared_ptr<const analysis::ProfileModel>> {
                                STEPSCOPE_ASSIGN_OR_RETURN(analysis::ProfileModel model, LoadModel(files, step));
                                return KeepIfItFits(std::move(model), run.name);
                              });
}

StatusOr<std::shared_ptr<const CachedResult>> ProfileStore::GetResult(const load::RunProfiles& run,
                                                                      std::string_view host, std::string_view tool_id,
                                                                      const analysis::ToolOptions& options,
                                                                      std::optional<int64_t> step) {
  STEPSCOPE_ASSIGN_OR_RETURN(const analysis::Tool* tool, analysis::FindTool(tool_id));
  STEPSCOPE_ASSIGN_OR_RETURN(std::vector<load::HostProfileFile> files, SelectFiles(run, host));
  std::string key = ModelKey(run, files, step);
  key += '\0';
  key += tool_id;
  key += '\0';
  // Every option the tool declares, by construction: the tool sees no other (Tool::Run).
  key += analysis::ToolOptionsKey(*tool, options);
  return results_.GetOrCompute(key, [&]() -> StatusOr<std::shared_ptr<const CachedResult>> {
    STEPSCOPE_ASSIGN_OR_RETURN(std::shared_ptr<const analysis::ProfileModel> model, GetModel(run, host, step));
    STEPSCOPE_ASSIGN_OR_RETURN(std::unique_ptr<analysis::ToolResult> result,
                               analysis::RunTool(tool_id, *model, options));
    // The tool may have filled the model's derivations (ProfileModel::derived): the model
    // cache charges what the model holds now.
    models_.Remeasure(ModelKey(run, files, step));
    auto cached = std::make_shared<CachedResult>();
    cached->json = result->ToJson(/*pretty=*/true);
    cached->table_names = result->TableNames();
    cached->result = std::move(result);
    return std::shared_ptr<const CachedResult>(std::move(cached));
  });
}

}  // namespace stepscope::server
