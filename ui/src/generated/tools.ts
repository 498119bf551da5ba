// Generated from the tool declarations (src/analysis/tool_options.cc and each tool's
// DescribeRecord) by `stepscope_reference --typescript`; do not edit: run ./dev gen.
/* eslint-disable */

export interface FrameworkGuess {
  /** the framework the profile comes from: `tensorflow`, `jax`, `pytorch`, `stepscope` (the C++ recording API) or `unknown` */
  framework: string;
  /** the framework's name for people ("PyTorch") */
  framework_label: string;
  /** what decided the framework, in words ("PyTorch operators such as aten::addmm") */
  framework_evidence: string;
}

export interface StepCadenceSummary {
  /** steps with both a host marker and device work */
  steps: number;
  /** mean time between host step ends (with back-to-back markers, step starts) */
  host_interval_ms: number;
  /** mean time between the ends of the steps' device work */
  device_interval_ms: number;
  /** how much further the device falls behind each step */
  lag_growth_per_step_ms: number;
  /** the device's cadence is the step time */
  device_bound: boolean;
  /** from a host step's end to the end of the device work it launched */
  mean_device_lag_ms: number;
  max_device_lag_ms: number;
  /** a sentence where the cadences differ by over 2 %; empty otherwise */
  statement: string;
}

export interface StepTimeSummary extends FrameworkGuess {
  /** number of steps found */
  steps: number;
  /** mean step time */
  avg_step_time_ms: number;
  /** (wait for input + host-to-device) / total step time × 100, as the TF Profiler computes it; null without steps */
  input_bound_percent: number | null;
  /** `highly` (≥ 20 %), `moderately` (≥ 5 %), `not` (< 5 %); `unknown` only when there are no steps */
  input_bound_verdict: string;
  /** the verdict is `not` but ≥ 3 % of step time is explained by no event (possibly uninstrumented input work) */
  input_bound_potentially: boolean;
  /** TF Profiler's classification: `host` (highly), `both` (moderately or potentially), `device` (not), `unknown` */
  input_bound_classification: string;
  /** one sentence explaining the verdict with its numbers */
  input_bound_statement: string;
  /** what a step's time is (docs/model.md "Steps"): `step_starts`, `device_completions`, `host_marker` or `device_marker` */
  step_time_source: string;
  /** steps from step markers with device work: the host's and the device's cadences and the device's lag; null otherwise */
  step_cadence: StepCadenceSummary | null;
}

export interface StepBreakdownRow {
  /** the category's key */
  category: string;
  /** per step */
  avg_ms: number;
  percent: number;
}

export interface StepRow {
  /** the marker's step number */
  step_number: number;
  /** e.g. `train 5` */
  step_name: string;
  /** the step's duration */
  step_time_ms: number;
  /** the step's wait for input + host-to-device (what `input_bound_percent` counts) */
  input_bound_ms: number;
  /** the step's time in this category */
  compilation_ms?: number;
  /** the step's time in this category */
  input_ms?: number;
  /** the step's time in this category */
  output_ms?: number;
  /** the step's time in this category */
  kernel_launch_ms?: number;
  /** the step's time in this category */
  host_compute_ms?: number;
  /** the step's time in this category */
  device_to_device_ms?: number;
  /** the step's time in this category */
  device_collectives_ms?: number;
  /** the step's time in this category */
  device_compute_ms?: number;
  /** the step's time in this category */
  other_ms?: number;
  /** the busy time (union over streams and devices) of the device work the step launched, wherever it ran */
  device_busy_ms?: number;
  /** how far the end of the device work the step launched lies after the host step's end */
  device_lag_ms?: number;
}

export interface SummaryStats {
  mean: number;
  /** population standard deviation */
  stddev: number;
  min: number;
  max: number;
}

export interface ComputePrecision {
  /** of device compute time, in 16-bit ops (see below); null without device compute */
  bit16_percent: number | null;
  /** the rest; null without device compute */
  bit32_percent: number | null;
}

export interface TopDeviceOp {
  /** 1 = the most self time */
  rank: number;
  /** the framework op the kernels ran for, or the kernel / copy name */
  name: string;
  type: string;
  /** `tensorflow`, `jax`, `pytorch` (the `aten::…` op that launched the kernels), `memcpy_h2d`, `device_kernel`, `other`, ... */
  category: string;
  occurrences: number;
  self_time_ms: number;
  /** of all device op self time */
  self_time_percent: number;
  /** this row's and every row above it's */
  cumulative_percent: number;
}

export interface HostEnvironment {
  hostname: string;
  /** 0 = not recorded */
  logical_cores: number;
  /** 0 = not recorded */
  process_id: number;
  /** 0 = not recorded */
  host_memory_bytes: number;
  /** events lost while recording */
  dropped_events: number;
}

export interface DeviceModelCount {
  /** the model name (`gpu_device_name`, Kineto's `deviceProperties` name); empty when not recorded */
  name: string;
  /** `GPU`, `MTIA`, `TPU`, ... */
  device_type: string;
  /** device planes of this model */
  count: number;
}

export interface OverviewEnvironment {
  host_count: number;
  /** one per host (as the table `hosts`) */
  hosts: HostEnvironment[];
  /** `GPU`, `TPU`, `CPU`, or from Kineto traces `MTIA`, `XPU`, `HPU`, `PrivateUse1` (docs/model.md "Run environment") */
  device_type: string;
  /** device planes */
  device_count: number;
  /** device planes with activity */
  active_device_count: number;
  /** devices used, as XProf counts GPU "cores" */
  device_core_count: number;
  /** sum of the active devices' `core_count` plane stat: SMs / compute units; 0 when not recorded */
  device_compute_units: number;
  /** the device planes by model name, most first */
  device_models: DeviceModelCount[];
  /** events lost while recording, over all hosts */
  dropped_events: number;
}

export interface OpPlacement {
  /** self time of framework ops that launched no device work */
  host_time_ms: number;
  /** device op self time */
  device_time_ms: number;
  host_percent: number;
  device_percent: number;
}

export interface HloDeviceRoofs {
  /** the device's peak compute; null when unknown */
  peak_tflops: number | null;
  /** the device's memory bandwidth; null when unknown */
  peak_bandwidth_gbps: number | null;
  /** where the roofs meet: below it an op is memory bound; null unless both are known */
  ridge_flops_per_byte: number | null;
  /** where the peak compute comes from */
  flops_source: string;
  /** where the bandwidth comes from */
  bandwidth_source: string;
}

export interface HloOpSummary {
  /** XLA programs in the profile */
  programs: number;
  hlo_instructions: number;
  /** device kernels */
  kernels: number;
  /** kernels carrying an `hlo_op` stat */
  kernels_with_hlo_op: number;
  /** kernels tied to an instruction of the profile's programs */
  kernels_joined: number;
  /** kernels joined, of all kernels */
  join_rate_percent: number;
  /** over every HLO op row */
  total_time_ms: number;
  /** of HLO op time, in ops whose FLOPs the cost model cannot know (custom calls): the utilisations are lower bounds when not 0 */
  unknown_flops_time_percent: number;
  total_gflops: number;
  /** bytes accessed */
  total_gb: number;
  /** total FLOPs over the HLO ops' time, of the compute roof; null when the device's peaks are unknown */
  flops_utilization_percent: number | null;
  /** the same for bytes and the bandwidth roof */
  bandwidth_utilization_percent: number | null;
  device: HloDeviceRoofs;
}

export interface DeviceCounterRow {
  host: string;
  /** the device's plane */
  device: string;
  /** `sm_utilization_pct`, `memory_utilization_pct`, `memory_used_bytes`, `power_watts` (as stepscope's tracer reads them from NVML) */
  counter: string;
  samples: number;
  mean: number;
  min: number;
  max: number;
  last: number;
  /** 80 for the utilisations, 90 % of the device's memory for memory used; 0 for counters without one */
  threshold: number;
  /** share of the sampled span (each sample holding until the next) at or above the threshold; -1 for counters without one */
  at_or_above_percent: number;
}

export interface Finding {
  /** the rule's stable id, e.g. `input_bound` */
  id: string;
  /** `high`, `medium` or `low` */
  severity: string;
  /** short, with the key number */
  title: string;
  /** the numbers that fired the rule, in words */
  evidence: string;
  /** the evidence's numbers by name, in the order the evidence cites them */
  numbers: Record<string, number>;
  /** what to change */
  advice: string;
  /** the tool id that shows the evidence */
  tool: string;
  /** the share of step time (or device time) concerned; for ordering */
  impact_percent: number;
}

export interface OverviewPage extends StepTimeSummary {
  tool: 'overview_page';
  /** average ms per step by category (`compilation`, `input`, `output`, `kernel_launch`, `host_compute`, `device_to_device`, `device_collectives`, `device_compute`, `other`), summing to `avg_step_time_ms`; categories that cannot occur in the profile are left out */
  step_time_breakdown_ms: Record<string, number>;
  /** share of total step time per category (the keys of `step_time_breakdown_ms`) */
  step_time_breakdown_percent: Record<string, number>;
  /** step time over the steps */
  step_time_stats_ms: SummaryStats;
  /** share of device compute time in 16-bit ops and in the rest */
  device_compute_precision: ComputePrecision;
  /** one row per step (the CSV table `steps`) */
  step_time_graph: StepRow[];
  /** the 10 device ops with the most self time */
  top_device_ops: TopDeviceOp[];
  /** the hosts and devices the profile ran on */
  run_environment: OverviewEnvironment;
  /** framework op time on the host only and on the device (as framework_op_stats') */
  op_placement: OpPlacement;
  /** the HLO tools' common summary */
  xla?: HloOpSummary;
  /** each device's sampled counters; empty for profiles without counters */
  device_counters: DeviceCounterRow[];
  /** the advisor's findings, most important first */
  recommendations: Finding[];
  /** what to do first: the top finding's title and advice; without findings, the input statement and the largest step-time category */
  next_step: string;
  /** problems in the data, in words (no step markers, dropped events, ...) */
  diagnostics: string[];
}

export interface BottleneckPercent {
  input: number;
  output?: number;
  device_compute?: number;
  device_collectives?: number;
  kernel_launch?: number;
  /** time no event explains */
  all_other: number;
  /** max(0, 100 − input − output − device compute − collectives): the device's idle share; null without a device */
  idle: number | null;
}

export interface InputShareRow {
  /** `wait_for_input` (IteratorGetNext / DataLoader `__next__` / input stages) or `host_to_device` (copies to the device) */
  kind: string;
  /** in the framework's words */
  label: string;
  avg_ms: number;
  /** the rows add up to `input_bound_percent` */
  percent: number;
}

export interface HostBreakdownRow {
  /** a `host_breakdown_ms` key */
  category: string;
  /** for people */
  label: string;
  /** self time of the class's host ops over the profile */
  time_ms: number;
}

export interface InputOpRow {
  /** host: the op; device: the op that issued the copy (e.g. `aten::copy_`) */
  name: string;
  /** host: the op's type; device: the copy event and its source memory (e.g. `MemcpyHtoD (from pinned memory)`) */
  type: string;
  /** host: a `host_breakdown_ms` key; device: `host_to_device` */
  category: string;
  /** `host` or `device` */
  host_or_device: string;
  count: number;
  total_time_ms: number;
  /** of all host op self time, idle excluded, as the TF Profiler; null for device rows */
  total_time_percent: number | null;
  /** device rows: = total */
  self_time_ms: number;
  /** of all host op self time, idle excluded, as the TF Profiler; null for device rows */
  self_time_percent: number | null;
  /** self time over the summed step time: not overlap-resolved and counting time outside steps, so it need not add up to the input share; null without steps */
  step_time_percent: number | null;
}

export interface PipelineBottleneckLink {
  tool: 'tf_data_bottleneck_analysis';
  /** e.g. `Host:0` */
  pipeline: string;
  /** the stage's long name, e.g. `Iterator::Batch::Map` */
  stage: string;
  /** the kind of fix it calls for (`tf_data_bottleneck_analysis`' `kind`) */
  kind: string;
  /** of the blocking time in the slowest calls */
  share_percent: number;
  self_time_per_call_us: number;
  suggestion: string;
  /** "Input bound — the bottleneck is stage X of pipeline Host:0 (…)" */
  statement: string;
}

export interface InputPipelineAnalysis extends StepTimeSummary {
  tool: 'input_pipeline_analyzer';
  /** step time over the steps */
  step_time_stats_ms: SummaryStats;
  /** the per-step input time (`input_bound_ms`): the device-side "time waiting for input" per step */
  input_time_stats_ms: SummaryStats;
  /** average ms per step by category (`compilation`, `input`, `output`, `kernel_launch`, `host_compute`, `device_to_device`, `device_collectives`, `device_compute`, `other`), summing to `avg_step_time_ms`; categories that cannot occur in the profile are left out */
  step_time_breakdown_ms: Record<string, number>;
  /** TF Profiler's bottleneck numbers, % of total step time */
  bottleneck_percent: BottleneckPercent;
  /** what the step waited for; empty without steps */
  input_share: InputShareRow[];
  /** self time of the host input ops over the whole profile by class, for the classes that apply to the framework (see below) */
  host_breakdown_ms: Record<string, number>;
  /** the same classes as rows */
  host_breakdown: HostBreakdownRow[];
  /** host input ops by self time, then host-to-device copies on the device by time */
  input_ops: InputOpRow[];
  /** one row per step (the CSV table `steps`) */
  step_details: StepRow[];
  /** any `Iterator::…` op recorded */
  uses_tf_data: boolean;
  /** input fetches (`IteratorGetNext*`, and PyTorch's `enumerate(DataLoader)#…__next__`) */
  get_next_count: number;
  /** of `get_next_count`, the PyTorch DataLoader's */
  data_loader_next_count: number;
  /** input fetches outside every step (their wait is then missing from the breakdown) */
  get_next_outside_steps: number;
  /** what to do about the input pipeline, in the framework's own knobs */
  recommendation: string;
  /** the stage `tf_data_bottleneck_analysis` names; the advisor's `input_bound` finding then names it too */
  pipeline_bottleneck?: PipelineBottleneckLink;
  /** the model's diagnostics plus this tool's */
  diagnostics: string[];
}

export interface OpStatsRow {
  /** 1 = the most self time */
  rank: number;
  /** `host` or `device` */
  host_or_device: string;
  /** the op's type (`MatMul` for `model/dense/MatMul`); for frameworks without types the name itself */
  type?: string;
  name: string;
  /** what kind of op: `tensorflow`, `jax`, `pytorch`, `data_loader` (PyTorch's DataLoader iterations), `tf_data`, `cuda_runtime`, ...; `idle` for the idle row */
  category: string;
  /** how many times it ran */
  occurrences: number;
  /** including children */
  total_time_ms: number;
  /** total / count; null for the idle row */
  avg_time_ms: number | null;
  /** total minus the time of its immediate children (device ops: = total) */
  total_self_time_ms: number;
  avg_self_time_ms: number | null;
  /** of the side's total self time (plus idle time when idle is included) */
  self_time_percent: number;
  /** this row's and every row above it's self time percent (capped at 100) */
  cumulative_self_time_percent: number;
  /** TensorFlow's `is_eager` stat */
  is_eager?: boolean;
  /** key_averages()' CPU Mem: host allocator bytes allocated minus freed within each occurrence, on any thread, summed per op */
  cpu_memory_bytes?: number | null;
  /** CPU Mem minus its direct children's (ops nested in it on its thread) */
  self_cpu_memory_bytes?: number | null;
  /** key_averages()' CUDA Mem: the same on the devices' allocators */
  device_memory_bytes?: number | null;
  /** Device Mem minus its direct children's */
  self_device_memory_bytes?: number | null;
}

