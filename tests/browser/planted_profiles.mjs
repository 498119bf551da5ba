// Profiles for tests/browser/planted_html_test.mjs whose every name carries an HTML
// payload: a PyTorch (Kineto) trace JSON and an XSpace with host threads, TF ops, tf.data,
// memory events, two GPUs and an XLA program. Each payload names its field by a number (data-planted="N"), so a page
// that turns one into markup says which field it came from.
import { encodeHloProto, encodeXSpace, HEAP, ref, uint, XPlaneBuilder } from './xspace_writer.mjs';

// Hands out one payload per field and remembers which field has which number.
export class Plants {
  constructor() {
    this.fields = [];
  }

  // `<img src=x data-planted="N" onerror=...>`: an element if a page parses it as HTML
  // (found by its attribute), a counter bump if the page's CSP let its handler run.
  html(field) {
    const n = this.fields.push(field);
    return `<img src=x data-planted="${n}" onerror="window.__planted=(window.__planted||0)+1">`;
  }

  // The same without quotes, spaces or '/': for run and host names, which become
  // directory and file names and URL parameters.
  bare(field) {
    const n = this.fields.push(field);
    return `<img src=x data-planted=${n} onerror=window.__planted=(window.__planted||0)+1>`;
  }

  field(n) {
    return this.fields[Number(n) - 1] ?? `unknown field ${n}`;
  }
}

// ---------------------------------------------------------------------------------------
// PyTorch profiler (Kineto) trace JSON: every name field PyTorch writes, and the ones the
// importer reads besides (host_name, deviceProperties' names). Timestamps in µs.
// ---------------------------------------------------------------------------------------

const HOST_PID = 1;
const MAIN_TID = 1;
const LOADER_TID = 2;
const STEP_US = 1000;
const STEPS = 3;

