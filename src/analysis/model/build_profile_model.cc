#include "src/analysis/model/build_profile_model.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>

#include "src/analysis/model/device_analysis.h"
#include "src/analysis/model/host_analysis.h"
#include "src/analysis/model/launch_threads.h"
#include "src/analysis/model/memory_events.h"
#include "src/analysis/model/memory_hlo_names.h"
#include "src/analysis/model/op_memory.h"
#include "src/analysis/model/model_builder.h"
#include "src/analysis/model/op_metrics.h"
#include "src/analysis/model/pipeline_events.h"
#include "src/analysis/model/step_breakdown.h"
#include "src/analysis/model/work_between_steps.h"
#include "src/base/batch_heap.h"
#include "src/hlo/hlo_programs.h"
#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/columnar/xspace_to_columnar.h"
#include "src/xspace/schema.h"
#include "src/base/status_macros.h"

#include "src/analysis/model/sat_math.h"

namespace stepscope::analysis {
namespace {

using xspace::ColumnarPlane;
using xspace::StatType;

// Planes whose lines are host threads. TF merges all of these into /host:CPU when it
// saves; unmerged ones (raw captures) are read the same way.
bool IsHostThreadsPlane(std::string_view name) {
  return name == xspace::kHostThreadsPlaneName || name == xspace::kCuptiDriverApiPlaneName ||
         name == xspace::kPythonTracerPlaneName || name == "/host:TPU-runtime" || name == "/host:ROCTRACER";
}

bool IsAcceleratorPlane(std::string_view name) {
  return name.starts_with(xspace::kGpuPlanePrefix) || name.starts_with(xspace::kTpuPlanePrefix);
}

// RunEnvironment::device_type of these device planes.
std::string RunDeviceType(const std::vector<DeviceActivity>& devices) {
  if (devices.empty()) return "CPU";
  std::vector<std::string_view> types;
  for (const DeviceActivity& d : devices) {
    if (d.plane_name.starts_with(xspace::kTpuPlanePrefix)) return "TPU";
    const std::string_view type =
        d.capabilities.device_type.empty() ? std::string_view("GPU") : std::string_view(d.capabilities.device_type);
    if (std::find(types.begin(), types.end(), type) == types.end()) types.push_back(type);
  }
  std::sort(types.begin(), types.end());
  std::string joined;
  for (std::string_view type : types) joined += (joined.empty() ? "" : "+") + std::string(type);
  return joined;
}

int64_t PlaneInt(const ColumnarPlane& plane, StatType type) {
  xspace::ColumnarStat stat;
  return plane.FindPlaneStat(type, &stat) ? ColumnarPlane::AsInt64(stat) : 0;
}

HostEnvironment ReadHostEnvironment(const xspace::ColumnarXSpace& space, const std::vector<uint32_t>& host_planes,
                                    const ModelOptions& options) {
  HostEnvironment env;
  for (uint32_t p : host_planes) {
    const ColumnarPlane& plane = space.planes[p];
    xspace::ColumnarStat stat;
    if (env.hostname.empty() && plane.FindPlaneStat(StatType::kHostName, &stat)) {
      env.hostname = std::string(plane.AsString(stat));
    }
    env.logical_cores = std::max(env.logical_cores, PlaneInt(plane, StatType::kLogicalCores));
    if (env.process_id == 0) env.process_id = PlaneInt(plane, StatType::kProcessId);
    env.host_memory_bytes = std::max(env.host_memory_bytes, PlaneInt(plane, StatType::kHostMemoryBytes));
    AddTo(env.dropped_traces, PlaneInt(plane, StatType::kDroppedTraces));
  }
  if (!space.hostnames.empty()) env.hostname = space.hostnames[0];
  if (env.hostname.empty()) env.hostname = options.hostname;
  if (const ColumnarPlane* task = space.FindPlane(xspace::kTaskEnvPlaneName)) {
    env.profile_start_time_ns = PlaneInt(*task, StatType::kProfileStartTime);
    env.profile_stop_time_ns = PlaneInt(*task, StatType::kProfileStopTime);
  }
  return env;
}

// How device events were tied to steps, when a rule other than the plain ones did work,
// and how many could not be tied, with the true reason.
void AddDeviceTieDiagnostics(const ProfileModel& model, const internal::DeviceAnalysis& device,
                             std::vector<std::string>* out) {
  if (model.steps.empty()) return;
  const DeviceStepTies& ties = device.ties;
  if (ties.by_launch_window > 0) {
    out->push_back(std::to_string(ties.by_launch_window) +
                   " device events were tied to a step by the step window holding their launch (launched from a "
                   "thread without step markers, e.g. PyTorch's autograd thread), " +
                   std::to_string(ties.by_launch) + " by the step marker around their launch (correlation_id)" +
                   (ties.by_group_id > 0 ? ", " + std::to_string(ties.by_group_id) + " by their group_id" : ""));
  }
  if (ties.untied() > 0) {
    constexpr std::string_view kOutside = "launched outside every step";
    constexpr std::string_view kNoLaunch = "no group_id and no host launch with their correlation_id";
    std::string why;
    if (ties.launch_outside_steps == 0) {
      why = kNoLaunch;
    } else if (ties.no_launch == 0) {
      why = kOutside;
    } else {
      why = std::to_string(ties.launch_outside_steps) + " " + std::string(kOutside) + ", " +
            std::to_string(ties.no_launch) + " with " + std::string(kNoLaunch);
    }
    out->push_back(std::to_string(ties.untied()) + " device events could not be tied to a step (" + why +
                   "); they count in device totals but not in step breakdowns");
  }
  if (device.span_failures > 0) {
    out->push_back(std::to_string(device.span_failures) +
                   " device events were left out of the step breakdown (out of memory or over 2^27 step groups)");
  }
}

void AddDiagnostics(const xspace::ColumnarXSpace& space, const internal::HostAnalysis& host,
                    const internal::DeviceAnalysis& device, ProfileModel* model) {
  std::vector<std::string>& out = model->diagnostics;
  for (const std::string& d : host.diagnostics) out.push_back(d);
  for (const std::string& e : space.errors) out.push_back("profile error: " + e);
  for (const std::string& w : space.warnings) out.push_back("profile warning: " + w);
  if (model->steps.empty()) {
    out.push_back(host.markers.empty() && device.markers.empty()
                      ? "no step markers found: mark each training step to get per-step analyses "
                        "(PyTorch: prof.step() under torch.profiler; JAX: jax.profiler.StepTraceAnnotation; "
                        "TensorFlow: tf.profiler.experimental.Trace('train', step_num=n, _r=1); C++: stepscope::Step)"
                      : "step markers were found, but no step had activity on a device");
  }
  int64_t dropped = model->run_environment.dropped_traces;
  if (dropped > 0) {
    out.push_back(std::to_string(dropped) +
                  " events were dropped while recording (buffers full): totals undercount; raise "
                  "per_thread_buffer_bytes or profile fewer steps");
  }
  AddDeviceTieDiagnostics(*model, device, &out);
  if (device.implausible_kernel_details > 0) {
    out.push_back(std::to_string(device.implausible_kernel_details) +
                   " kernel launch records hold sizes no kernel can have (e.g. \"" +
                   device.implausible_kernel_details_example.substr(0, 160) +
                   "\"): their registers, shared memory and occupancy are shown as unknown");
  }

  const InputPipelineFacts& input = model->input_pipeline;
  if (input.get_next_outside_steps > 0) {
    out.push_back(std::to_string(input.get_next_outside_steps) + " of " + std::to_string(input.get_next_count) +
                  " input fetches (IteratorGetNext, DataLoader __next__) ran outside every step: the data "
                  "iterator is fetched outside the step "
                  "scope, so input time is missing from the step breakdown");
  }
}

// Gives each device's per-step activity the step number of its group, keeping only
// groups that became steps, in step-number order.
void NumberDeviceSteps(ProfileModel* model) {
  std::unordered_map<int64_t, int64_t> number_of_group;
  for (const StepInfo& step : model->steps) number_of_group.emplace(step.group_id, step.step_number);
  for (DeviceActivity& device : model->devices) {
    std::vector<DeviceStepActivity> kept;
    for (DeviceStepActivity& a : device.step_activity) {
      auto it = number_of_group.find(a.group_id);
      if (it == number_of_group.end()) continue;
      a.step_number = it->second;
      kept.push_back(a);
    }
    std::sort(kept.begin(), kept.end(), [](const DeviceStepActivity& a, const DeviceStepActivity& b) {
      return a.step_number < b.step_number;
    });
    device.step_activity = std::move(kept);
  }
}

// The XLA programs of /host:metadata, when there are any (and what was wrong with them).
void AddHloPrograms(const xspace::ColumnarXSpace& space, ProfileModel* model) {
  hlo::HloPrograms programs = hlo::ReadHloPrograms(space);
  for (const std::string& problem : programs.diagnostics) model->diagnostics.push_back(problem);
  if (const int64_t named = internal::NameAllocationsFromBufferAssignment(programs, &model->memory); named > 0) {
    model->diagnostics.push_back(std::to_string(named) +
                                 " allocator events without an op name were named from the XLA buffer assignment "
                                 "(a buffer allocation of exactly their requested size)");
  }
  // Kept when no program could be read too: the reader's reasons are what the XLA tools
  // say instead of "no XLA programs".
  if (!programs.empty() || !programs.diagnostics.empty()) {
    model->hlo = std::make_shared<const hlo::HloPrograms>(std::move(programs));
  }
}

// The parts of the model that need the host analysis alone (the host op table, the
// launch threads' competition, the tf.data events): built on a thread of their own beside
// the device analysis and the step build, which come first on the critical path (15 MB
// Kineto analyze: -0.5 ms). On a large profile only the op table is: the other two, alive
// beside the step build's spans, raised `analyze`'s peak on a 10 M-event profile from
// 1.85x to 2.18x the file, so they wait for the step build as before.
class HostSideWork {
 public:
  HostSideWork(const xspace::ColumnarXSpace& space, const internal::HostAnalysis& host, bool keep_event_tree)
      : space_(space), host_(host), keep_event_tree_(keep_event_tree) {}
  ~HostSideWork() {
    if (thread_.joinable()) thread_.join();
  }