export interface OpTypeRow {
  /** 1 = the most self time */
  rank: number;
  /** `host` or `device` */
  host_or_device: string;
  type: string;
  /** distinct ops */
  op_count: number;
  /** how many times it ran */
  occurrences: number;
  /** sum of the ops' total times */
  total_time_ms: number;
  /** total minus the time of its immediate children (device ops: = total) */
  total_self_time_ms: number;
  /** of the side's total self time (plus idle time when idle is included) */
  self_time_percent: number;
  /** this row's and every row above it's self time percent (capped at 100) */
  cumulative_self_time_percent: number;
}

export interface PieSlice {
  /** op or op type; `(other)` for the rest */
  label: string;
  self_time_ms: number;
  /** of the side's self time */
  percent: number;
}

export interface PieCharts {
  /** the 10 largest slices, then one `(other)` slice for the rest */
  host_op_type: PieSlice[];
  /** the 10 largest slices, then one `(other)` slice for the rest */
  host_op: PieSlice[];
  /** the 10 largest slices, then one `(other)` slice for the rest */
  device_op_type: PieSlice[];
  /** the 10 largest slices, then one `(other)` slice for the rest */
  device_op: PieSlice[];
}

export interface FrameworkOpStats extends FrameworkGuess {
  tool: 'framework_op_stats';
  /** whether idle time is counted as an `IDLE` op */
  include_idle: boolean;
  /** the profile records allocator events, so `host_ops` carries the memory columns */
  host_has_memory: boolean;
  /** some host op has a type other than its name (TensorFlow's `name:Type`, HLO kinds); false for PyTorch, where the op tables have no `type` column */
  host_has_types: boolean;
  /** as `host_has_types`, device side */
  device_has_types: boolean;
  /** sum of host op self time, idle excluded: every host event that is an op (runtime calls and annotations too, not step markers or Python frames) */
  host_total_self_time_ms: number;
  /** sum of device op self time, idle excluded */
  device_total_self_time_ms: number;
  /** time within the recorded span covered by no op, per thread */
  host_idle_time_ms: number;
  /** time with no kernel or copy running */
  device_idle_time_ms: number;
  /** where framework op time runs: host only (no device work launched) or device */
  op_placement: OpPlacement;
  /** one row per host op, by self time */
  host_ops: OpStatsRow[];
  /** one row per device op, by self time */
  device_ops: OpStatsRow[];
  /** one row per host op type, by self time */
  host_op_types: OpTypeRow[];
  /** one row per device op type, by self time */
  device_op_types: OpTypeRow[];
  /** self time by op and op type, per side */
  pie_charts: PieCharts;
}

export interface KernelSummary {
  /** distinct kernels by name */
  distinct_kernel_names: number;
  /** the kernel table's rows: a kernel run for two ops or with two launch shapes is one kernel, several groups */
  kernel_op_groups: number;
  /** the old name of `kernel_op_groups`, kept with that value for existing readers; it never counted kernels */
  distinct_kernels: number;
  launches: number;
  total_time_ms: number;
  /** median over launches, each launch taking its group's average */
  median_duration_us: number;
  /** launches of groups averaging < 10 µs */
  tiny_launches: number;
  tiny_launch_percent: number;
  /** false when no active GPU can have Tensor Cores (AMD, or NVIDIA below compute capability 7); the Tensor Core figures are then null */
  tensor_cores_apply: boolean;
  /** of kernel time, in kernels that use Tensor Cores */
  tensor_core_time_percent: number | null;
  eligible_without_tensor_core_kernels: number | null;
  eligible_without_tensor_core_time_ms: number | null;
  /** of kernel time */
  eligible_without_tensor_core_percent: number | null;
}

export interface TensorCoreTime {
  using_tensor_cores: number;
  /** kernels of Tensor-Core-eligible ops that do not use them */
  eligible_not_using: number;
  not_eligible: number;
}

export interface KernelOpRow {
  /** empty: kernels with no known framework op */
  op_name: string;
  /** distinct kernel names */
  kernels: number;
  launches: number;
  total_time_ms: number;
  percent: number;
}

export interface KernelRow {
  /** 1 = the most total time */
  rank: number;
  kernel_name: string;
  /** null when the file does not hold it, or holds a value no kernel can have (0 registers, 0 % occupancy, more than 1024 registers per thread or 1 MiB of shared memory); the diagnostics then name the record */
  registers_per_thread: number | null;
  /** static + dynamic; null as registers */
  shmem_bytes: number | null;
  /** `x,y,z` */
  block_dim: string;
  /** `x,y,z` */
  grid_dim: string;
  /** theoretical occupancy: recorded by stepscope's tracer, computed for Kineto traces from the launch and the device's limits; null as registers */
  occupancy_pct: number | null;
  /** the kernel's op can use Tensor Cores (convolutions, matrix products) */
  is_op_tensor_core_eligible?: boolean;
  /** the kernel's name says it uses Tensor Cores (`h884`, `s1688`, ...) */
  is_kernel_using_tensor_core?: boolean;
  /** framework op; empty when none is known (e.g. a kernel launched before the capture) */
  op_name: string;
  /** launches */
  occurrences: number;
  total_duration_us: number;
  avg_duration_us: number;
  min_duration_us: number;
  max_duration_us: number;
}

export interface KernelNameRow {
  kernel_name: string;
  /** distinct registers / shared memory / grid / block */
  configurations: number;
  /** distinct framework ops, none counting as one */
  ops: number;
  /** launches */
  occurrences: number;
  total_duration_us: number;
  avg_duration_us: number;
  percent: number;
}

export interface KernelStatsResult {
  tool: 'kernel_stats';
  /** over all kernels */
  summary: KernelSummary;
  /** TensorBoard's Tensor Core pie, over all kernels, summing to `summary.total_time_ms`; null when Tensor Cores do not apply */
  tensor_core_time_ms: TensorCoreTime | null;
  /** kernel time by framework op over all kernels (not only the listed ones), by total time */
  kernel_ops: KernelOpRow[];
  /** more kernel groups exist than `max_kernels`; only the largest by total time are listed */
  truncated: boolean;
  /** one row per kernel, framework op and launch configuration, by total time (at most `max_kernels`) */
  kernels: KernelRow[];
  /** one row per kernel name over every op and launch configuration it ran with, by total time (at most `max_kernels`) */
  kernel_names: KernelNameRow[];
}

export interface FindingRow {
  /** the rule's stable id, e.g. `input_bound` */
  id: string;
  /** `high`, `medium` or `low` */
  severity: string;
  /** short, with the key number */
  title: string;
  /** the numbers that fired the rule, in words */
  evidence: string;
  /** what to change */
  advice: string;
  /** the tool id that shows the evidence */
  tool: string;
  /** the share of step time (or device time) concerned; for ordering */
  impact_percent: number;
}

export interface CheckOutcome {
  /** the rule's id */
  id: string;
  /** the rule found a problem (a finding) */
  fired: boolean;
  /** the measured value against the threshold, or why the rule did not apply */
  detail: string;
}

export interface AdvisorReport {
  tool: 'advisor';
  /** by severity (`high`, `medium`, `low`), then impact */
  findings: Finding[];
  /** every rule, fired or not, in evaluation order */
  checks: CheckOutcome[];
}

export interface PodSummary {
  /** slowest minus fastest worker, over steps run by at least 2 workers; 0 with one worker */
  avg_spread_ms: number;
  /** the largest of those */
  max_spread_ms: number;
  /** its step; null when none */
  max_spread_step: number | null;
  /** the worker slowest in at least 50 % of those steps; else null */
  straggler_host: string | null;
  /** its share of those steps */
  straggler_slowest_percent: number;
  /** `step_time`, or `busy_time` where steps are windows of time (`step_time_source` `step_starts` / `device_completions`): workers that step together share one iteration time, so they are compared by their busy time, the step time less `other`, and the one with the least slack is the slowest; spread, lag and straggler use it */
  compared_by: string;
  /** one sentence with the numbers */
  statement: string;
}

export interface PodWorkerSummary {
  host: string;
  /** the worker's index in `hosts` */
  host_index: number;
  /** steps it ran */
  steps: number;
  avg_step_time_ms: number;
  /** mean of its lag behind the step's fastest worker */
  avg_lag_ms: number;
  /** steps in which it was the slowest, multi-worker steps only */
  slowest_steps: number;
  /** wait for input + host-to-device, of its step time over all its steps */
  input_percent: number;
  /** its average time per step in the category */
  avg_compilation_ms: number;
  /** its average time per step in the category */
  avg_input_ms: number;
  /** its average time per step in the category */
  avg_output_ms: number;
  /** its average time per step in the category */
  avg_kernel_launch_ms: number;
  /** its average time per step in the category */
  avg_host_compute_ms: number;
  /** its average time per step in the category */
  avg_device_to_device_ms: number;
  /** its average time per step in the category */
  avg_device_collectives_ms: number;
  /** its average time per step in the category */
  avg_device_compute_ms: number;
  /** its average time per step in the category */
  avg_other_ms: number;
}

export interface PodStep {
  step_number: number;
  step_name: string;
  /** workers that recorded the step */
  worker_count: number;
  /** the slowest worker's compared time (`summary.compared_by`) */
  max_step_time_ms: number;
  /** the fastest worker's */
  min_step_time_ms: number;
  /** slowest - fastest */
  spread_ms: number;
  slowest_host: string;
}

export interface PodWorkerStep {
  step_number: number;
  host: string;
  /** the worker's index in `hosts` */
  host_index: number;
  step_time_ms: number;
  /** its compared time minus the step's fastest worker's */
  lag_ms: number;
  /** wait for input + host-to-device, of the step time */
  input_percent: number;
  /** its time in the category in the step; the categories add up to `step_time_ms` */
  compilation_ms: number;
  /** its time in the category in the step; the categories add up to `step_time_ms` */
  input_ms: number;
  /** its time in the category in the step; the categories add up to `step_time_ms` */
  output_ms: number;
  /** its time in the category in the step; the categories add up to `step_time_ms` */
  kernel_launch_ms: number;
  /** its time in the category in the step; the categories add up to `step_time_ms` */
  host_compute_ms: number;
  /** its time in the category in the step; the categories add up to `step_time_ms` */
  device_to_device_ms: number;
  /** its time in the category in the step; the categories add up to `step_time_ms` */
  device_collectives_ms: number;
  /** its time in the category in the step; the categories add up to `step_time_ms` */
  device_compute_ms: number;
  /** its time in the category in the step; the categories add up to `step_time_ms` */
  other_ms: number;
}

export interface PodViewerResult {
  tool: 'pod_viewer';
  host_count: number;
  /** the workers, in host order (`host_index` indexes it) */
  hosts: string[];
  /** steps seen on at least one worker */
  step_count: number;
  /** steps every worker recorded (capture windows may differ) */
  steps_on_all_hosts: number;
  /** the stack order of the bars: the category keys of `step_time_breakdown_ms`, as in the tables' per-category columns */
  categories: string[];
  /** how far apart the workers are, and the straggler */
  summary: PodSummary;
  /** per worker, by host index */
  workers: PodWorkerSummary[];
  /** per step, by step number */
  steps: PodStep[];
  /** one bar per (step, worker), by step then host */
  step_workers: PodWorkerStep[];
  /** the model's, plus: steps not recorded on every worker, workers without steps */
  diagnostics: string[];
}

export interface TraceViewerSummary {
  tool: 'trace_viewer';
  /** the hosts on the timeline */
  hosts: string[];
  /** events in the profile (all planes) */
  events: number;
  /** devices with activity */
  device_planes: number;
  /** device streams with activity */
  streams: number;
  /** host thread tracks (single-host models) */
  host_threads: number;
  steps: number;
  /** where the timeline itself is (docs/trace_viewer.md) */
  tracks_endpoint: '/api/trace/tracks';
  /** `stepscope convert --to` and the UI's export */
  export_formats: string[];
}

export interface MemoryAggregationStats {
  /** bytes reserved on the stack */
  stackReservedBytes: number;
  /** bytes allocated on the heap (in use by live allocations) */
  heapAllocatedBytes: number;
  /** bytes free in the allocator */
  freeMemoryBytes: number;
  /** (free bytes - largest free chunk) / free bytes, a fraction from 0 to 1 */
  fragmentation: number;
  /** in `peakStats`: stack + heap bytes at the peak; in a snapshot: the allocator's own peak so far (its `peak_bytes_in_use` stat) */
  peakBytesInUse: number;
}

export interface MemoryProfileSummary {
  /** the allocator's own peak since it started (the last event's) */
  peakBytesUsageLifetime: number;
  /** the state at the in-window peak: the event with the most stack + heap bytes (the latest of equal ones) */
  peakStats: MemoryAggregationStats;
  /** when the peak was, on the profile's timeline */
  peakStatsTimePs: number;
  /** stack + heap + free at the peak */
  memoryCapacity: number;
  numAllocations: number;
  numDeallocations: number;
  /** the step of the peak's event */
  peakStepId: number;
}

export interface ActiveAllocation {
  /** index into `memoryProfileSnapshots`; -1 - specialIndex for special rows */
  snapshotIndex: number;
  /** index into `specialAllocations`; -1 for allocations */
  specialIndex: number;
  /** identical allocations merged into the row */
  numOccurrences: number;
}

export interface MemoryActivityMetadata {
  /** `ALLOCATION` or `DEALLOCATION` */
  memoryActivity: string;
  /** what the caller asked for */
  requestedBytes: number;
  /** what the allocator handed out (rounded up) */
  allocationBytes: number;
  /** the allocation's address */
  address: number;
  /** the framework op that allocated (a deallocation: the op of the allocation it frees); with no op, a name from the XLA buffer assignment when the profile holds a buffer allocation of exactly its requested size (`XLA temporaries of jit_step(7), allocation 12`), else empty */
  tfOpName: string;
  /** the event's step (group id); events without one take the last step + 1 */
  stepId: number;
  /** empty when unknown */
  regionType: string;
  /** TF's DataType name; empty when unknown (data type 0) */
  dataType: string;
  tensorShape: string;
}

export interface MemoryProfileSnapshot {
  /** the event's time on the profile's timeline */
  timeOffsetPs: number;
  /** the allocator's state after the event */
  aggregationStats: MemoryAggregationStats;
  activityMetadata: MemoryActivityMetadata;
}

export interface MemoryDiagnostics {
  /** allocations with no deallocation at their address */
  neverFreed: number;
  neverFreedBytes: number;
  /** deallocations with no allocation at their address */
  freesWithoutAllocation: number;
  /** a second allocation at a live address */
  addressReusedWithoutFree: number;
  /** events without a step id (group_id), filled as XProf does */
  missingStepIds: number;
}

export interface PerAllocatorMemoryProfile {
  profileSummary: MemoryProfileSummary;
  /** the breakdown at the peak, largest first: the allocations of the peak's step made up to the peak and not freed before it, identical ones merged; special rows: heap bytes no such allocation explains ("unused preallocated device memory") and the stack */
  activeAllocations: ActiveAllocation[];
  specialAllocations: MemoryActivityMetadata[];
  /** the allocation events the breakdown rows point at, in breakdown order (as XProf's after its last pass) */
  memoryProfileSnapshots: MemoryProfileSnapshot[];
  /** the events in time order, down-sampled to at most 1000 by a max box filter on stack + heap (the peak survives) */
  sampledTimelineSnapshots: MemoryProfileSnapshot[];
  /** the events had sizes but no addresses or totals (PyTorch before 1.10 wrote `[memory]` events so): bytes in use are the running sum of their sizes from the start of the profile, as PyTorch's TensorBoard plugin drew them, and there is no breakdown */
  heapFromSizes: boolean;
  /** events that do not pair up, over the whole profile of the memory id */
  diagnostics: MemoryDiagnostics;
}