export function kinetoTrace(plants) {
  const names = {
    hostProcess: plants.html('kineto process_name (host pid)'),
    mainThread: plants.html('kineto thread_name (main thread)'),
    loaderThread: plants.html('kineto thread_name (second host thread)'),
    deviceProcess: plants.html('kineto process_name (GPU pid)'),
    overheadProcess: plants.html('kineto process_name (pid -1, CUPTI overhead)'),
    overhead: plants.html('kineto overhead event name'),
    annotation: plants.html('kineto user_annotation name'),
    dataLoader: `enumerate(DataLoader)#${plants.html('kineto DataLoader user_annotation name')}`,
    python: plants.html('kineto python_function name'),
    op: `aten::${plants.html('kineto cpu_op name')}`,
    loaderOp: plants.html('kineto cpu_op name (second thread)'),
    runtime: `cudaLaunchKernel${plants.html('kineto cuda_runtime name')}`,
    kernel: plants.html('kineto kernel name (GPU 0)'),
    kernel1: plants.html('kineto kernel name (GPU 1)'),
    collective: `ncclDevKernel_AllReduce_Sum_f32_RING_LL${plants.html('kineto collective kernel name')}`,
    memcpy: `Memcpy HtoD (Pageable -> Device) ${plants.html('kineto gpu_memcpy name')}`,
    memset: `Memset (Device) ${plants.html('kineto gpu_memset name')}`,
    gpuAnnotation: plants.html('kineto gpu_user_annotation name'),
    device0: plants.html('kineto deviceProperties[0].name'),
    device1: plants.html('kineto deviceProperties[1].name'),
    host: plants.bare('kineto host_name'),
  };
  const events = [
    { ph: 'M', name: 'process_name', pid: HOST_PID, tid: 0, args: { name: names.hostProcess } },
    { ph: 'M', name: 'thread_name', pid: HOST_PID, tid: MAIN_TID, args: { name: names.mainThread } },
    { ph: 'M', name: 'thread_name', pid: HOST_PID, tid: LOADER_TID, args: { name: names.loaderThread } },
    { ph: 'M', name: 'process_name', pid: 0, tid: 0, args: { name: names.deviceProcess } },
    { ph: 'M', name: 'process_name', pid: -1, tid: 0, args: { name: names.overheadProcess } },
  ];
  const host = (cat, name, ts, dur, args = {}, tid = MAIN_TID) => events.push({ ph: 'X', cat, name, pid: HOST_PID, tid, ts, dur, args });
  const device = (cat, name, device, stream, ts, dur, args = {}) =>
    events.push({ ph: 'X', cat, name, pid: device, tid: stream, ts, dur, args: { device, stream, ...args } });
  let correlation = 1;
  let externalId = 1000;
  // A launch from the main thread and the device work it starts, joined by correlation id.
  const launch = (ts, work) => {
    const id = correlation++;
    host('cuda_runtime', names.runtime, ts, 5, { correlation: id, 'External id': externalId });
    work(id);
  };
  const kernelArgs = (id) => ({ correlation: id, 'External id': externalId, grid: [80, 1, 1], block: [256, 1, 1], 'registers per thread': 64, 'shared memory': 0 });
  for (let s = 0; s < STEPS; s++) {
    const t = s * STEP_US;
    // The step marker keeps PyTorch's own name: the payload goes in every other field.
    host('user_annotation', `ProfilerStep#${s + 1}`, t, STEP_US - 10);
    host('user_annotation', names.dataLoader, t + 5, 150);
    host('cpu_op', 'aten::pin_memory', t + 20, 100, { 'External id': ++externalId });
    launch(t + 160, (id) => device('gpu_memcpy', names.memcpy, 0, 7, t + 170, 40, { correlation: id, bytes: 1 << 20 }));
    host('user_annotation', names.annotation, t + 200, 700);
    host('python_function', names.python, t + 210, 600);
    host('cpu_op', names.op, t + 220, 500, { 'External id': ++externalId });
    launch(t + 230, (id) => device('kernel', names.kernel, 0, 7, t + 240, 300, kernelArgs(id)));
    launch(t + 240, (id) => device('kernel', names.kernel1, 1, 8, t + 250, 280, kernelArgs(id)));
    launch(t + 250, (id) => device('gpu_memset', names.memset, 0, 7, t + 560, 20, { correlation: id, bytes: 4096 }));
    launch(t + 260, (id) => device('kernel', names.collective, 0, 7, t + 600, 200, kernelArgs(id)));
    launch(t + 270, (id) => device('kernel', names.collective, 1, 8, t + 610, 190, kernelArgs(id)));
    device('gpu_user_annotation', names.gpuAnnotation, 0, 7, t + 240, 560);
    // PyTorch's allocator events (profile_memory=True) inside the op: the memory profile
    // charges them to it. The importer reads no name from them.
    for (const [dt, bytes] of [[300, 1 << 22], [400, 1 << 21], [650, -(1 << 22)]]) {
      events.push({
        ph: 'i', cat: 'cpu_instant_event', name: '[memory]', s: 't', pid: HOST_PID, tid: MAIN_TID, ts: t + dt,
        args: { 'Device Type': 1, 'Device Id': 0, Addr: 0x7f0000000000 + s * 0x100000 + dt, Bytes: bytes, 'Total Allocated': (1 << 23) + bytes, 'Total Reserved': 1 << 24 },
      });
    }
    host('cpu_op', names.loaderOp, t + 100, 600, { 'External id': ++externalId }, LOADER_TID);
    // CUPTI's own overhead, on pid -1: the importer names its line after that process.
    events.push({ ph: 'X', cat: 'overhead', name: names.overhead, pid: -1, tid: 0, ts: t + 900, dur: 20 });
  }
  const deviceProperties = [names.device0, names.device1].map((name, id) => ({
    id, name, totalGlobalMem: 16 * 2 ** 30, computeMajor: 8, computeMinor: 0, maxThreadsPerBlock: 1024, maxThreadsPerMultiprocessor: 2048,
    regsPerBlock: 65536, regsPerMultiprocessor: 65536, warpSize: 32, sharedMemPerBlock: 49152, sharedMemPerMultiprocessor: 167936, numSms: 108, sharedMemPerBlockOptin: 166912,
  }));
  return { schemaVersion: 1, host_name: names.host, deviceProperties, traceEvents: events };
}