  // Starts the work on its thread; with `table_only`, the op table alone.
  void Start(bool table_only) {
    rest_on_thread_ = !table_only;
    thread_ = std::thread([this] {
      BuildTable();
      if (rest_on_thread_) BuildRest();
    });
  }
  // Waits for the thread, then does what it did not (all of it when never started).
  void Finish() {
    if (thread_.joinable()) {
      thread_.join();
    } else {
      BuildTable();
    }
    if (!rest_on_thread_) BuildRest();
  }

  internal::HostOpTable op_table;
  LaunchThreadCompetition launch_threads;
  PipelineEvents pipeline_events;  // when the model keeps no event trees

 private:
  void BuildTable() { op_table = internal::BuildHostOpTable(space_, host_); }
  void BuildRest() {
    launch_threads = ComputeLaunchThreadCompetition(host_.threads, space_);
    // Without the trees the pipeline events must be taken now; with them, tools extract
    // on demand (ForEachHostPipelineEvents), so models that are not asked pay nothing.
    if (!keep_event_tree_) pipeline_events = ExtractPipelineEvents(space_, host_.threads);
  }

  const xspace::ColumnarXSpace& space_;
  const internal::HostAnalysis& host_;
  const bool keep_event_tree_;
  bool rest_on_thread_ = false;
  std::thread thread_;
};

// The host's blocking runtime calls, with the part of each inside the steps' windows,
// most time first.
void AddHostSyncWaits(internal::HostAnalysis* host, ProfileModel* model) {
  const std::vector<StepInfo>& steps = model->steps;
  for (const auto& [begin, end, index] : host->sync_wait_spans) {
    auto it = std::upper_bound(steps.begin(), steps.end(), begin,
                               [](int64_t t, const StepInfo& step) { return t < step.begin_ps; });
    int64_t in_steps = 0;
    if (it != steps.begin()) --it;
    for (; it != steps.end() && it->begin_ps < end; ++it) {
      in_steps += std::max<int64_t>(0, std::min(end, it->begin_ps + it->duration_ps) - std::max(begin, it->begin_ps));
    }
    AddTo(host->sync_waits[index].in_steps_ps, std::min(in_steps, end - begin));
  }
  model->host_sync_waits = std::move(host->sync_waits);
  SortHostSyncWaits(&model->host_sync_waits);
}

// The model; with `only_group_id`, of that step group's events alone (ModelOptions::step).
// `memory_records`: what TakeMemoryRecords took out of the space (or null); its arrays
// become the model's.
StatusOr<ProfileModel> BuildModel(std::shared_ptr<const xspace::ColumnarXSpace> space, const ModelOptions& options,
                                  std::optional<int64_t> only_group_id,
                                  internal::MemoryRecords* memory_records = nullptr) {
  const xspace::ColumnarXSpace& s = *space;
  std::vector<uint32_t> host_planes, device_planes;
  for (uint32_t p = 0; p < s.planes.size(); ++p) {
    if (IsHostThreadsPlane(s.planes[p].name)) host_planes.push_back(p);
    if (IsAcceleratorPlane(s.planes[p].name)) device_planes.push_back(p);
  }
  if (!internal::EventIndexSpace(s).fits()) return ResourceExhaustedError("more than 2^32 events in one XSpace");

  ProfileModel model;
  model.total_events = static_cast<int64_t>(s.num_events());
  internal::HostAnalysis host;
  internal::AnalyzeHost(s, host_planes, &host);
  host.only_group_id = only_group_id;
  // Not beside the device analysis for one step's model: the step's group is then looked
  // up in the group table, which the device analysis extends.
  const bool large = s.num_events() * sizeof(internal::StepSpan) >= base::kLargeBlockBytes;
  HostSideWork side(s, host, options.keep_event_tree);
  if (!only_group_id) side.Start(/*table_only=*/large);
  internal::DeviceAnalysis device;
  internal::AnalyzeDevices(s, device_planes, &host, &device);
  // Before BuildSteps, which releases the host threads' groups as it goes.
  internal::ExtractMemoryEvents(s, host, /*host_index=*/0, memory_records, &model.memory);
  // Only the device analysis looks launches up.
  host.correlation_to_group = {};
  host.correlation_to_op = {};
  host.launches_with_16bit_inputs = {};

  HostEnvironment env = ReadHostEnvironment(s, host_planes, options);
  model.hostnames.push_back(env.hostname);
  RunEnvironment& run = model.run_environment;
  run.dropped_traces = env.dropped_traces;
  run.hosts.push_back(std::move(env));
  run.device_count = static_cast<int64_t>(device_planes.size());
  run.device_type = RunDeviceType(device.devices);
  for (const DeviceActivity& d : device.devices) {
    if (d.has_activity()) {
      model.has_device = true;
      ++run.active_device_count;
    }
  }
  run.device_core_count = run.active_device_count;

  model.step_source = host.step_source;
  if (model.step_source == "none" && !device.markers.empty()) model.step_source = "tf_grouped";
  // The host and device analyses have freed their temporaries, which stay resident in
  // malloc's heap; the step build's spans (one per kernel, copy and top-level host event)
  // are mapped on their own when large, on top of them. Handed back first, the peak is
  // what is alive (10 M-event profile: `analyze` 2.04x -> 1.85x the file).
  if (large) base::ReleaseFreedHeapMemory();
  internal::BuildSteps(s, options, model.has_device, &host, &device, &model);
  if (only_group_id) {
    std::erase_if(model.steps, [&](const StepInfo& step) { return step.group_id != *only_group_id; });
    model.step_group = only_group_id;
  }
  AddHostSyncWaits(&host, &model);
  internal::FindWorkBetweenSteps(s, host.threads, &model);
  side.Finish();
  internal::AddHostOpTable(std::move(side.op_table), &model);
  internal::AddHostOpMemory(s, host, &model);
  model.device_step_ties = device.ties;
  model.device_ops = std::move(device.ops);
  model.kernels = std::move(device.kernels);
  model.input_pipeline.device_copies = std::move(device.input_copies);
  model.devices = std::move(device.devices);
  NumberDeviceSteps(&model);
  AddDiagnostics(s, host, device, &model);
  internal::AddMemoryDiagnostics(model.memory, &model.diagnostics);
  AddHloPrograms(s, &model);
  device.hlo_kernels.Finish(&model.hlo_ops, &model.hlo_join);
  internal::ResolveHloOps(model.hlo.get(), &model.hlo_ops, &model.hlo_join);
  model.launch_threads = std::move(side.launch_threads);
  if (!options.keep_event_tree) model.pipeline_events.push_back(std::move(side.pipeline_events));
  if (options.keep_event_tree) {
    model.host_threads = std::move(host.threads);
    model.source = std::move(space);
  }
  return model;
}

}  // namespace

namespace {

StatusOr<ProfileModel> BuildProfileModelTaking(std::shared_ptr<const xspace::ColumnarXSpace> space,
                                               const ModelOptions& options, internal::MemoryRecords* memory_records) {
  if (space == nullptr) return InvalidArgumentError("BuildProfileModel: no XSpace");
  if (!options.step) return BuildModel(std::move(space), options, std::nullopt, memory_records);
  // Which group is the step is known only once steps are built: build the whole model
  // first (without event trees), then again counting that group's events alone.
  ModelOptions whole = options;
  whole.step.reset();
  whole.keep_event_tree = false;
  // The first build only finds the step's group: it leaves memory records alone (none).
  internal::MemoryRecords none;
  int64_t group_id = 0;
  size_t step_count = 0;
  {
    // Only the step's group and the step count are kept: the whole model (its tables, its
    // tf.data events) would otherwise stay alive through the step's build.
    STEPSCOPE_ASSIGN_OR_RETURN(ProfileModel all_steps, BuildModel(space, whole, std::nullopt, &none));
    STEPSCOPE_ASSIGN_OR_RETURN(group_id, StepGroupId(all_steps, *options.step));
    step_count = all_steps.steps.size();
  }
  STEPSCOPE_ASSIGN_OR_RETURN(ProfileModel model, BuildModel(std::move(space), options, group_id, memory_records));
  model.diagnostics.insert(model.diagnostics.begin(),
                           "step " + std::to_string(*options.step) + " only: ops, kernels and device activity count "
                           "the events of this step's group (of " + std::to_string(step_count) + " steps)");
  return model;
}

}  // namespace

StatusOr<int64_t> StepGroupId(const ProfileModel& model, int64_t step) {
  for (const StepInfo& info : model.steps) {
    if (info.step_number == step) return info.group_id;
  }
  if (model.steps.empty()) return NotFoundError("no step " + std::to_string(step) + ": this profile has no steps");
  return NotFoundError("no step " + std::to_string(step) + " in this profile; its " +
                       std::to_string(model.steps.size()) + " steps are numbered " +
                       std::to_string(model.steps.front().step_number) + " to " +
                       std::to_string(model.steps.back().step_number));
}

StatusOr<ProfileModel> BuildProfileModel(std::shared_ptr<const xspace::ColumnarXSpace> space,
                                         const ModelOptions& options) {
  return BuildProfileModelTaking(std::move(space), options, nullptr);
}

StatusOr<ProfileModel> BuildProfileModelFromXSpace(const xspace::XSpace& space, const ModelOptions& options) {
  StatusOr<xspace::ColumnarXSpace> columnar = xspace::ConvertXSpaceToColumnar(space);
  if (!columnar.ok()) return columnar.status();
  return BuildProfileModel(std::make_shared<const xspace::ColumnarXSpace>(std::move(*columnar)), options);
}

StatusOr<ProfileModel> BuildProfileModelFromFile(const std::string& path, const ModelOptions& options) {
  // A model that keeps no event tree keeps no columns either (nothing shows the memory
  // events' stats from them): its memory events are decoded straight into records.
  xspace::ColumnarReadOptions read;
  if (!options.keep_event_tree) read.memory_event_records = IsHostThreadsPlaneName;
  StatusOr<xspace::ColumnarXSpace> columnar = xspace::ReadColumnarXSpaceFile(path, read);
  if (!columnar.ok()) return columnar.status();
  internal::MemoryRecords memory_records = internal::TakeMemoryRecords(&*columnar);
  ModelOptions with_host = options;
  if (with_host.hostname.empty()) {
    std::string file = std::filesystem::path(path).filename().string();
    for (std::string_view suffix : {".xplane.pb.gz", ".xplane.pb"}) {
      if (file.ends_with(suffix)) {
        file.resize(file.size() - suffix.size());
        break;
      }
    }
    with_host.hostname = file;
  }
  return BuildProfileModelTaking(std::make_shared<const xspace::ColumnarXSpace>(std::move(*columnar)), with_host,
                                 &memory_records);
}

bool IsHostThreadsPlaneName(std::string_view name) { return IsHostThreadsPlane(name); }

StatusOr<std::optional<int64_t>> ParseStepSelection(std::string_view text) {
  if (text.empty() || text == "all") return std::optional<int64_t>();
  int64_t number = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end != text.data() + text.size()) {
    return InvalidArgumentError("a step number (or 'all') is expected, not '" + std::string(text) + "'");
  }
  return std::optional<int64_t>(number);
}

}  // namespace stepscope::analysis