export interface MemoryTimeRange {
  /** null: open */
  start: number | null;
  /** null: open */
  end: number | null;
}

export interface MemoryProfileResult {
  /** every memory id, sorted (with several hosts: `<host>:<id>`) */
  memoryIds: string[];
  /** per memory id, in `memoryIds` order */
  memoryProfilePerAllocator: Record<string, PerAllocatorMemoryProfile>;
  numHosts: number;
  /** as XProf's (1) */
  version: number;
  /** only this step's events were used; null: all */
  stepFilter: number | null;
  /** memory events read */
  totalEvents: number;
  /** only the events in this range set the peak, the summary and the timeline */
  timeRangePs?: MemoryTimeRange;
}

export interface MemoryAllocatorRow {
  /** the allocator or device (`GPU_0_bfc`, `cuda:0`, ...): a key of `memoryProfilePerAllocator` */
  memoryId: string;
  numAllocations: number;
  numDeallocations: number;
  /** stack + heap bytes at the peak */
  peakBytesInUse: number;
  /** bytes allocated on the heap (in use by live allocations) */
  heapAllocatedBytes: number;
  /** bytes reserved on the stack */
  stackReservedBytes: number;
  /** bytes free in the allocator */
  freeMemoryBytes: number;
  /** (free bytes - largest free chunk) / free bytes, a fraction from 0 to 1 */
  fragmentation: number;
  /** on the profile's timeline */
  peakStatsTimePs: number;
  /** the step of the peak's event */
  peakStepId: number;
  /** the allocator's own peak since it started */
  peakBytesUsageLifetime: number;
  /** stack + heap + free at the peak */
  memoryCapacity: number;
  /** allocations with no deallocation at their address */
  neverFreed: number;
  /** deallocations with no allocation at their address */
  freesWithoutAllocation: number;
}

export interface MemoryBreakdownRow {
  /** the allocator or device (`GPU_0_bfc`, `cuda:0`, ...): a key of `memoryProfilePerAllocator` */
  memoryId: string;
  /** 1 = the largest, within the memory id */
  rank: number;
  /** the framework op that allocated (a deallocation: the op of the allocation it frees); with no op, a name from the XLA buffer assignment when the profile holds a buffer allocation of exactly its requested size (`XLA temporaries of jit_step(7), allocation 12`), else empty */
  tfOpName: string;
  /** what the allocator handed out (rounded up) */
  allocationBytes: number;
  /** what the caller asked for */
  requestedBytes: number;
  /** identical allocations merged into the row */
  numOccurrences: number;
  /** allocationBytes x numOccurrences */
  totalBytes: number;
  /** empty when unknown */
  regionType: string;
  /** TF's DataType name; empty when unknown (data type 0) */
  dataType: string;
  tensorShape: string;
  /** the event's step (group id); events without one take the last step + 1 */
  stepId: number;
  /** a special row: heap bytes no live allocation explains ("unused preallocated device memory") or the stack */
  special: boolean;
}

export interface MemoryTimelineRow {
  /** the allocator or device (`GPU_0_bfc`, `cuda:0`, ...): a key of `memoryProfilePerAllocator` */
  memoryId: string;
  /** the event's time on the profile's timeline */
  timeOffsetPs: number;
  /** bytes allocated on the heap (in use by live allocations) */
  heapAllocatedBytes: number;
  /** bytes reserved on the stack */
  stackReservedBytes: number;
  /** bytes free in the allocator */
  freeMemoryBytes: number;
  /** (free bytes - largest free chunk) / free bytes, a fraction from 0 to 1 */
  fragmentation: number;
  /** `ALLOCATION` or `DEALLOCATION` */
  memoryActivity: string;
  /** the framework op that allocated (a deallocation: the op of the allocation it frees); with no op, a name from the XLA buffer assignment when the profile holds a buffer allocation of exactly its requested size (`XLA temporaries of jit_step(7), allocation 12`), else empty */
  tfOpName: string;
  /** what the allocator handed out (rounded up) */
  allocationBytes: number;
  /** the event's step (group id); events without one take the last step + 1 */
  stepId: number;
}

export interface MemoryProfile extends MemoryProfileResult {
  tool: 'memory_profile';
  /** every memory id's `activeAllocations` resolved to the snapshot or special row each points at */
  breakdown: MemoryBreakdownRow[];
  /** in words: frees without an allocation, addresses allocated twice without a free, allocations not freed by the end, no events in the asked step or time range */
  diagnostics: string[];
}

export interface MultiGpuSummary {
  /** `steps`, or `profile` when no step has work on two devices (no step markers): the devices are then compared on whole-profile totals (straggler: most kernel time without collectives; imbalance: the spread of that time; launch skew: the spread of first activity; `avg_step_collective_ms` 0) */
  basis: string;
  /** devices with activity */
  device_count: number;
  /** steps with activity on at least two devices */
  steps: number;
  /** the device with the most compute in the most steps (`host:plane` when several hosts); a device is a step's straggler only when its compute exceeds the fastest's by at least 5 % of the step time, so empty when balanced */
  straggler: string;
  straggler_steps: number;
  /** steps whose devices' work windows (each on its host's clock from its step start) do not overlap: no launch skew and no straggler for them */
  non_concurrent_steps: number;
  /** slowest minus fastest device's compute, per step */
  avg_imbalance_ms: number;
  /** latest minus earliest first kernel of a step, each from its own host's step start, over the concurrent steps; null when none */
  avg_launch_skew_ms: number | null;
  /** per device and step */
  avg_step_collective_ms: number;
  /** collectives' share of all device active time */
  collective_percent: number;
  /** collective kernels/ops */
  collectives: number;
  /** with a known size */
  sized_collectives: number;
  /** all devices' sized collectives: total size / total time */
  algbw_gbps: number;
  /** total bus bytes / total time */
  busbw_gbps: number;
  /** the slowest known link of the devices; 0 unknown */
  link_gbps: number;
  /** that link; empty when unknown */
  link: string;
  /** bus bandwidth / link; 0 when either is unknown */
  link_percent: number;
  /** per device and step (whole profile with basis `profile`) */
  all_reduce_mb_per_step: number;
  /** the same */
  all_reduce_ms_per_step: number;
  /** `--parameters N`, else the measured all-reduce bytes per step / 4; 0 when neither is known */
  parameter_count: number;
  /** `parameters` (given), `all_reduce_bytes` (fp32 gradients) or empty */
  estimate_basis: string;
  /** the guide's parameters x 4 B / link bandwidth; 0 when the link is unknown */
  estimated_all_reduce_ms: number;
  /** a single-host model with host threads */
  launch_threads_measured: boolean;
  /** host threads with launches */
  launch_threads: number;
  /** `tf_data*` threads */
  input_threads: number;
  /** `tf_gpu_private*` threads */
  gpu_private_threads: number;
  /** launch threads busy while tf.data threads are */
  launch_input_overlap_ms: number;
  /** of the launch threads' busy time */
  launch_input_overlap_percent: number;
}

export interface MultiGpuDeviceRow {
  host: string;
  /** the device's plane, `/device:GPU:3` */
  device: string;
  /** steps with activity on it */
  steps: number;
  /** per step: kernels + copies, overlapping streams add up */
  avg_active_ms: number;
  /** active minus collectives */
  avg_compute_ms: number;
  /** per step */
  avg_collective_ms: number;
  /** of its active time */
  collective_percent: number;
  /** collective kernels/ops, all steps */
  collectives: number;
  /** union of all its activity in the profile */
  busy_ms: number;
  /** steps in which it had the most compute */
  straggler_steps: number;
  /** per step: the straggler's compute minus its own, about how long it waits in the collective */
  avg_wait_ms: number;
  /** per concurrent step: its first kernel minus the earliest device's; null when it ran in no concurrent step */
  avg_launch_skew_ms: number | null;
  /** over the whole profile */
  kernel_ms: number;
  /** over the whole profile */
  total_collective_ms: number;
  /** its first activity after the earliest device's on the same host */
  first_kernel_offset_ms: number;
}

export interface MultiGpuStepRow {
  step_number: number;
  devices: number;
  /** the devices' work windows overlap; when not, the step has no launch skew and no straggler */
  concurrent: boolean;
  /** the device with the most compute; empty when balanced */
  straggler: string;
  max_compute_ms: number;
  min_compute_ms: number;
  /** max - min compute */
  imbalance_ms: number;
  /** per device */
  avg_collective_ms: number;
  /** latest minus earliest first kernel; null when not concurrent */
  launch_skew_ms: number | null;
}

export interface MultiGpuCollectiveRow {
  host: string;
  /** the device's plane, `/device:GPU:3` */
  device: string;
  /** `all_reduce`, `all_gather`, `reduce_scatter`, `all_to_all`, `broadcast`, `reduce`, `send_recv` or `other` */
  collective: string;
  count: number;
  /** with a known size */
  sized: number;
  /** 0: unknown */
  ranks: number;
  /** `group_size`: the event's "Group size"; `world_size`: the profile's distributedInfo; `devices`: GPUs of the host */
  ranks_source: string;
  /** all of them */
  time_ms: number;
  /** nccl-tests' size of the sized ones (all-reduce buffer, all-gather output, reduce-scatter input, all-to-all send buffer), 1e6 B */
  size_mb: number;
  size_per_step_mb: number;
  /** size / time of the sized ones */
  algbw_gbps: number;
  /** algorithm bandwidth x NCCL's bus factor: 2(n-1)/n all-reduce, (n-1)/n all-gather / reduce-scatter / all-to-all, 1 otherwise */
  busbw_gbps: number;
  /** 0: unknown */
  link_gbps: number;
  /** `NVLink 4 (18 links)`, `option` (given), empty when unknown */
  link: string;
  /** bus bandwidth / link */
  link_percent: number;
}

export interface MultiGpuResult {
  tool: 'multi_gpu';
  /** over all devices */
  summary: MultiGpuSummary;
  /** per device: averages over the steps it ran in, and figures over the whole profile */
  devices: MultiGpuDeviceRow[];
  /** per step compared */
  steps: MultiGpuStepRow[];
  /** per device and collective kind */
  collectives: MultiGpuCollectiveRow[];
  /** fewer than two devices, no steps shared, no collectives; collectives without a size; link bandwidth unknown */
  diagnostics: string[];
}

export interface OpProfileNode {
  /** `root`, `program`, `category`, `op`, `fused_op` or `idle` */
  level: string;
  /** the program, category or HLO op; `all programs` for the root, `IDLE` for idle */
  name: string;
  /** the program the node is in */
  program?: string;
  /** as in hlo_stats */
  category?: string;
  opcode?: string;
  /** the HLO expression */
  expression?: string;
  /** `compute`, `memory`, `latency` or `unknown` */
  bound_by?: string;
  /** executions; summed over the children above ops */
  occurrences: number;
  /** device time; 0 for fused ops (their time is the fusion's) */
  time_us: number;
  /** of the root: HLO op time, plus idle with `include_idle` */
  time_percent: number;
  /** over all occurrences */
  gflops: number;
  /** bytes accessed, over all occurrences */
  gb: number;
  /** achieved FLOP rate of the compute roof; 0 when the peaks are unknown */
  flops_utilization_percent: number;
  /** the same for bytes and the bandwidth roof */
  bandwidth_utilization_percent: number;
  /** time x (1 - the better utilisation); all of idle time */
  wasted_time_us: number;
  /** of their fusion's FLOPs */
  flops_share_percent?: number;
  /** by wasted time, then time, then name; fused ops: at most 50, most FLOPs first */
  children: OpProfileNode[];
}

export interface OpProfileRow {
  level: string;
  /** 0 for programs, 1 categories, ... */
  depth: number;
  program: string;
  category: string;
  name: string;
  opcode: string;
  occurrences: number;
  /** empty for fused ops */
  time_us: number | null;
  time_percent: number | null;
  gflops: number;
  flops_utilization_percent: number | null;
  bandwidth_utilization_percent: number | null;
  wasted_time_us: number | null;
  bound_by: string;
}

export interface OpProfileResult {
  tool: 'op_profile';
  /** as hlo_stats' `summary` */
  summary: HloOpSummary;
  /** whether the device's idle time is a node and part of every percentage */
  include_idle: boolean;
  /** the device's idle time (`device_ops.idle_time_ps`) */
  idle_time_us: number;
  /** the tree: program > category > op > fused op (and idle) */
  root: OpProfileNode;
  /** as hlo_stats' */
  diagnostics: string[];
}

export interface HloStatsRow {
  /** 1 = the most device time */
  rank: number;
  /** the module as `name(program id)` */
  program: string;
  op_name: string;
  /** empty when not resolved */
  opcode: string;
  /** convolution, matmul, loop fusion, ... */
  category: string;
  occurrences: number;
  kernels: number;
  /** device (kernel) time */
  total_time_us: number;
  avg_time_us: number;
  /** equals the total time */
  total_self_time_us: number;
  /** of all HLO op time */
  time_percent: number;
  /** this row and those above it */
  cumulative_time_percent: number;
  gflops: number | null;
  gflop_rate: number | null;
  memory_bw_gbps: number | null;
  /** FLOP per byte accessed */
  arithmetic_intensity: number | null;
  flops_utilization_percent: number | null;
  bandwidth_utilization_percent: number | null;
  /** `compute`, `memory`, `latency` or `unknown` */
  bound_by: string;
  framework_op: string;
  /** `file.py:line`; empty when unknown */
  source: string;
  expression: string;
}

export interface HloStatsResult {
  tool: 'hlo_stats';
  /** over every HLO op */
  summary: HloOpSummary;
  /** one row per HLO op, by total device time */
  hlo_ops: HloStatsRow[];
  /** why numbers are missing or partial */
  diagnostics: string[];
}

export interface RooflinePoint {
  /** `total`, `program` or `op` */
  level: string;
  program: string;
  /** the op; the program's name for programs; `all programs` */
  name: string;
  /** ops only, as in hlo_stats */
  category: string;
  occurrences: number;
  time_us: number;
  /** of all HLO op time */
  time_percent: number;
  /** over all occurrences */
  gflops: number | null;
  arithmetic_intensity: number | null;
  gflop_rate: number | null;
  bandwidth_gbps: number | null;
  /** the roof at this intensity: min(peak compute, intensity x bandwidth) */
  attainable_gflop_rate: number | null;
  /** achieved / attainable */
  roof_percent: number | null;
  /** ops and programs: `compute`, `memory`, `latency`, `unknown` */
  bound_by: string;
}

export interface RooflineResult {
  tool: 'roofline_model';
  /** the step the model is of; null: the whole profile */
  step: number | null;
  /** as hlo_stats' `summary` */
  summary: HloOpSummary;
  /** the total, then programs and ops by time */
  roofline: RooflinePoint[];
  /** why numbers are missing or partial */
  diagnostics: string[];
}

export interface HloModuleChoice {
  /** `name(program id)`, as the `module` option takes it */
  name: string;
  /** the module's name */
  module: string;
  program_id: number;
  instructions: number;
  has_buffer_assignment: boolean;
}