// ---------------------------------------------------------------------------------------
// XSpace: /host:CPU with a training thread (steps, TF ops, launches, memory events) and an
// input thread (tf.data iterators), two GPUs whose kernels name TF ops and HLO ops, and
// the XLA program (HloProto in /host:metadata) those kernels ran.
// ---------------------------------------------------------------------------------------

const PS_PER_US = 1_000_000;
const PROGRAM_ID = 7;

// The XLA program: entry computation p0, p1 -> dot -> fusion(add) -> custom-call, with a
// buffer assignment and heap trace (memory viewer) and a schedule; every name (module,
// computations, instructions, op metadata, custom-call target) carries a payload.
function xlaProgram(plants) {
  const n = {
    module: `jit_${plants.html('HLO module name')}`,
    entry: `main.${plants.html('HLO entry computation name')}`,
    fused: `fused_computation.${plants.html('HLO fused computation name')}`,
    p0: `Arg_0.${plants.html('HLO parameter instruction name')}`,
    p1: 'Arg_1.1',
    dot: `dot.${plants.html('HLO dot instruction name')}`,
    fusion: `fusion.${plants.html('HLO fusion instruction name')}`,
    fusedParam: `param_0.${plants.html('HLO fused parameter name')}`,
    fusedAdd: `add.${plants.html('HLO fused add name')}`,
    custom: `custom-call.${plants.html('HLO custom-call instruction name')}`,
    target: plants.html('HLO custom_call_target'),
    opType: plants.html('HLO op_metadata.op_type'),
    opName: `jit(f)/${plants.html('HLO op_metadata.op_name')}/dot_general`,
    sourceFile: `${plants.html('HLO op_metadata.source_file')}.py`,
  };
  const shape = (...dims) => ({ dims });
  const module = {
    name: n.module,
    id: PROGRAM_ID,
    entry: 1,
    computations: [
      {
        id: 2, name: n.fused, fusion: true,
        instructions: [
          { id: 20, name: n.fusedParam, opcode: 'parameter', shape: shape(64, 32), parameterNumber: 0 },
          { id: 21, name: n.fusedAdd, opcode: 'add', shape: shape(64, 32), operands: [20, 20] },
        ],
      },
      {
        id: 1, name: n.entry,
        instructions: [
          { id: 10, name: n.p0, opcode: 'parameter', shape: shape(64, 128), parameterNumber: 0 },
          { id: 11, name: n.p1, opcode: 'parameter', shape: shape(128, 32), parameterNumber: 1 },
          {
            id: 12, name: n.dot, opcode: 'dot', shape: shape(64, 32), operands: [10, 11], dot: { lhs: [1], rhs: [0] },
            metadata: { opType: n.opType, opName: n.opName, sourceFile: n.sourceFile, sourceLine: 42 },
          },
          { id: 13, name: n.fusion, opcode: 'fusion', shape: shape(64, 32), operands: [12], called: [2], fusionKind: 'kLoop' },
          { id: 14, name: n.custom, opcode: 'custom-call', shape: shape(64, 32), operands: [13], customCallTarget: n.target },
        ],
      },
    ],
    schedule: { 1: [10, 11, 12, 13, 14] },
  };
  // Parameters live all program (allocations 0, 1), the output too (4); the dot's and the
  // fusion's results are temporaries of allocation 2, whose heap trace peaks with both.
  const buffers = {
    buffers: [
      { id: 1, size: 64 * 128 * 4, instruction: 10 },
      { id: 2, size: 128 * 32 * 4, instruction: 11 },
      { id: 3, size: 64 * 32 * 4, instruction: 12 },
      { id: 4, size: 64 * 32 * 4, instruction: 13 },
      { id: 5, size: 64 * 32 * 4, instruction: 14 },
    ],
    allocations: [
      { index: 0, size: 64 * 128 * 4, buffers: [1], flags: { entryParameter: true } },
      { index: 1, size: 128 * 32 * 4, buffers: [2], flags: { entryParameter: true } },
      { index: 2, size: 2 * 64 * 32 * 4, buffers: [3, 4] },
      { index: 3, size: 64 * 32 * 4, buffers: [5], flags: { liveOut: true } },
    ],
    heap: [
      {
        allocation: 2,
        events: [
          { kind: HEAP.ALLOC, buffer: 3, computation: n.entry, instruction: n.dot },
          { kind: HEAP.ALLOC, buffer: 4, computation: n.entry, instruction: n.fusion },
          { kind: HEAP.FREE, buffer: 3, computation: n.entry, instruction: n.fusion },
          { kind: HEAP.FREE, buffer: 4, computation: n.entry, instruction: n.custom },
        ],
      },
    ],
  };
  return { names: n, bytes: encodeHloProto({ module, buffers }) };
}

