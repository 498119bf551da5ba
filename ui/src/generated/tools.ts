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

export interface OpPlacement {
  /** self time of framework ops that launched no device work */
  host_time_ms: number;
  /** device op self time */
  device_time_ms: number;
  host_percent: number;
  device_percent: number;
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

export interface FrameworkOpStats {
  tool: 'framework_op_stats';
  /** the framework the profile comes from: `tensorflow`, `jax`, `pytorch`, `stepscope` (the C++ recording API) or `unknown` */
  framework: string;
  /** the framework's name for people ("PyTorch") */
  framework_label: string;
  /** what decided the framework, in words ("PyTorch operators such as aten::addmm") */
  framework_evidence: string;
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
  timeRangePs?: MemoryTimeRange | null;
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

export interface MemoryProfile {
  tool: 'memory_profile';
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
  timeRangePs?: MemoryTimeRange | null;
  /** every memory id's `activeAllocations` resolved to the snapshot or special row each points at */
  breakdown: MemoryBreakdownRow[];
  /** in words: frees without an allocation, addresses allocated twice without a free, allocations not freed by the end, no events in the asked step or time range */
  diagnostics: string[];
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

/** Each declared tool's result, by tool id. */
export interface ToolResults {
  framework_op_stats: FrameworkOpStats;
  kernel_stats: KernelStatsResult;
  trace_viewer: TraceViewerSummary;
  memory_profile: MemoryProfile;
  hlo_stats: HloStatsResult;
  roofline_model: RooflineResult;
  memory_viewer: MemoryViewerResult;
  graph_viewer: GraphViewerResult;
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

/** Every declared table's columns, by tool id and table name. */
export const TOOL_COLUMNS: Record<string, Record<string, ColumnDecl[]>> = {
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
};