export interface MemoryViewerBuffer {
  /** 1 = the largest */
  rank: number;
  /** the defining instruction (`{i}` appended for a tuple's part); for a whole-program allocation holding several buffers `allocation N (k buffers)` */
  instruction: string;
  opcode: string;
  shape: string;
  /** padded */
  size_bytes: number;
  /** the same buffers at their shapes' sizes without layout padding */
  unpadded_bytes: number;
  peak_percent: number;
  /** parameter, output, thread-local, constant or temporary */
  allocation_type: string;
  /** the buffer allocation's index; null when none */
  allocation_index: number | null;
  /** null for a whole allocation (one holding several buffers live for the whole program) */
  logical_buffer_id: number | null;
  /** the heap-trace position it is live from; null: the whole program */
  live_from: number | null;
  /** as live_from */
  live_to: number | null;
  /** metadata op_name */
  op_name: string;
}

export interface MemoryViewerPoint {
  /** event index in the heap trace (program order) */
  position: number;
  /** the instruction the event belongs to */
  instruction: string;
  /** the instruction's index in the module's schedule; null without one */
  schedule_index: number | null;
  /** padded bytes allocated at this point of the compiler's heap simulation: the logical buffers' sizes, buffers live for the whole program (parameters, outputs, constants) included; not the allocator's heap (memory_profile) */
  heap_bytes: number;
  /** the same buffers at their shapes' sizes without layout padding */
  unpadded_bytes: number;
}

export interface MemoryViewerAllocation {
  index: number;
  type: string;
  size_bytes: number;
  logical_buffers: number;
  color: number;
}

export interface MemoryViewerResult {
  tool: 'memory_viewer';
  /** the module shown (`jit_train_step(5)`) */
  module: string;
  /** every module, for the selector */
  modules: HloModuleChoice[];
  /** whether there is anything to show (`message` says why not) */
  has_buffer_assignment: boolean;
  /** why nothing is shown, when nothing is */
  message: string;
  /** the memory space shown */
  memory_color: number;
  /** the heap simulation trace shown; -1: none (then only whole-program buffers count) */
  heap_trace_index: number;
  /** its length */
  heap_trace_events: number;
  /** the module has an `HloScheduleProto` */
  has_schedule: boolean;
  /** the highest point of the curve (padded) */
  peak_bytes: number;
  /** the unpadded size at that point */
  peak_unpadded_bytes: number;
  /** heap-trace event index of the peak; -1 without a trace */
  peak_position: number;
  /** the instruction of the peak's event */
  peak_instruction: string;
  /** bytes added to every point (parameters, outputs, constants not in the trace) */
  whole_program_bytes: number;
  /** allocations of this type (parameter > output > thread-local > constant > temporary, the first that applies) */
  parameter_bytes: number;
  /** allocations of this type (parameter > output > thread-local > constant > temporary, the first that applies) */
  output_bytes: number;
  /** allocations of this type (parameter > output > thread-local > constant > temporary, the first that applies) */
  constant_bytes: number;
  /** allocations of this type (parameter > output > thread-local > constant > temporary, the first that applies) */
  temporary_bytes: number;
  /** allocations of this type (parameter > output > thread-local > constant > temporary, the first that applies) */
  thread_local_bytes: number;
  /** every allocation */
  total_allocation_bytes: number;
  /** the timeline has more than 2000 points: each point shown is the largest of its span, so the peak is kept */
  timeline_downsampled: boolean;
  /** largest first */
  peak_buffers: MemoryViewerBuffer[];
  timeline: MemoryViewerPoint[];
  allocations: MemoryViewerAllocation[];
  /** what was skipped in the buffer assignment and why */
  diagnostics: string[];
}

export interface GraphNode {
  name: string;
  opcode: string;
  shape: string;
  /** distance from the centre */
  hops: number;
  center: boolean;
  /** device time of the kernels joined to the op over the profile; null for ops no kernel names (fused ops, parameters, ...) */
  time_ms: number | null;
  /** its executions; null as time_ms */
  occurrences: number | null;
  /** has neighbours not shown: past the hops or the node cap */
  more: boolean;
  /** the computation holding it */
  computation: string;
  /** the fusion whose body holds it; empty outside fusions */
  fusion: string;
  /** of a fusion (`kLoop`, ...) */
  fusion_kind: string;
  /** non-fusion computations it calls */
  calls: string;
  /** metadata op_name */
  op_name: string;
}

export interface GraphEdge {
  /** the producer: an operand, or a fused computation's root */
  from: string;
  /** its user, or the fusion */
  to: string;
  /** `operand` or `fusion` */
  kind: string;
}

export interface GraphViewerResult {
  tool: 'graph_viewer';
  /** the module shown (`jit_train_step(5)`) */
  module: string;
  /** every module, for the selector */
  modules: HloModuleChoice[];
  /** the op asked for */
  op: string;
  /** as asked for */
  hops: number;
  /** as asked for */
  max_nodes: number;
  /** the op shown at the centre; empty when `op` names none (`message` says why) */
  center: string;
  /** why nothing is shown, when nothing is */
  message: string;
  /** ops in the module */
  module_instructions: number;
  /** the node cap cut the neighbourhood */
  truncated: boolean;
  /** the module's kernels were joined to its ops, so ops carry device time */
  timed: boolean;
  /** ops whose name contains `op` when it names none exactly */
  candidate_count: number;
  /** the first 50 of them */
  candidates: string[];
  /** by hops, then name */
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** the cap, when it cut */
  diagnostics: string[];
}

export interface TfDataBottleneckStage {
  /** `Host:N` (`Device:N` for a MultiDeviceIterator's per-device prefetch) */
  pipeline: string;
  /** the stage's long name */
  stage: string;
  dataset: string;
  /** the kind of fix it calls for: `file_source`, `memory_source`, `sequential_map`, `parallel_map`, `sequential_transform`, `prefetch`, `cache`, `other` */
  kind: string;
  /** of the slowest calls' blocking self time */
  share_percent: number;
  self_ms: number;
  calls: number;
  /** with the numbers that back it */
  suggestion: string;
}

export interface TfDataPipelineRow {
  /** `Host:N` (`Device:N` for a MultiDeviceIterator's per-device prefetch) */
  pipeline: string;
  root: string;
  calls: number;
  avg_latency_us: number;
  min_latency_us: number;
  max_latency_us: number;
  /** calls slower than 50 µs */
  slow_calls: number;
  /** iterator time: root-call time over step time; null without steps */
  step_time_percent: number | null;
  /** the root calls take ≥ 5 % of the step time (without steps: a call over 50 µs) */
  iterator_bound: boolean;
  /** a stage's long name; null when there is none */
  bottleneck: string | null;
  /** the bottleneck's share of the slowest calls' blocking self time */
  bottleneck_percent: number | null;
  /** XProf's pick: the slowest call's blocking stage with the most self time; null when there is none */
  slowest_call_bottleneck: string | null;
  /** with the numbers that back it; empty without a bottleneck */
  suggestion: string;
}

export interface TfDataStageRow {
  /** null when no root call reached the stage */
  pipeline: string | null;
  /** the iterator's long name */
  stage: string;
  /** the last part of the long name */
  dataset: string;
  /** the kind of fix it calls for: `file_source`, `memory_source`, `sequential_map`, `parallel_map`, `sequential_transform`, `prefetch`, `cache`, `other` */
  kind: string;
  /** a decimal string: tf.data's ids are addresses, beyond a double's 53 bits */
  id: string;
  /** the iterator consuming its output, as `id`; null when it names no recorded stage or is on a cycle */
  parent_id: string | null;
  /** ParallelMap's `parallelism` / Prefetch's `buffer_limit`; null when not recorded */
  setting: number | null;
  calls: number;
  avg_latency_us: number;
  self_ms: number;
  /** self time of the calls that blocked a fetch */
  blocking_self_ms: number;
  blocking_calls: number;
  /** blocking self time within the slowest calls only */
  slow_blocking_self_ms: number;
  /** its pipeline's bottleneck */
  bottleneck: boolean;
}

export interface TfDataCriticalPathRow {
  /** `Host:N` (`Device:N` for a MultiDeviceIterator's per-device prefetch) */
  pipeline: string;
  /** 0: the root call */
  depth: number;
  /** the iterator's long name */
  stage: string;
  thread: string;
  duration_us: number;
  /** how much of the parent call it overlapped */
  wait_us: number;
  self_us: number;
}

export interface PipelineEventCounts {
  iterator_events: number;
  produce_events: number;
  consume_events: number;
  /** producer iterator calls linked to a consumer */
  linked_producers: number;
  iterators_without_id: number;
  /** no element_id, or no iterator call inside */
  produce_without_element: number;
  /** produced elements no consume in the profile took */
  produce_unconsumed: number;
  /** consumed elements whose production was not recorded */
  consume_without_producer: number;
  /** a consume with no enclosing iterator call */
  consume_outside_iterator: number;
  /** a second consume of an already linked element */
  duplicate_consumes: number;
  /** links into calls already walked (cycles, shared producers) */
  revisited_calls: number;
  /** stages whose parent_id chain loops */
  parent_cycles: number;
  /** stages whose parent_id names no recorded stage */
  missing_parents: number;
  /** one iterator id under two names */
  conflicting_names: number;
  /** iterator calls no root call reaches */
  unreached_calls: number;
}

export interface TfDataBottleneckReport {
  tool: 'tf_data_bottleneck_analysis';
  /** the most costly pipeline's verdict: its root calls take ≥ 5 % of the step time (without steps: a call over 50 µs). Iterator time, not the steps' input wait: calls can run while the step does other work */
  iterator_bound: boolean;
  /** the steps' input wait over their time (`input_pipeline_analyzer`'s `input_bound_percent`), stated beside the iterator time; null without steps */
  step_input_wait_percent: number | null;
  /** the most costly pipeline's bottleneck stage when it is input bound; else null */
  bottleneck: TfDataBottleneckStage | null;
  /** one sentence with the numbers */
  statement: string;
  /** one row per pipeline, most costly first */
  pipelines: TfDataPipelineRow[];
  /** one row per stage (iterator id) */
  stages: TfDataStageRow[];
  /** per pipeline, the slowest call from the root down, each level the child it overlapped longest */
  critical_path: TfDataCriticalPathRow[];
  /** events read and problems counted */
  counts: PipelineEventCounts;
  /** the non-zero counts in words */
  diagnostics: string[];
}

export interface DiffSide {
  /** `run R (host H)` or the file path: what the user pointed at */
  label: string;
  /** the hosts of the profile */
  hosts: string[];
  /** the framework the profile comes from (FrameworkKey) */
  framework: string;
  /** steps of the profile */
  steps: number;
  /** `GPU`, `TPU`, ...; empty for a host-only profile */
  device_type: string;
  /** the device planes by model, as the overview's `device_models` */
  devices: DeviceModelCount[];
}

export interface DiffMetric {
  /** `step_time_mean_ms`, ... */
  metric: string;
  label: string;
  /** `ms`, `ms/step`, `%` or `count` */
  unit: string;
  /** A's value; null where it does not apply (no steps, no device) */
  a: number | null;
  /** B's value; null where it does not apply */
  b: number | null;
  /** b - a; in points for a `%` metric */
  delta: number | null;
  /** 100 × delta / a; null for a `%` metric and when a is 0 */
  delta_percent: number | null;
}

export interface DiffCategory {
  /** the step-time category */
  category: string;
  label: string;
  /** A's average per step */
  a_ms: number;
  /** B's average per step */
  b_ms: number;
  /** b_ms - a_ms */
  delta_ms: number;
  /** of a_ms; null when a_ms is 0 */
  delta_percent: number | null;
  /** share of A's step time */
  a_percent: number;
  /** share of B's step time */
  b_percent: number;
}

export interface DiffInputVerdict {
  /** `a` or `b` */
  side: string;
  /** the side's label */
  label: string;
  /** input share of step time; null without steps */
  input_bound_percent: number | null;
  /** mean input time per step */
  input_ms: number;
  /** `highly`, `moderately`, `not` or `unknown` */
  verdict: string;
  /** `host`, `both`, `device` or `unknown` */
  classification: string;
  /** as `input_pipeline_analyzer` words it */
  statement: string;
}

export interface DiffOp {
  /** `host` or `device` */
  host_or_device: string;
  name: string;
  /** the op type (A's when both have it) */
  type: string;
  /** `matched` (in both runs), `added` (only in B) or `removed` (only in A) */
  change: string;
  /** A's self time on the time basis */
  a_self_time_ms: number;
  /** B's self time on the time basis */
  b_self_time_ms: number;
  /** b - a, on the time basis */
  delta_ms: number;
  /** of A's time; null when A has none (added) */
  delta_percent: number | null;
  /** occurrences in A over the whole profile */
  a_occurrences: number;
  /** occurrences in B over the whole profile */
  b_occurrences: number;
}

export interface DiffKernel {
  kernel_name: string;
  /** `matched` (in both runs), `added` (only in B) or `removed` (only in A) */
  change: string;
  /** A's total kernel time on the time basis */
  a_total_time_ms: number;
  /** B's total kernel time on the time basis */
  b_total_time_ms: number;
  /** b - a, on the time basis */
  delta_ms: number;
  /** of A's time; null when A has none (added) */
  delta_percent: number | null;
  /** launches in A over the whole profile */
  a_launches: number;
  /** launches in B over the whole profile */
  b_launches: number;
}

export interface ProfileDiff {
  tool: 'diff';
  /** run A, before the change */
  a: DiffSide;
  /** run B, after the change */
  b: DiffSide;
  /** `per_step` or `total`: what the op, kernel and host/device times are */
  time_basis: string;
  /** mean step time before → after with its change, input share and both verdicts */
  statement: string;
  /** `8× A100 → 2× V100` when the runs' devices differ by model, count or type; empty when they are the same */
  device_change: string;
  /** step time, input share and device/host times of both runs; a side without steps (or without a device) has null there */
  summary: DiffMetric[];
  /** each step-time category that applies to either run (both need steps) */
  step_time_breakdown: DiffCategory[];
  /** A's, then B's */
  input_verdicts: DiffInputVerdict[];
  /** every host and device op of either run, matched by side and name, largest |delta_ms| first */
  ops: DiffOp[];
  /** GPU kernels matched by name (a kernel's reports for several ops or launch shapes summed), largest |delta_ms| first */
  kernels: DiffKernel[];
  /** why the comparison may mislead: a side without steps, other frameworks, devices or host counts */
  diagnostics: string[];
}

export interface BudgetOutcome {
  /** `pass`, `fail` or `not_measured` (which fails too) */
  status: string;
  /** the budget key (`step_ms`, ...) */
  key: string;
  /** what the key measures */
  label: string;
  /** `max` (measured <= limit) or `min` (measured >= limit) */
  bound: string;
  /** the budget's bound, in the metric's unit */
  limit: number;
  /** the profile's value; null when it cannot give it */
  measured: number | null;
  /** `ms`, `%` or `count` */
  unit: string;
  /** why not measured; empty otherwise */
  note: string;
}

export interface CheckResult {
  tool: 'check';
  /** every budget was measured and holds */
  all_hold: boolean;
  /** one row per budget, in the order given */
  budgets: BudgetOutcome[];
}