// The names both hosts of the XSpace run share.
export function xspaceNames(plants) {
  return {
    hlo: xlaProgram(plants),
    names: {
      mainThread: plants.html('XSpace host thread name (training)'),
      inputThread: plants.html('XSpace host thread name (input)'),
      step: plants.html('XSpace step marker name'),
      tfOp: `dense/${plants.html('XSpace TF op name scope')}:MatMul`,
      tfOpType: `loss/sum:${plants.html('XSpace TF op type')}`,
      statName: plants.html('XSpace event stat name'),
      statValue: plants.html('XSpace event stat string value'),
      kernel: `volta_sgemm_${plants.html('XSpace kernel name (TF op, GPU 0)')}`,
      kernel1: `volta_sgemm_${plants.html('XSpace kernel name (TF op, GPU 1)')}`,
      dotKernel: `gemm_${plants.html('XSpace kernel name (HLO dot)')}`,
      fusionKernel: `loop_add_${plants.html('XSpace kernel name (HLO fusion)')}`,
      customKernel: `cublas_${plants.html('XSpace kernel name (HLO custom-call)')}`,
      devices: [plants.html('XSpace gpu_device_name (GPU 0)'), plants.html('XSpace gpu_device_name (GPU 1)')],
      streams: [`Stream #7(${plants.html('XSpace stream line name (GPU 0)')})`, `Stream #7(${plants.html('XSpace stream line name (GPU 1)')})`],
      allocator: `GPU_0_bfc${plants.html('XSpace memory allocator_name')}`,
      region: plants.html('XSpace memory region_type'),
      shape: `[64,${plants.html('XSpace memory tensor shape')}]`,
      iterator: `Iterator::Prefetch::${plants.html('XSpace tf.data iterator name')}`,
      warning: plants.html('XSpace warning'),
    },
  };
}

