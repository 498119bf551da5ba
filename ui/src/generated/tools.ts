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

/** Each declared tool's result, by tool id. */
export interface ToolResults {
  framework_op_stats: FrameworkOpStats;
  kernel_stats: KernelStatsResult;
  trace_viewer: TraceViewerSummary;
  hlo_stats: HloStatsResult;
  roofline_model: RooflineResult;
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
};