/** Each declared tool's result, by tool id. */
export interface ToolResults {
  overview_page: OverviewPage;
  input_pipeline_analyzer: InputPipelineAnalysis;
  framework_op_stats: FrameworkOpStats;
  kernel_stats: KernelStatsResult;
  advisor: AdvisorReport;
  pod_viewer: PodViewerResult;
  trace_viewer: TraceViewerSummary;
  memory_profile: MemoryProfile;
  multi_gpu: MultiGpuResult;
  op_profile: OpProfileResult;
  hlo_stats: HloStatsResult;
  roofline_model: RooflineResult;
  memory_viewer: MemoryViewerResult;
  graph_viewer: GraphViewerResult;
  tf_data_bottleneck_analysis: TfDataBottleneckReport;
}

/** The result of each command that is not a tool (`stepscope diff`, `check`), by command. */
export interface CommandResults {
  diff: ProfileDiff;
  check: CheckResult;
}

export type OptionKind = 'bool' | 'int' | 'number' | 'text';
export interface ToolOptionDecl {
  name: string;
  kind: OptionKind;
  help: string;
  default: string;
  min?: number;
  max?: number;
}

/** Every tool's options, by tool id (the same list /api/tools returns). */
export const TOOL_OPTIONS: Record<string, ToolOptionDecl[]> = {
  overview_page: [],
  input_pipeline_analyzer: [],
  framework_op_stats: [
    { name: 'include_idle', kind: 'bool', help: 'count idle time as an IDLE op (TensorBoard\'s "include idle time")', default: 'false' },
  ],
  kernel_stats: [
    { name: 'max_kernels', kind: 'int', help: 'the most kernel groups and kernel names listed, largest total time first (`truncated` says when there are more)', default: '1000', min: 1, max: 1e+06 },
  ],
  advisor: [],
  pod_viewer: [],
  trace_viewer: [],
  memory_profile: [
    { name: 'start_ps', kind: 'int', help: 'only memory events at or after this time (ps on the profile\'s timeline) set the peak', default: '', min: -9.2e+18, max: 9.2e+18 },
    { name: 'end_ps', kind: 'int', help: 'only memory events at or before this time (ps) set the peak', default: '', min: -9.2e+18, max: 9.2e+18 },
  ],
  multi_gpu: [
    { name: 'parameters', kind: 'int', help: 'the model\'s parameter count, for the all-reduce estimate parameters x 4 B / link bandwidth (default: the all-reduce bytes / 4)', default: '', min: 1, max: 1e+15 },
    { name: 'link_gbps', kind: 'number', help: 'the GPUs\' link bandwidth in GB/s, one direction (default: a table by GPU model)', default: '', min: 0, max: 1e+06 },
  ],
  op_profile: [
    { name: 'include_idle', kind: 'bool', help: 'count idle time as an IDLE op (TensorBoard\'s "include idle time")', default: 'false' },
  ],
  hlo_stats: [],
  roofline_model: [],
  memory_viewer: [
    { name: 'module', kind: 'text', help: 'the XLA module, as name(program id), name or program id (default: the largest)', default: '' },
  ],
  graph_viewer: [
    { name: 'module', kind: 'text', help: 'the XLA module, as name(program id), name or program id (default: the largest)', default: '' },
    { name: 'op', kind: 'text', help: 'the HLO op to centre on (exact name; otherwise the ops containing it are listed; default: the entry computation\'s root)', default: '' },
    { name: 'hops', kind: 'int', help: 'operand/user hops around the op', default: '2', min: 0, max: 10 },
    { name: 'max_nodes', kind: 'int', help: 'the most ops shown', default: '150', min: 1, max: 2000 },
  ],
  tf_data_bottleneck_analysis: [],
};

export interface ColumnDecl {
  id: string;
  label: string;
  unit: string;
  description: string;
  conditional: boolean;
}