// One host's XSpace, whose hostnames entry is `hostname`; its other names are `shared`
// (xspaceNames: both hosts of the run have the same program, threads and ops).
export function xspaceProfile({ hostname, shared }) {
  const hlo = shared.hlo;
  const n = shared.names;
  const host = new XPlaneBuilder({ id: 0, name: '/host:CPU' });
  const main = host.line({ id: 1, name: n.mainThread });
  const input = host.line({ id: 2, name: n.inputThread });
  const gpus = [0, 1].map((ordinal) => {
    const gpu = new XPlaneBuilder({ id: ordinal, name: `/device:GPU:${ordinal}` });
    gpu.stat('device_vendor', 'Nvidia').stat('gpu_device_name', n.devices[ordinal]).stat('compute_cap_major', 8).stat('compute_cap_minor', 0)
      .stat('clock_rate', 1410000).stat('core_count', 108).stat('memory_bandwidth', uint(1_555_000_000_000)).stat('memory_size', uint(40 * 2 ** 30));
    return { plane: gpu, stream: gpu.line({ id: 7, name: n.streams[ordinal] }) };
  });
  const us = (t) => t * PS_PER_US;
  let correlation = 1;
  // A launch on the training thread and its kernel on `gpu`, `kernelStats` besides the
  // correlation and launch details.
  const launch = (t, gpu, kernel, startUs, durUs, kernelStats) => {
    const id = correlation++;
    main.event('cudaLaunchKernel', us(t), us(5), { correlation_id: uint(id) });
    gpus[gpu].stream.event(kernel, us(startUs), us(durUs), {
      correlation_id: uint(id), kernel_details: ref('regs:32 static_shared:0 dynamic_shared:0 grid:80,1,1 block:256,1,1'), ...kernelStats,
    });
  };
  const hloKernel = (op) => ({ hlo_module: ref(hlo.names.module), program_id: PROGRAM_ID, hlo_op: ref(op) });
  const STEP = 1000;
  for (let s = 0; s < 3; s++) {
    const t = s * STEP;
    // TensorFlow's step marker: the name is free text, step_num and _r say it is a step.
    main.event(n.step, us(t), us(STEP - 10), { step_num: s + 1, _r: 1 });
    main.event('IteratorGetNextOp::DoCompute', us(t + 5), us(150));
    main.event(n.tfOp, us(t + 200), us(300), { [n.statName]: n.statValue });
    launch(t + 210, 0, n.kernel, t + 220, 200, { tf_op: ref(n.tfOp) });
    launch(t + 220, 1, n.kernel1, t + 230, 190, { tf_op: ref(n.tfOp) });
    main.event(n.tfOpType, us(t + 520), us(100));
    launch(t + 530, 0, n.dotKernel, t + 540, 60, hloKernel(hlo.names.dot));
    launch(t + 540, 0, n.fusionKernel, t + 610, 40, hloKernel(hlo.names.fusion));
    launch(t + 550, 0, n.customKernel, t + 660, 30, hloKernel(hlo.names.custom));
    launch(t + 560, 1, n.dotKernel, t + 570, 60, hloKernel(hlo.names.dot));
    // The allocator's events inside the op, as TensorFlow's BFC allocator writes them.
    for (const [dt, name, bytes, inUse] of [[230, 'MemoryAllocation', 1 << 20, 3 << 20], [260, 'MemoryAllocation', 1 << 19, 3.5 * (1 << 20)], [480, 'MemoryDeallocation', 1 << 20, 2.5 * (1 << 20)]]) {
      main.event(name, us(t + dt), 0, {
        allocator_name: n.allocator, bytes_reserved: 0, bytes_allocated: inUse, bytes_available: 1 << 30, peak_bytes_in_use: 4 << 20,
        requested_bytes: bytes, allocation_bytes: bytes, addr: uint(0x7f00_0000 + s * 4096 + dt), tf_op: n.tfOp, region_type: n.region,
        data_type: 1, shape: n.shape, group_id: s + 1,
      });
    }
    // A synchronous tf.data pipeline on the input thread: prefetch over a stage.
    input.event('Iterator::Prefetch', us(t + 10), us(140), { id: 1, parent_id: 0 });
    input.event(n.iterator, us(t + 20), us(100), { id: 2, parent_id: 1 });
  }
  const metadata = new XPlaneBuilder({ id: 99, name: '/host:metadata' });
  metadata.eventMetadata(`${hlo.names.module}(${PROGRAM_ID})`, { stats: { 'Hlo Proto': hlo.bytes } });
  return encodeXSpace({ planes: [host, ...gpus.map((g) => g.plane), metadata], hostnames: [hostname], warnings: [n.warning] });
}