/** Every declared table's columns, by tool (or command) id and table name. */
export const TOOL_COLUMNS: Record<string, Record<string, ColumnDecl[]>> = {
  overview_page: {
    step_time_breakdown: [
      { id: 'category', label: 'Category', unit: '', description: 'the category\'s key', conditional: false },
      { id: 'avg_ms', label: 'Avg (ms)', unit: 'ms', description: 'per step', conditional: false },
      { id: 'percent', label: '% of step', unit: '%', description: '', conditional: false },
    ],
    steps: [
      { id: 'step_number', label: 'Step', unit: '', description: 'the marker\'s step number', conditional: false },
      { id: 'step_name', label: 'Name', unit: '', description: 'e.g. `train 5`', conditional: false },
      { id: 'step_time_ms', label: 'Step', unit: 'ms', description: 'the step\'s duration', conditional: false },
      { id: 'input_bound_ms', label: 'Input', unit: 'ms', description: 'the step\'s wait for input + host-to-device (what `input_bound_percent` counts)', conditional: false },
      { id: 'compilation_ms', label: 'compilation', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'input_ms', label: 'input', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'output_ms', label: 'output', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'kernel_launch_ms', label: 'kernel_launch', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'host_compute_ms', label: 'host_compute', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'device_to_device_ms', label: 'device_to_device', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'device_collectives_ms', label: 'device_collectives', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'device_compute_ms', label: 'device_compute', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'other_ms', label: 'other', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'device_busy_ms', label: 'Device busy (launched)', unit: 'ms', description: 'the busy time (union over streams and devices) of the device work the step launched, wherever it ran', conditional: true },
      { id: 'device_lag_ms', label: 'Device lag', unit: 'ms', description: 'how far the end of the device work the step launched lies after the host step\'s end', conditional: true },
    ],
    top_device_ops: [
      { id: 'rank', label: 'Rank', unit: '', description: '1 = the most self time', conditional: false },
      { id: 'name', label: 'Operation', unit: '', description: 'the framework op the kernels ran for, or the kernel / copy name', conditional: false },
      { id: 'type', label: 'Type', unit: '', description: '', conditional: false },
      { id: 'category', label: 'Category', unit: '', description: '`tensorflow`, `jax`, `pytorch` (the `aten::…` op that launched the kernels), `memcpy_h2d`, `device_kernel`, `other`, ...', conditional: false },
      { id: 'occurrences', label: 'Count', unit: 'count', description: '', conditional: false },
      { id: 'self_time_ms', label: 'Self (ms)', unit: 'ms', description: '', conditional: false },
      { id: 'self_time_percent', label: 'Self %', unit: '%', description: 'of all device op self time', conditional: false },
      { id: 'cumulative_percent', label: 'Cumulative %', unit: '%', description: 'this row\'s and every row above it\'s', conditional: false },
    ],
    hosts: [
      { id: 'hostname', label: 'Host', unit: '', description: '', conditional: false },
      { id: 'logical_cores', label: 'Cores', unit: 'count', description: '0 = not recorded', conditional: false },
      { id: 'process_id', label: 'PID', unit: '', description: '0 = not recorded', conditional: false },
      { id: 'host_memory_bytes', label: 'Memory (B)', unit: 'bytes', description: '0 = not recorded', conditional: false },
      { id: 'dropped_events', label: 'Dropped', unit: 'count', description: 'events lost while recording', conditional: false },
    ],
    device_counters: [
      { id: 'host', label: 'Host', unit: '', description: '', conditional: false },
      { id: 'device', label: 'Device', unit: '', description: 'the device\'s plane', conditional: false },
      { id: 'counter', label: 'Counter', unit: '', description: '`sm_utilization_pct`, `memory_utilization_pct`, `memory_used_bytes`, `power_watts` (as stepscope\'s tracer reads them from NVML)', conditional: false },
      { id: 'samples', label: 'Samples', unit: 'count', description: '', conditional: false },
      { id: 'mean', label: 'Mean', unit: 'value', description: '', conditional: false },
      { id: 'min', label: 'Min', unit: 'value', description: '', conditional: false },
      { id: 'max', label: 'Max', unit: 'value', description: '', conditional: false },
      { id: 'last', label: 'Last', unit: 'value', description: '', conditional: false },
      { id: 'threshold', label: 'Threshold', unit: 'value', description: '80 for the utilisations, 90 % of the device\'s memory for memory used; 0 for counters without one', conditional: false },
      { id: 'at_or_above_percent', label: 'Time >= threshold %', unit: '%', description: 'share of the sampled span (each sample holding until the next) at or above the threshold; -1 for counters without one', conditional: false },
    ],
  },
  input_pipeline_analyzer: {
    steps: [
      { id: 'step_number', label: 'Step', unit: '', description: 'the marker\'s step number', conditional: false },
      { id: 'step_name', label: 'Name', unit: '', description: 'e.g. `train 5`', conditional: false },
      { id: 'step_time_ms', label: 'Step', unit: 'ms', description: 'the step\'s duration', conditional: false },
      { id: 'input_bound_ms', label: 'Input', unit: 'ms', description: 'the step\'s wait for input + host-to-device (what `input_bound_percent` counts)', conditional: false },
      { id: 'compilation_ms', label: 'compilation', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'input_ms', label: 'input', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'output_ms', label: 'output', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'kernel_launch_ms', label: 'kernel_launch', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'host_compute_ms', label: 'host_compute', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'device_to_device_ms', label: 'device_to_device', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'device_collectives_ms', label: 'device_collectives', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'device_compute_ms', label: 'device_compute', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'other_ms', label: 'other', unit: 'ms', description: 'the step\'s time in this category', conditional: true },
      { id: 'device_busy_ms', label: 'Device busy (launched)', unit: 'ms', description: 'the busy time (union over streams and devices) of the device work the step launched, wherever it ran', conditional: true },
      { id: 'device_lag_ms', label: 'Device lag', unit: 'ms', description: 'how far the end of the device work the step launched lies after the host step\'s end', conditional: true },
    ],
    input_share: [
      { id: 'kind', label: 'Kind', unit: '', description: '`wait_for_input` (IteratorGetNext / DataLoader `__next__` / input stages) or `host_to_device` (copies to the device)', conditional: false },
      { id: 'label', label: 'What the step waited for', unit: '', description: 'in the framework\'s words', conditional: false },
      { id: 'avg_ms', label: 'Avg per step (ms)', unit: 'ms', description: '', conditional: false },
      { id: 'percent', label: '% of step time', unit: '%', description: 'the rows add up to `input_bound_percent`', conditional: false },
    ],
    host_breakdown: [
      { id: 'category', label: 'Category', unit: '', description: 'a `host_breakdown_ms` key', conditional: false },
      { id: 'label', label: 'Input work', unit: '', description: 'for people', conditional: false },
      { id: 'time_ms', label: 'Time (ms)', unit: 'ms', description: 'self time of the class\'s host ops over the profile', conditional: false },
    ],
    input_ops: [
      { id: 'name', label: 'Input op', unit: '', description: 'host: the op; device: the op that issued the copy (e.g. `aten::copy_`)', conditional: false },
      { id: 'type', label: 'Type', unit: '', description: 'host: the op\'s type; device: the copy event and its source memory (e.g. `MemcpyHtoD (from pinned memory)`)', conditional: false },
      { id: 'category', label: 'Category', unit: '', description: 'host: a `host_breakdown_ms` key; device: `host_to_device`', conditional: false },
      { id: 'host_or_device', label: 'Where', unit: '', description: '`host` or `device`', conditional: false },
      { id: 'count', label: 'Count', unit: 'count', description: '', conditional: false },
      { id: 'total_time_ms', label: 'Total (ms)', unit: 'ms', description: '', conditional: false },
      { id: 'total_time_percent', label: 'Total % of host op time', unit: '%', description: 'of all host op self time, idle excluded, as the TF Profiler; null for device rows', conditional: false },
      { id: 'self_time_ms', label: 'Self (ms)', unit: 'ms', description: 'device rows: = total', conditional: false },
      { id: 'self_time_percent', label: 'Self % of host op time', unit: '%', description: 'of all host op self time, idle excluded, as the TF Profiler; null for device rows', conditional: false },
      { id: 'step_time_percent', label: 'Self % of step time', unit: '%', description: 'self time over the summed step time: not overlap-resolved and counting time outside steps, so it need not add up to the input share; null without steps', conditional: false },
    ],
  },
  framework_op_stats: {
    host_ops: [
      { id: 'rank', label: 'Rank', unit: '', description: '1 = the most self time', conditional: false },
      { id: 'host_or_device', label: 'Where', unit: '', description: '`host` or `device`', conditional: false },
      { id: 'type', label: 'Type', unit: '', description: 'the op\'s type (`MatMul` for `model/dense/MatMul`); for frameworks without types the name itself', conditional: true },
      { id: 'name', label: 'Operation', unit: '', description: '', conditional: false },
      { id: 'category', label: 'Category', unit: '', description: 'what kind of op: `tensorflow`, `jax`, `pytorch`, `data_loader` (PyTorch\'s DataLoader iterations), `tf_data`, `cuda_runtime`, ...; `idle` for the idle row', conditional: false },
      { id: 'occurrences', label: 'Count', unit: 'count', description: 'how many times it ran', conditional: false },
      { id: 'total_time_ms', label: 'Total (ms)', unit: 'ms', description: 'including children', conditional: false },
      { id: 'avg_time_ms', label: 'Avg (ms)', unit: 'ms', description: 'total / count; null for the idle row', conditional: false },
      { id: 'total_self_time_ms', label: 'Self (ms)', unit: 'ms', description: 'total minus the time of its immediate children (device ops: = total)', conditional: false },
      { id: 'avg_self_time_ms', label: 'Avg self (ms)', unit: 'ms', description: '', conditional: false },
      { id: 'self_time_percent', label: 'Self %', unit: '%', description: 'of the side\'s total self time (plus idle time when idle is included)', conditional: false },
      { id: 'cumulative_self_time_percent', label: 'Cumulative %', unit: '%', description: 'this row\'s and every row above it\'s self time percent (capped at 100)', conditional: false },
      { id: 'is_eager', label: 'Eager', unit: '', description: 'TensorFlow\'s `is_eager` stat', conditional: true },
      { id: 'cpu_memory_bytes', label: 'CPU Mem (B)', unit: 'bytes', description: 'key_averages()\' CPU Mem: host allocator bytes allocated minus freed within each occurrence, on any thread, summed per op', conditional: true },
      { id: 'self_cpu_memory_bytes', label: 'Self CPU Mem (B)', unit: 'bytes', description: 'CPU Mem minus its direct children\'s (ops nested in it on its thread)', conditional: true },
      { id: 'device_memory_bytes', label: 'Device Mem (B)', unit: 'bytes', description: 'key_averages()\' CUDA Mem: the same on the devices\' allocators', conditional: true },
      { id: 'self_device_memory_bytes', label: 'Self Device Mem (B)', unit: 'bytes', description: 'Device Mem minus its direct children\'s', conditional: true },
    ],
    device_ops: [
      { id: 'rank', label: 'Rank', unit: '', description: '1 = the most self time', conditional: false },
      { id: 'host_or_device', label: 'Where', unit: '', description: '`host` or `device`', conditional: false },
      { id: 'type', label: 'Type', unit: '', description: 'the op\'s type (`MatMul` for `model/dense/MatMul`); for frameworks without types the name itself', conditional: true },
      { id: 'name', label: 'Operation', unit: '', description: '', conditional: false },
      { id: 'category', label: 'Category', unit: '', description: 'what kind of op: `tensorflow`, `jax`, `pytorch`, `data_loader` (PyTorch\'s DataLoader iterations), `tf_data`, `cuda_runtime`, ...; `idle` for the idle row', conditional: false },
      { id: 'occurrences', label: 'Count', unit: 'count', description: 'how many times it ran', conditional: false },
      { id: 'total_time_ms', label: 'Total (ms)', unit: 'ms', description: 'including children', conditional: false },
      { id: 'avg_time_ms', label: 'Avg (ms)', unit: 'ms', description: 'total / count; null for the idle row', conditional: false },
      { id: 'total_self_time_ms', label: 'Self (ms)', unit: 'ms', description: 'total minus the time of its immediate children (device ops: = total)', conditional: false },
      { id: 'avg_self_time_ms', label: 'Avg self (ms)', unit: 'ms', description: '', conditional: false },
      { id: 'self_time_percent', label: 'Self %', unit: '%', description: 'of the side\'s total self time (plus idle time when idle is included)', conditional: false },
      { id: 'cumulative_self_time_percent', label: 'Cumulative %', unit: '%', description: 'this row\'s and every row above it\'s self time percent (capped at 100)', conditional: false },
      { id: 'is_eager', label: 'Eager', unit: '', description: 'TensorFlow\'s `is_eager` stat', conditional: true },
      { id: 'cpu_memory_bytes', label: 'CPU Mem (B)', unit: 'bytes', description: 'key_averages()\' CPU Mem: host allocator bytes allocated minus freed within each occurrence, on any thread, summed per op', conditional: true },
      { id: 'self_cpu_memory_bytes', label: 'Self CPU Mem (B)', unit: 'bytes', description: 'CPU Mem minus its direct children\'s (ops nested in it on its thread)', conditional: true },
      { id: 'device_memory_bytes', label: 'Device Mem (B)', unit: 'bytes', description: 'key_averages()\' CUDA Mem: the same on the devices\' allocators', conditional: true },
      { id: 'self_device_memory_bytes', label: 'Self Device Mem (B)', unit: 'bytes', description: 'Device Mem minus its direct children\'s', conditional: true },
    ],
    host_op_types: [
      { id: 'rank', label: 'Rank', unit: '', description: '1 = the most self time', conditional: false },
      { id: 'host_or_device', label: 'Where', unit: '', description: '`host` or `device`', conditional: false },
      { id: 'type', label: 'Type', unit: '', description: '', conditional: false },
      { id: 'op_count', label: 'Ops', unit: 'count', description: 'distinct ops', conditional: false },
      { id: 'occurrences', label: 'Count', unit: 'count', description: 'how many times it ran', conditional: false },
      { id: 'total_time_ms', label: 'Total (ms)', unit: 'ms', description: 'sum of the ops\' total times', conditional: false },
      { id: 'total_self_time_ms', label: 'Self (ms)', unit: 'ms', description: 'total minus the time of its immediate children (device ops: = total)', conditional: false },
      { id: 'self_time_percent', label: 'Self %', unit: '%', description: 'of the side\'s total self time (plus idle time when idle is included)', conditional: false },
      { id: 'cumulative_self_time_percent', label: 'Cumulative %', unit: '%', description: 'this row\'s and every row above it\'s self time percent (capped at 100)', conditional: false },
    ],
    device_op_types: [
      { id: 'rank', label: 'Rank', unit: '', description: '1 = the most self time', conditional: false },
      { id: 'host_or_device', label: 'Where', unit: '', description: '`host` or `device`', conditional: false },
      { id: 'type', label: 'Type', unit: '', description: '', conditional: false },
      { id: 'op_count', label: 'Ops', unit: 'count', description: 'distinct ops', conditional: false },
      { id: 'occurrences', label: 'Count', unit: 'count', description: 'how many times it ran', conditional: false },
      { id: 'total_time_ms', label: 'Total (ms)', unit: 'ms', description: 'sum of the ops\' total times', conditional: false },
      { id: 'total_self_time_ms', label: 'Self (ms)', unit: 'ms', description: 'total minus the time of its immediate children (device ops: = total)', conditional: false },
      { id: 'self_time_percent', label: 'Self %', unit: '%', description: 'of the side\'s total self time (plus idle time when idle is included)', conditional: false },
      { id: 'cumulative_self_time_percent', label: 'Cumulative %', unit: '%', description: 'this row\'s and every row above it\'s self time percent (capped at 100)', conditional: false },
    ],
  },
  kernel_stats: {
    kernel_ops: [
      { id: 'op_name', label: 'Op', unit: '', description: 'empty: kernels with no known framework op', conditional: false },
      { id: 'kernels', label: 'Kernels', unit: 'count', description: 'distinct kernel names', conditional: false },
      { id: 'launches', label: 'Launches', unit: 'count', description: '', conditional: false },
      { id: 'total_time_ms', label: 'Total (ms)', unit: 'ms', description: '', conditional: false },
      { id: 'percent', label: '% of kernel time', unit: '%', description: '', conditional: false },
    ],
    kernels: [
      { id: 'rank', label: 'Rank', unit: '', description: '1 = the most total time', conditional: false },
      { id: 'kernel_name', label: 'Kernel', unit: '', description: '', conditional: false },
      { id: 'registers_per_thread', label: 'Registers', unit: 'count', description: 'null when the file does not hold it, or holds a value no kernel can have (0 registers, 0 % occupancy, more than 1024 registers per thread or 1 MiB of shared memory); the diagnostics then name the record', conditional: false },
      { id: 'shmem_bytes', label: 'Shared mem (B)', unit: 'bytes', description: 'static + dynamic; null as registers', conditional: false },
      { id: 'block_dim', label: 'Block', unit: '', description: '`x,y,z`', conditional: false },
      { id: 'grid_dim', label: 'Grid', unit: '', description: '`x,y,z`', conditional: false },
      { id: 'occupancy_pct', label: 'Occupancy %', unit: '%', description: 'theoretical occupancy: recorded by stepscope\'s tracer, computed for Kineto traces from the launch and the device\'s limits; null as registers', conditional: false },
      { id: 'is_op_tensor_core_eligible', label: 'TC eligible', unit: '', description: 'the kernel\'s op can use Tensor Cores (convolutions, matrix products)', conditional: true },
      { id: 'is_kernel_using_tensor_core', label: 'Uses TC', unit: '', description: 'the kernel\'s name says it uses Tensor Cores (`h884`, `s1688`, ...)', conditional: true },
      { id: 'op_name', label: 'Op', unit: '', description: 'framework op; empty when none is known (e.g. a kernel launched before the capture)', conditional: false },
      { id: 'occurrences', label: 'Count', unit: 'count', description: 'launches', conditional: false },
      { id: 'total_duration_us', label: 'Total (µs)', unit: 'us', description: '', conditional: false },
      { id: 'avg_duration_us', label: 'Avg (µs)', unit: 'us', description: '', conditional: false },
      { id: 'min_duration_us', label: 'Min (µs)', unit: 'us', description: '', conditional: false },
      { id: 'max_duration_us', label: 'Max (µs)', unit: 'us', description: '', conditional: false },
    ],
    kernel_names: [
      { id: 'kernel_name', label: 'Kernel', unit: '', description: '', conditional: false },
      { id: 'configurations', label: 'Launch configs', unit: 'count', description: 'distinct registers / shared memory / grid / block', conditional: false },
      { id: 'ops', label: 'Ops', unit: 'count', description: 'distinct framework ops, none counting as one', conditional: false },
      { id: 'occurrences', label: 'Count', unit: 'count', description: 'launches', conditional: false },
      { id: 'total_duration_us', label: 'Total (µs)', unit: 'us', description: '', conditional: false },
      { id: 'avg_duration_us', label: 'Avg (µs)', unit: 'us', description: '', conditional: false },
      { id: 'percent', label: '% of kernel time', unit: '%', description: '', conditional: false },
    ],
  },
  advisor: {
    findings: [
      { id: 'id', label: 'Id', unit: '', description: 'the rule\'s stable id, e.g. `input_bound`', conditional: false },
      { id: 'severity', label: 'Severity', unit: '', description: '`high`, `medium` or `low`', conditional: false },
      { id: 'title', label: 'Title', unit: '', description: 'short, with the key number', conditional: false },
      { id: 'evidence', label: 'Evidence', unit: '', description: 'the numbers that fired the rule, in words', conditional: false },
      { id: 'advice', label: 'Advice', unit: '', description: 'what to change', conditional: false },
      { id: 'tool', label: 'Tool', unit: '', description: 'the tool id that shows the evidence', conditional: false },
      { id: 'impact_percent', label: 'Impact %', unit: '%', description: 'the share of step time (or device time) concerned; for ordering', conditional: false },
    ],
    checks: [
      { id: 'id', label: 'Check', unit: '', description: 'the rule\'s id', conditional: false },
      { id: 'fired', label: 'Fired', unit: '', description: 'the rule found a problem (a finding)', conditional: false },
      { id: 'detail', label: 'Detail', unit: '', description: 'the measured value against the threshold, or why the rule did not apply', conditional: false },
    ],
  },
  pod_viewer: {
    workers: [
      { id: 'host', label: 'Worker', unit: '', description: '', conditional: false },
      { id: 'host_index', label: '#', unit: '', description: 'the worker\'s index in `hosts`', conditional: false },
      { id: 'steps', label: 'Steps', unit: 'count', description: 'steps it ran', conditional: false },
      { id: 'avg_step_time_ms', label: 'Avg step (ms)', unit: 'ms', description: '', conditional: false },
      { id: 'avg_lag_ms', label: 'Avg lag (ms)', unit: 'ms', description: 'mean of its lag behind the step\'s fastest worker', conditional: false },
      { id: 'slowest_steps', label: 'Slowest in', unit: 'count', description: 'steps in which it was the slowest, multi-worker steps only', conditional: false },
      { id: 'input_percent', label: 'Input %', unit: '%', description: 'wait for input + host-to-device, of its step time over all its steps', conditional: false },
      { id: 'avg_compilation_ms', label: 'compilation (ms)', unit: 'ms', description: 'its average time per step in the category', conditional: false },
      { id: 'avg_input_ms', label: 'input (ms)', unit: 'ms', description: 'its average time per step in the category', conditional: false },
      { id: 'avg_output_ms', label: 'output (ms)', unit: 'ms', description: 'its average time per step in the category', conditional: false },
      { id: 'avg_kernel_launch_ms', label: 'kernel_launch (ms)', unit: 'ms', description: 'its average time per step in the category', conditional: false },
      { id: 'avg_host_compute_ms', label: 'host_compute (ms)', unit: 'ms', description: 'its average time per step in the category', conditional: false },
      { id: 'avg_device_to_device_ms', label: 'device_to_device (ms)', unit: 'ms', description: 'its average time per step in the category', conditional: false },
      { id: 'avg_device_collectives_ms', label: 'device_collectives (ms)', unit: 'ms', description: 'its average time per step in the category', conditional: false },
      { id: 'avg_device_compute_ms', label: 'device_compute (ms)', unit: 'ms', description: 'its average time per step in the category', conditional: false },
      { id: 'avg_other_ms', label: 'other (ms)', unit: 'ms', description: 'its average time per step in the category', conditional: false },
    ],
    steps: [
      { id: 'step_number', label: 'Step', unit: '', description: '', conditional: false },
      { id: 'step_name', label: 'Name', unit: '', description: '', conditional: false },
      { id: 'worker_count', label: 'Workers', unit: 'count', description: 'workers that recorded the step', conditional: false },
      { id: 'max_step_time_ms', label: 'Slowest (ms)', unit: 'ms', description: 'the slowest worker\'s compared time (`summary.compared_by`)', conditional: false },
      { id: 'min_step_time_ms', label: 'Fastest (ms)', unit: 'ms', description: 'the fastest worker\'s', conditional: false },
      { id: 'spread_ms', label: 'Spread (ms)', unit: 'ms', description: 'slowest - fastest', conditional: false },
      { id: 'slowest_host', label: 'Slowest worker', unit: '', description: '', conditional: false },
    ],
    step_workers: [
      { id: 'step_number', label: 'Step', unit: '', description: '', conditional: false },
      { id: 'host', label: 'Worker', unit: '', description: '', conditional: false },
      { id: 'host_index', label: '#', unit: '', description: 'the worker\'s index in `hosts`', conditional: false },
      { id: 'step_time_ms', label: 'Step (ms)', unit: 'ms', description: '', conditional: false },
      { id: 'lag_ms', label: 'Lag (ms)', unit: 'ms', description: 'its compared time minus the step\'s fastest worker\'s', conditional: false },
      { id: 'input_percent', label: 'Input %', unit: '%', description: 'wait for input + host-to-device, of the step time', conditional: false },
      { id: 'compilation_ms', label: 'compilation (ms)', unit: 'ms', description: 'its time in the category in the step; the categories add up to `step_time_ms`', conditional: false },
      { id: 'input_ms', label: 'input (ms)', unit: 'ms', description: 'its time in the category in the step; the categories add up to `step_time_ms`', conditional: false },
      { id: 'output_ms', label: 'output (ms)', unit: 'ms', description: 'its time in the category in the step; the categories add up to `step_time_ms`', conditional: false },
      { id: 'kernel_launch_ms', label: 'kernel_launch (ms)', unit: 'ms', description: 'its time in the category in the step; the categories add up to `step_time_ms`', conditional: false },
      { id: 'host_compute_ms', label: 'host_compute (ms)', unit: 'ms', description: 'its time in the category in the step; the categories add up to `step_time_ms`', conditional: false },
      { id: 'device_to_device_ms', label: 'device_to_device (ms)', unit: 'ms', description: 'its time in the category in the step; the categories add up to `step_time_ms`', conditional: false },
      { id: 'device_collectives_ms', label: 'device_collectives (ms)', unit: 'ms', description: 'its time in the category in the step; the categories add up to `step_time_ms`', conditional: false },
      { id: 'device_compute_ms', label: 'device_compute (ms)', unit: 'ms', description: 'its time in the category in the step; the categories add up to `step_time_ms`', conditional: false },
      { id: 'other_ms', label: 'other (ms)', unit: 'ms', description: 'its time in the category in the step; the categories add up to `step_time_ms`', conditional: false },
    ],
  },
  trace_viewer: {
  },
  memory_profile: {
    allocators: [
      { id: 'memoryId', label: 'Memory id', unit: '', description: 'the allocator or device (`GPU_0_bfc`, `cuda:0`, ...): a key of `memoryProfilePerAllocator`', conditional: false },
      { id: 'numAllocations', label: 'Allocs', unit: 'count', description: '', conditional: false },
      { id: 'numDeallocations', label: 'Frees', unit: 'count', description: '', conditional: false },
      { id: 'peakBytesInUse', label: 'Peak (B)', unit: 'bytes', description: 'stack + heap bytes at the peak', conditional: false },
      { id: 'heapAllocatedBytes', label: 'Heap at peak (B)', unit: 'bytes', description: 'bytes allocated on the heap (in use by live allocations)', conditional: false },
      { id: 'stackReservedBytes', label: 'Stack at peak (B)', unit: 'bytes', description: 'bytes reserved on the stack', conditional: false },
      { id: 'freeMemoryBytes', label: 'Free at peak (B)', unit: 'bytes', description: 'bytes free in the allocator', conditional: false },
      { id: 'fragmentation', label: 'Frag at peak', unit: '', description: '(free bytes - largest free chunk) / free bytes, a fraction from 0 to 1', conditional: false },
      { id: 'peakStatsTimePs', label: 'Peak at (ps)', unit: 'ps', description: 'on the profile\'s timeline', conditional: false },
      { id: 'peakStepId', label: 'Peak step', unit: '', description: 'the step of the peak\'s event', conditional: false },
      { id: 'peakBytesUsageLifetime', label: 'Lifetime peak (B)', unit: 'bytes', description: 'the allocator\'s own peak since it started', conditional: false },
      { id: 'memoryCapacity', label: 'Capacity (B)', unit: 'bytes', description: 'stack + heap + free at the peak', conditional: false },
      { id: 'neverFreed', label: 'Never freed', unit: 'count', description: 'allocations with no deallocation at their address', conditional: false },
      { id: 'freesWithoutAllocation', label: 'Frees w/o alloc', unit: 'count', description: 'deallocations with no allocation at their address', conditional: false },
    ],
    breakdown: [
      { id: 'memoryId', label: 'Memory id', unit: '', description: 'the allocator or device (`GPU_0_bfc`, `cuda:0`, ...): a key of `memoryProfilePerAllocator`', conditional: false },
      { id: 'rank', label: 'Rank', unit: '', description: '1 = the largest, within the memory id', conditional: false },
      { id: 'tfOpName', label: 'Op', unit: '', description: 'the framework op that allocated (a deallocation: the op of the allocation it frees); with no op, a name from the XLA buffer assignment when the profile holds a buffer allocation of exactly its requested size (`XLA temporaries of jit_step(7), allocation 12`), else empty', conditional: false },
      { id: 'allocationBytes', label: 'Size (B)', unit: 'bytes', description: 'what the allocator handed out (rounded up)', conditional: false },
      { id: 'requestedBytes', label: 'Requested (B)', unit: 'bytes', description: 'what the caller asked for', conditional: false },
      { id: 'numOccurrences', label: 'Count', unit: 'count', description: 'identical allocations merged into the row', conditional: false },
      { id: 'totalBytes', label: 'Total (B)', unit: 'bytes', description: 'allocationBytes x numOccurrences', conditional: false },
      { id: 'regionType', label: 'Region', unit: '', description: 'empty when unknown', conditional: false },
      { id: 'dataType', label: 'Data type', unit: '', description: 'TF\'s DataType name; empty when unknown (data type 0)', conditional: false },
      { id: 'tensorShape', label: 'Shape', unit: '', description: '', conditional: false },
      { id: 'stepId', label: 'Step', unit: '', description: 'the event\'s step (group id); events without one take the last step + 1', conditional: false },
      { id: 'special', label: 'Special', unit: '', description: 'a special row: heap bytes no live allocation explains ("unused preallocated device memory") or the stack', conditional: false },
    ],
    timeline: [
      { id: 'memoryId', label: 'Memory id', unit: '', description: 'the allocator or device (`GPU_0_bfc`, `cuda:0`, ...): a key of `memoryProfilePerAllocator`', conditional: false },
      { id: 'timeOffsetPs', label: 'Time (ps)', unit: 'ps', description: 'the event\'s time on the profile\'s timeline', conditional: false },
      { id: 'heapAllocatedBytes', label: 'Heap (B)', unit: 'bytes', description: 'bytes allocated on the heap (in use by live allocations)', conditional: false },
      { id: 'stackReservedBytes', label: 'Stack (B)', unit: 'bytes', description: 'bytes reserved on the stack', conditional: false },
      { id: 'freeMemoryBytes', label: 'Free (B)', unit: 'bytes', description: 'bytes free in the allocator', conditional: false },
      { id: 'fragmentation', label: 'Frag', unit: '', description: '(free bytes - largest free chunk) / free bytes, a fraction from 0 to 1', conditional: false },
      { id: 'memoryActivity', label: 'Activity', unit: '', description: '`ALLOCATION` or `DEALLOCATION`', conditional: false },
      { id: 'tfOpName', label: 'Op', unit: '', description: 'the framework op that allocated (a deallocation: the op of the allocation it frees); with no op, a name from the XLA buffer assignment when the profile holds a buffer allocation of exactly its requested size (`XLA temporaries of jit_step(7), allocation 12`), else empty', conditional: false },
      { id: 'allocationBytes', label: 'Size (B)', unit: 'bytes', description: 'what the allocator handed out (rounded up)', conditional: false },
      { id: 'stepId', label: 'Step', unit: '', description: 'the event\'s step (group id); events without one take the last step + 1', conditional: false },
    ],
  },
  multi_gpu: {
    devices: [
      { id: 'host', label: 'Host', unit: '', description: '', conditional: false },
      { id: 'device', label: 'Device', unit: '', description: 'the device\'s plane, `/device:GPU:3`', conditional: false },
      { id: 'steps', label: 'Steps', unit: 'count', description: 'steps with activity on it', conditional: false },
      { id: 'avg_active_ms', label: 'Active (ms)', unit: 'ms', description: 'per step: kernels + copies, overlapping streams add up', conditional: false },
      { id: 'avg_compute_ms', label: 'Compute (ms)', unit: 'ms', description: 'active minus collectives', conditional: false },
      { id: 'avg_collective_ms', label: 'Collectives (ms)', unit: 'ms', description: 'per step', conditional: false },
      { id: 'collective_percent', label: 'Coll. %', unit: '%', description: 'of its active time', conditional: false },
      { id: 'collectives', label: 'Coll. ops', unit: 'count', description: 'collective kernels/ops, all steps', conditional: false },
      { id: 'busy_ms', label: 'Busy (ms)', unit: 'ms', description: 'union of all its activity in the profile', conditional: false },
      { id: 'straggler_steps', label: 'Slowest in', unit: 'count', description: 'steps in which it had the most compute', conditional: false },
      { id: 'avg_wait_ms', label: 'Waits (ms)', unit: 'ms', description: 'per step: the straggler\'s compute minus its own, about how long it waits in the collective', conditional: false },
      { id: 'avg_launch_skew_ms', label: 'Launch skew (ms)', unit: 'ms', description: 'per concurrent step: its first kernel minus the earliest device\'s; null when it ran in no concurrent step', conditional: false },
      { id: 'kernel_ms', label: 'All kernels (ms)', unit: 'ms', description: 'over the whole profile', conditional: false },
      { id: 'total_collective_ms', label: 'All collectives (ms)', unit: 'ms', description: 'over the whole profile', conditional: false },
      { id: 'first_kernel_offset_ms', label: 'Starts after (ms)', unit: 'ms', description: 'its first activity after the earliest device\'s on the same host', conditional: false },
    ],
    steps: [
      { id: 'step_number', label: 'Step', unit: '', description: '', conditional: false },
      { id: 'devices', label: 'Devices', unit: 'count', description: '', conditional: false },
      { id: 'concurrent', label: 'Ran together', unit: '', description: 'the devices\' work windows overlap; when not, the step has no launch skew and no straggler', conditional: false },
      { id: 'straggler', label: 'Straggler', unit: '', description: 'the device with the most compute; empty when balanced', conditional: false },
      { id: 'max_compute_ms', label: 'Max compute (ms)', unit: 'ms', description: '', conditional: false },
      { id: 'min_compute_ms', label: 'Min compute (ms)', unit: 'ms', description: '', conditional: false },
      { id: 'imbalance_ms', label: 'Imbalance (ms)', unit: 'ms', description: 'max - min compute', conditional: false },
      { id: 'avg_collective_ms', label: 'Collectives (ms)', unit: 'ms', description: 'per device', conditional: false },
      { id: 'launch_skew_ms', label: 'Launch skew (ms)', unit: 'ms', description: 'latest minus earliest first kernel; null when not concurrent', conditional: false },
    ],
    collectives: [
      { id: 'host', label: 'Host', unit: '', description: '', conditional: false },
      { id: 'device', label: 'Device', unit: '', description: 'the device\'s plane, `/device:GPU:3`', conditional: false },
      { id: 'collective', label: 'Collective', unit: '', description: '`all_reduce`, `all_gather`, `reduce_scatter`, `all_to_all`, `broadcast`, `reduce`, `send_recv` or `other`', conditional: false },
      { id: 'count', label: 'Count', unit: 'count', description: '', conditional: false },
      { id: 'sized', label: 'With size', unit: 'count', description: 'with a known size', conditional: false },
      { id: 'ranks', label: 'Ranks', unit: 'count', description: '0: unknown', conditional: false },
      { id: 'ranks_source', label: 'Ranks from', unit: '', description: '`group_size`: the event\'s "Group size"; `world_size`: the profile\'s distributedInfo; `devices`: GPUs of the host', conditional: false },
      { id: 'time_ms', label: 'Time (ms)', unit: 'ms', description: 'all of them', conditional: false },
      { id: 'size_mb', label: 'Size (MB)', unit: 'MB', description: 'nccl-tests\' size of the sized ones (all-reduce buffer, all-gather output, reduce-scatter input, all-to-all send buffer), 1e6 B', conditional: false },
      { id: 'size_per_step_mb', label: 'Size/step (MB)', unit: 'MB', description: '', conditional: false },
      { id: 'algbw_gbps', label: 'Alg. BW (GB/s)', unit: 'GB/s', description: 'size / time of the sized ones', conditional: false },
      { id: 'busbw_gbps', label: 'Bus BW (GB/s)', unit: 'GB/s', description: 'algorithm bandwidth x NCCL\'s bus factor: 2(n-1)/n all-reduce, (n-1)/n all-gather / reduce-scatter / all-to-all, 1 otherwise', conditional: false },
      { id: 'link_gbps', label: 'Link (GB/s)', unit: 'GB/s', description: '0: unknown', conditional: false },
      { id: 'link', label: 'Link', unit: '', description: '`NVLink 4 (18 links)`, `option` (given), empty when unknown', conditional: false },
      { id: 'link_percent', label: 'Of link %', unit: '%', description: 'bus bandwidth / link', conditional: false },
    ],
  },
  op_profile: {
    op_profile: [
      { id: 'level', label: 'Level', unit: '', description: '', conditional: false },
      { id: 'depth', label: 'Depth', unit: '', description: '0 for programs, 1 categories, ...', conditional: false },
      { id: 'program', label: 'Program', unit: '', description: '', conditional: false },
      { id: 'category', label: 'Category', unit: '', description: '', conditional: false },
      { id: 'name', label: 'Name', unit: '', description: '', conditional: false },
      { id: 'opcode', label: 'Opcode', unit: '', description: '', conditional: false },
      { id: 'occurrences', label: 'Occurrences', unit: 'count', description: '', conditional: false },
      { id: 'time_us', label: 'Time (us)', unit: 'us', description: 'empty for fused ops', conditional: false },
      { id: 'time_percent', label: 'Time %', unit: '%', description: '', conditional: false },
      { id: 'gflops', label: 'GFLOP', unit: 'GFLOP', description: '', conditional: false },
      { id: 'flops_utilization_percent', label: 'FLOP util %', unit: '%', description: '', conditional: false },
      { id: 'bandwidth_utilization_percent', label: 'BW util %', unit: '%', description: '', conditional: false },
      { id: 'wasted_time_us', label: 'Wasted (us)', unit: 'us', description: '', conditional: false },
      { id: 'bound_by', label: 'Bound by', unit: '', description: '', conditional: false },
    ],
  },
  hlo_stats: {
    hlo_ops: [
      { id: 'rank', label: 'Rank', unit: '', description: '1 = the most device time', conditional: false },
      { id: 'program', label: 'Program', unit: '', description: 'the module as `name(program id)`', conditional: false },
      { id: 'op_name', label: 'HLO op', unit: '', description: '', conditional: false },
      { id: 'opcode', label: 'Opcode', unit: '', description: 'empty when not resolved', conditional: false },
      { id: 'category', label: 'Category', unit: '', description: 'convolution, matmul, loop fusion, ...', conditional: false },
      { id: 'occurrences', label: 'Occurrences', unit: 'count', description: '', conditional: false },
      { id: 'kernels', label: 'Kernels', unit: 'count', description: '', conditional: false },
      { id: 'total_time_us', label: 'Total time (µs)', unit: 'us', description: 'device (kernel) time', conditional: false },
      { id: 'avg_time_us', label: 'Avg time (µs)', unit: 'us', description: '', conditional: false },
      { id: 'total_self_time_us', label: 'Self time (µs)', unit: 'us', description: 'equals the total time', conditional: false },
      { id: 'time_percent', label: 'Time %', unit: '%', description: 'of all HLO op time', conditional: false },
      { id: 'cumulative_time_percent', label: 'Cumulative %', unit: '%', description: 'this row and those above it', conditional: false },
      { id: 'gflops', label: 'GFLOP per occurrence', unit: 'GFLOP', description: '', conditional: false },
      { id: 'gflop_rate', label: 'FLOP rate (GFLOP/s)', unit: 'GFLOP/s', description: '', conditional: false },
      { id: 'memory_bw_gbps', label: 'Memory BW (GB/s)', unit: 'GB/s', description: '', conditional: false },
      { id: 'arithmetic_intensity', label: 'Intensity (FLOP/B)', unit: 'FLOP/B', description: 'FLOP per byte accessed', conditional: false },
      { id: 'flops_utilization_percent', label: 'FLOP util %', unit: '%', description: '', conditional: false },
      { id: 'bandwidth_utilization_percent', label: 'BW util %', unit: '%', description: '', conditional: false },
      { id: 'bound_by', label: 'Bound by', unit: '', description: '`compute`, `memory`, `latency` or `unknown`', conditional: false },
      { id: 'framework_op', label: 'Framework op', unit: '', description: '', conditional: false },
      { id: 'source', label: 'Source', unit: '', description: '`file.py:line`; empty when unknown', conditional: false },
      { id: 'expression', label: 'HLO expression', unit: '', description: '', conditional: false },
    ],
  },
  roofline_model: {
    roofline: [
      { id: 'level', label: 'Level', unit: '', description: '`total`, `program` or `op`', conditional: false },
      { id: 'program', label: 'Program', unit: '', description: '', conditional: false },
      { id: 'name', label: 'Name', unit: '', description: 'the op; the program\'s name for programs; `all programs`', conditional: false },
      { id: 'category', label: 'Category', unit: '', description: 'ops only, as in hlo_stats', conditional: false },
      { id: 'occurrences', label: 'Occurrences', unit: 'count', description: '', conditional: false },
      { id: 'time_us', label: 'Time (µs)', unit: 'us', description: '', conditional: false },
      { id: 'time_percent', label: 'Time %', unit: '%', description: 'of all HLO op time', conditional: false },
      { id: 'gflops', label: 'GFLOP', unit: 'GFLOP', description: 'over all occurrences', conditional: false },
      { id: 'arithmetic_intensity', label: 'Intensity (FLOP/B)', unit: 'FLOP/B', description: '', conditional: false },
      { id: 'gflop_rate', label: 'Achieved (GFLOP/s)', unit: 'GFLOP/s', description: '', conditional: false },
      { id: 'bandwidth_gbps', label: 'Bandwidth (GB/s)', unit: 'GB/s', description: '', conditional: false },
      { id: 'attainable_gflop_rate', label: 'Roof (GFLOP/s)', unit: 'GFLOP/s', description: 'the roof at this intensity: min(peak compute, intensity x bandwidth)', conditional: false },
      { id: 'roof_percent', label: 'Of roof %', unit: '%', description: 'achieved / attainable', conditional: false },
      { id: 'bound_by', label: 'Bound by', unit: '', description: 'ops and programs: `compute`, `memory`, `latency`, `unknown`', conditional: false },
    ],
  },
  memory_viewer: {
    modules: [
      { id: 'name', label: 'Module', unit: '', description: '`name(program id)`, as the `module` option takes it', conditional: false },
      { id: 'module', label: 'Name', unit: '', description: 'the module\'s name', conditional: false },
      { id: 'program_id', label: 'Program id', unit: '', description: '', conditional: false },
      { id: 'instructions', label: 'Instructions', unit: 'count', description: '', conditional: false },
      { id: 'has_buffer_assignment', label: 'Buffer assignment', unit: '', description: '', conditional: false },
    ],
    peak_buffers: [
      { id: 'rank', label: '#', unit: 'count', description: '1 = the largest', conditional: false },
      { id: 'instruction', label: 'Defined by', unit: '', description: 'the defining instruction (`{i}` appended for a tuple\'s part); for a whole-program allocation holding several buffers `allocation N (k buffers)`', conditional: false },
      { id: 'opcode', label: 'Opcode', unit: '', description: '', conditional: false },
      { id: 'shape', label: 'Shape', unit: '', description: '', conditional: false },
      { id: 'size_bytes', label: 'Size (B)', unit: 'bytes', description: 'padded', conditional: false },
      { id: 'unpadded_bytes', label: 'Unpadded (B)', unit: 'bytes', description: 'the same buffers at their shapes\' sizes without layout padding', conditional: false },
      { id: 'peak_percent', label: '% of peak', unit: '%', description: '', conditional: false },
      { id: 'allocation_type', label: 'Allocation', unit: '', description: 'parameter, output, thread-local, constant or temporary', conditional: false },
      { id: 'allocation_index', label: 'Allocation #', unit: 'count', description: 'the buffer allocation\'s index; null when none', conditional: false },
      { id: 'logical_buffer_id', label: 'Buffer id', unit: 'count', description: 'null for a whole allocation (one holding several buffers live for the whole program)', conditional: false },
      { id: 'live_from', label: 'Live from', unit: 'count', description: 'the heap-trace position it is live from; null: the whole program', conditional: false },
      { id: 'live_to', label: 'Live to', unit: 'count', description: 'as live_from', conditional: false },
      { id: 'op_name', label: 'Framework op', unit: '', description: 'metadata op_name', conditional: false },
    ],
    timeline: [
      { id: 'position', label: 'Program point', unit: 'count', description: 'event index in the heap trace (program order)', conditional: false },
      { id: 'instruction', label: 'Instruction', unit: '', description: 'the instruction the event belongs to', conditional: false },
      { id: 'schedule_index', label: 'Schedule #', unit: 'count', description: 'the instruction\'s index in the module\'s schedule; null without one', conditional: false },
      { id: 'heap_bytes', label: 'Allocated (B)', unit: 'bytes', description: 'padded bytes allocated at this point of the compiler\'s heap simulation: the logical buffers\' sizes, buffers live for the whole program (parameters, outputs, constants) included; not the allocator\'s heap (memory_profile)', conditional: false },
      { id: 'unpadded_bytes', label: 'Unpadded (B)', unit: 'bytes', description: 'the same buffers at their shapes\' sizes without layout padding', conditional: false },
    ],
    allocations: [
      { id: 'index', label: 'Allocation #', unit: 'count', description: '', conditional: false },
      { id: 'type', label: 'Type', unit: '', description: '', conditional: false },
      { id: 'size_bytes', label: 'Size (B)', unit: 'bytes', description: '', conditional: false },
      { id: 'logical_buffers', label: 'Buffers', unit: 'count', description: '', conditional: false },
      { id: 'color', label: 'Memory space', unit: '', description: '', conditional: false },
    ],
  },
  graph_viewer: {
    nodes: [
      { id: 'name', label: 'Op', unit: '', description: '', conditional: false },
      { id: 'opcode', label: 'Opcode', unit: '', description: '', conditional: false },
      { id: 'shape', label: 'Shape', unit: '', description: '', conditional: false },
      { id: 'hops', label: 'Hops', unit: 'count', description: 'distance from the centre', conditional: false },
      { id: 'center', label: 'Centre', unit: '', description: '', conditional: false },
      { id: 'time_ms', label: 'Device time (ms)', unit: 'ms', description: 'device time of the kernels joined to the op over the profile; null for ops no kernel names (fused ops, parameters, ...)', conditional: false },
      { id: 'occurrences', label: 'Runs', unit: 'count', description: 'its executions; null as time_ms', conditional: false },
      { id: 'more', label: 'More beyond', unit: '', description: 'has neighbours not shown: past the hops or the node cap', conditional: false },
      { id: 'computation', label: 'Computation', unit: '', description: 'the computation holding it', conditional: false },
      { id: 'fusion', label: 'In fusion', unit: '', description: 'the fusion whose body holds it; empty outside fusions', conditional: false },
      { id: 'fusion_kind', label: 'Fusion kind', unit: '', description: 'of a fusion (`kLoop`, ...)', conditional: false },
      { id: 'calls', label: 'Calls', unit: '', description: 'non-fusion computations it calls', conditional: false },
      { id: 'op_name', label: 'Framework op', unit: '', description: 'metadata op_name', conditional: false },
    ],
    edges: [
      { id: 'from', label: 'From', unit: '', description: 'the producer: an operand, or a fused computation\'s root', conditional: false },
      { id: 'to', label: 'To', unit: '', description: 'its user, or the fusion', conditional: false },
      { id: 'kind', label: 'Kind', unit: '', description: '`operand` or `fusion`', conditional: false },
    ],
  },
  tf_data_bottleneck_analysis: {
    pipelines: [
      { id: 'pipeline', label: 'Pipeline', unit: '', description: '`Host:N` (`Device:N` for a MultiDeviceIterator\'s per-device prefetch)', conditional: false },
      { id: 'root', label: 'Root iterator', unit: '', description: '', conditional: false },
      { id: 'calls', label: 'Calls', unit: 'count', description: '', conditional: false },
      { id: 'avg_latency_us', label: 'Avg (µs)', unit: 'us', description: '', conditional: false },
      { id: 'min_latency_us', label: 'Min (µs)', unit: 'us', description: '', conditional: false },
      { id: 'max_latency_us', label: 'Max (µs)', unit: 'us', description: '', conditional: false },
      { id: 'slow_calls', label: 'Calls > 50 µs', unit: 'count', description: 'calls slower than 50 µs', conditional: false },
      { id: 'step_time_percent', label: 'Iterator time (% of step)', unit: '%', description: 'iterator time: root-call time over step time; null without steps', conditional: false },
      { id: 'iterator_bound', label: 'Iterator-bound', unit: '', description: 'the root calls take ≥ 5 % of the step time (without steps: a call over 50 µs)', conditional: false },
      { id: 'bottleneck', label: 'Bottleneck stage', unit: '', description: 'a stage\'s long name; null when there is none', conditional: false },
      { id: 'bottleneck_percent', label: 'Bottleneck share', unit: '%', description: 'the bottleneck\'s share of the slowest calls\' blocking self time', conditional: false },
      { id: 'slowest_call_bottleneck', label: 'Slowest call\'s bottleneck', unit: '', description: 'XProf\'s pick: the slowest call\'s blocking stage with the most self time; null when there is none', conditional: false },
      { id: 'suggestion', label: 'Suggestion', unit: '', description: 'with the numbers that back it; empty without a bottleneck', conditional: false },
    ],
    stages: [
      { id: 'pipeline', label: 'Pipeline', unit: '', description: 'null when no root call reached the stage', conditional: false },
      { id: 'stage', label: 'Stage', unit: '', description: 'the iterator\'s long name', conditional: false },
      { id: 'dataset', label: 'Dataset', unit: '', description: 'the last part of the long name', conditional: false },
      { id: 'kind', label: 'Kind', unit: '', description: 'the kind of fix it calls for: `file_source`, `memory_source`, `sequential_map`, `parallel_map`, `sequential_transform`, `prefetch`, `cache`, `other`', conditional: false },
      { id: 'id', label: 'Iterator id', unit: '', description: 'a decimal string: tf.data\'s ids are addresses, beyond a double\'s 53 bits', conditional: false },
      { id: 'parent_id', label: 'Parent id', unit: '', description: 'the iterator consuming its output, as `id`; null when it names no recorded stage or is on a cycle', conditional: false },
      { id: 'setting', label: 'Workers / buffer', unit: 'count', description: 'ParallelMap\'s `parallelism` / Prefetch\'s `buffer_limit`; null when not recorded', conditional: false },
      { id: 'calls', label: 'Calls', unit: 'count', description: '', conditional: false },
      { id: 'avg_latency_us', label: 'Avg (µs)', unit: 'us', description: '', conditional: false },
      { id: 'self_ms', label: 'Self (ms)', unit: 'ms', description: '', conditional: false },
      { id: 'blocking_self_ms', label: 'Blocking self (ms)', unit: 'ms', description: 'self time of the calls that blocked a fetch', conditional: false },
      { id: 'blocking_calls', label: 'Blocking calls', unit: 'count', description: '', conditional: false },
      { id: 'slow_blocking_self_ms', label: 'In slowest calls (ms)', unit: 'ms', description: 'blocking self time within the slowest calls only', conditional: false },
      { id: 'bottleneck', label: 'Bottleneck', unit: '', description: 'its pipeline\'s bottleneck', conditional: false },
    ],
    critical_path: [
      { id: 'pipeline', label: 'Pipeline', unit: '', description: '`Host:N` (`Device:N` for a MultiDeviceIterator\'s per-device prefetch)', conditional: false },
      { id: 'depth', label: 'Depth', unit: '', description: '0: the root call', conditional: false },
      { id: 'stage', label: 'Stage', unit: '', description: 'the iterator\'s long name', conditional: false },
      { id: 'thread', label: 'Thread', unit: '', description: '', conditional: false },
      { id: 'duration_us', label: 'Call (µs)', unit: 'us', description: '', conditional: false },
      { id: 'wait_us', label: 'Waited on (µs)', unit: 'us', description: 'how much of the parent call it overlapped', conditional: false },
      { id: 'self_us', label: 'Self (µs)', unit: 'us', description: '', conditional: false },
    ],
  },
  diff: {
    summary: [
      { id: 'metric', label: 'Metric key', unit: '', description: '`step_time_mean_ms`, ...', conditional: false },
      { id: 'label', label: 'Metric', unit: '', description: '', conditional: false },
      { id: 'unit', label: 'Unit', unit: '', description: '`ms`, `ms/step`, `%` or `count`', conditional: false },
      { id: 'a', label: 'A', unit: '', description: 'A\'s value; null where it does not apply (no steps, no device)', conditional: false },
      { id: 'b', label: 'B', unit: '', description: 'B\'s value; null where it does not apply', conditional: false },
      { id: 'delta', label: 'Change (B - A)', unit: '', description: 'b - a; in points for a `%` metric', conditional: false },
      { id: 'delta_percent', label: 'Change %', unit: '%', description: '100 × delta / a; null for a `%` metric and when a is 0', conditional: false },
    ],
    step_time_breakdown: [
      { id: 'category', label: 'Category key', unit: '', description: 'the step-time category', conditional: false },
      { id: 'label', label: 'Category', unit: '', description: '', conditional: false },
      { id: 'a_ms', label: 'A (ms)', unit: 'ms', description: 'A\'s average per step', conditional: false },
      { id: 'b_ms', label: 'B (ms)', unit: 'ms', description: 'B\'s average per step', conditional: false },
      { id: 'delta_ms', label: 'Change (ms)', unit: 'ms', description: 'b_ms - a_ms', conditional: false },
      { id: 'delta_percent', label: 'Change %', unit: '%', description: 'of a_ms; null when a_ms is 0', conditional: false },
      { id: 'a_percent', label: 'A % of step', unit: '%', description: 'share of A\'s step time', conditional: false },
      { id: 'b_percent', label: 'B % of step', unit: '%', description: 'share of B\'s step time', conditional: false },
    ],
    input_verdicts: [
      { id: 'side', label: 'Run', unit: '', description: '`a` or `b`', conditional: false },
      { id: 'label', label: 'Profile', unit: '', description: 'the side\'s label', conditional: false },
      { id: 'input_bound_percent', label: 'Input %', unit: '%', description: 'input share of step time; null without steps', conditional: false },
      { id: 'input_ms', label: 'Input (ms/step)', unit: 'ms', description: 'mean input time per step', conditional: false },
      { id: 'verdict', label: 'Input bound', unit: '', description: '`highly`, `moderately`, `not` or `unknown`', conditional: false },
      { id: 'classification', label: 'Bottleneck', unit: '', description: '`host`, `both`, `device` or `unknown`', conditional: false },
      { id: 'statement', label: 'Why', unit: '', description: 'as `input_pipeline_analyzer` words it', conditional: false },
    ],
    ops: [
      { id: 'host_or_device', label: 'Side', unit: '', description: '`host` or `device`', conditional: false },
      { id: 'name', label: 'Op', unit: '', description: '', conditional: false },
      { id: 'type', label: 'Type', unit: '', description: 'the op type (A\'s when both have it)', conditional: false },
      { id: 'change', label: 'In', unit: '', description: '`matched` (in both runs), `added` (only in B) or `removed` (only in A)', conditional: false },
      { id: 'a_self_time_ms', label: 'A self', unit: 'ms', description: 'A\'s self time on the time basis', conditional: false },
      { id: 'b_self_time_ms', label: 'B self', unit: 'ms', description: 'B\'s self time on the time basis', conditional: false },
      { id: 'delta_ms', label: 'Change', unit: 'ms', description: 'b - a, on the time basis', conditional: false },
      { id: 'delta_percent', label: 'Change %', unit: '%', description: 'of A\'s time; null when A has none (added)', conditional: false },
      { id: 'a_occurrences', label: 'A count', unit: 'count', description: 'occurrences in A over the whole profile', conditional: false },
      { id: 'b_occurrences', label: 'B count', unit: 'count', description: 'occurrences in B over the whole profile', conditional: false },
    ],
    kernels: [
      { id: 'kernel_name', label: 'Kernel', unit: '', description: '', conditional: false },
      { id: 'change', label: 'In', unit: '', description: '`matched` (in both runs), `added` (only in B) or `removed` (only in A)', conditional: false },
      { id: 'a_total_time_ms', label: 'A time', unit: 'ms', description: 'A\'s total kernel time on the time basis', conditional: false },
      { id: 'b_total_time_ms', label: 'B time', unit: 'ms', description: 'B\'s total kernel time on the time basis', conditional: false },
      { id: 'delta_ms', label: 'Change', unit: 'ms', description: 'b - a, on the time basis', conditional: false },
      { id: 'delta_percent', label: 'Change %', unit: '%', description: 'of A\'s time; null when A has none (added)', conditional: false },
      { id: 'a_launches', label: 'A launches', unit: 'count', description: 'launches in A over the whole profile', conditional: false },
      { id: 'b_launches', label: 'B launches', unit: 'count', description: 'launches in B over the whole profile', conditional: false },
    ],
  },
  check: {
    budgets: [
      { id: 'status', label: 'Result', unit: '', description: '`pass`, `fail` or `not_measured` (which fails too)', conditional: false },
      { id: 'key', label: 'Budget', unit: '', description: 'the budget key (`step_ms`, ...)', conditional: false },
      { id: 'label', label: 'Metric', unit: '', description: 'what the key measures', conditional: false },
      { id: 'bound', label: 'Bound', unit: '', description: '`max` (measured <= limit) or `min` (measured >= limit)', conditional: false },
      { id: 'limit', label: 'Limit', unit: '', description: 'the budget\'s bound, in the metric\'s unit', conditional: false },
      { id: 'measured', label: 'Measured', unit: '', description: 'the profile\'s value; null when it cannot give it', conditional: false },
      { id: 'unit', label: 'Unit', unit: '', description: '`ms`, `%` or `count`', conditional: false },
      { id: 'note', label: 'Note', unit: '', description: 'why not measured; empty otherwise', conditional: false },
    ],
  },
};
