// A minimal XSpace and xla.HloProto protobuf encoder for the browser tests: enough to write
// host profiles (threads, steps, ops, memory events), device planes with kernels, and an
// XLA program for the HLO pages. Field numbers are those of proto/stepscope/xplane.proto
// and proto/stepscope/hlo.proto.

// A varint; negative int64 values as their 64-bit two's complement (ten bytes), as
// protobuf writes them.
function varint(value) {
  let v = BigInt.asUintN(64, BigInt(value));
  const out = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return Buffer.from(out);
}

const key = (field, wireType) => varint((field << 3) | wireType);
const intField = (field, value) => Buffer.concat([key(field, 0), varint(value)]);
const bytesField = (field, bytes) => Buffer.concat([key(field, 2), varint(bytes.length), bytes]);
const stringField = (field, text) => bytesField(field, Buffer.from(text, 'utf8'));
const messageField = (field, parts) => bytesField(field, Buffer.concat(parts));
function doubleField(field, value) {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleLE(value);
  return Buffer.concat([key(field, 1), bytes]);
}
// Repeated scalars unpacked (one field per value): every protobuf parser accepts that.
const intFields = (field, values = []) => values.map((v) => intField(field, v));

// ---------------------------------------------------------------------------------------
// XSpace
// ---------------------------------------------------------------------------------------

// Stat values other than int64 (a JS integer), double (a non-integer number), string and
// bytes (a Buffer): a uint64, and a string interned as stat metadata (XStat.ref_value).
export const uint = (value) => ({ uint: value });
export const ref = (text) => ({ ref: text });
export const double = (value) => ({ double: value });

// One XPlane, built by name as TensorFlow's XPlaneBuilder does: event and stat metadata ids
// are handed out from 1 per plane, the first time a name is used.
export class XPlaneBuilder {
  constructor({ id = 0, name }) {
    this.id = id;
    this.name = name;
    this.events = new Map();  // event metadata by name: { id, displayName, stats }
    this.statIds = new Map();  // stat metadata id by name
    this.lines = [];
    this.stats = [];
  }

  statId(name) {
    if (!this.statIds.has(name)) this.statIds.set(name, this.statIds.size + 1);
    return this.statIds.get(name);
  }

  // The metadata of events named `name`; `displayName` and `stats` (constant for every
  // event of it, e.g. the "Hlo Proto" of a module) are set on first use.
  eventMetadata(name, { displayName, stats } = {}) {
    if (!this.events.has(name)) this.events.set(name, { id: this.events.size + 1, displayName, stats: stats ?? {} });
    return this.events.get(name).id;
  }

  // A line (thread, stream); add events with line.event(name, offsetPs, durationPs, stats).
  line({ id, name, timestampNs = 0 }) {
    const line = { id, name, timestampNs, events: [] };
    line.event = (eventName, offsetPs, durationPs, stats = {}) => {
      line.events.push({ metadataId: this.eventMetadata(eventName), offsetPs, durationPs, stats });
      return line;
    };
    this.lines.push(line);
    return line;
  }

  // A plane-level stat (device capabilities and the like).
  stat(name, value) {
    this.stats.push([name, value]);
    return this;
  }

  encodeStat(name, value) {
    const parts = [intField(1, this.statId(name))];
    if (Buffer.isBuffer(value)) parts.push(bytesField(6, value));
    else if (typeof value === 'string') parts.push(stringField(5, value));
    else if (typeof value === 'number' && Number.isInteger(value)) parts.push(intField(4, value));
    else if (typeof value === 'number') parts.push(doubleField(2, value));
    else if ('double' in value) parts.push(doubleField(2, value.double));
    else if ('uint' in value) parts.push(intField(3, value.uint));
    else if ('ref' in value) parts.push(intField(7, this.statId(value.ref)));
    else throw new Error(`stat ${name}: no encoding for ${JSON.stringify(value)}`);
    return parts;
  }

  encodeStats(field, stats) {
    const entries = Array.isArray(stats) ? stats : Object.entries(stats);
    return entries.map(([name, value]) => messageField(field, this.encodeStat(name, value)));
  }

  encode() {
    const lines = this.lines.map((line) =>
      messageField(3, [
        intField(1, line.id),
        stringField(2, line.name),
        intField(3, line.timestampNs),
        ...line.events.map((e) =>
          messageField(4, [intField(1, e.metadataId), intField(2, e.offsetPs), intField(3, e.durationPs), ...this.encodeStats(4, e.stats)]),
        ),
      ]),
    );
    const planeStats = this.encodeStats(6, this.stats);
    // Event metadata before stat metadata: encoding their stats may intern ref values.
    const eventMetadata = [...this.events].map(([name, m]) =>
      // map<int64, XEventMetadata> entry: key = 1, value = 2.
      messageField(4, [
        intField(1, m.id),
        messageField(2, [intField(1, m.id), stringField(2, name), ...(m.displayName ? [stringField(4, m.displayName)] : []), ...this.encodeStats(5, m.stats)]),
      ]),
    );
    const statMetadata = [...this.statIds].map(([name, id]) => messageField(5, [intField(1, id), messageField(2, [intField(1, id), stringField(2, name)])]));
    return messageField(1, [intField(1, this.id), stringField(2, this.name), ...lines, ...eventMetadata, ...statMetadata, ...planeStats]);
  }
}

// An XSpace of `planes` (XPlaneBuilders) from `hostnames`, with `warnings`.
export function encodeXSpace({ planes, hostnames = [], warnings = [] }) {
  return Buffer.concat([...planes.map((p) => p.encode()), ...warnings.map((w) => stringField(3, w)), ...hostnames.map((h) => stringField(4, h))]);
}

// events: [{ name, offsetPs, durationPs }] on one thread of /host:CPU.
export function encodeHostOnlyXSpace({ hostname, threadName, events }) {
  const plane = new XPlaneBuilder({ id: 0, name: '/host:CPU' });
  const line = plane.line({ id: 1, name: threadName });
  for (const e of events) line.event(e.name, e.offsetPs, e.durationPs);
  return encodeXSpace({ planes: [plane], hostnames: [hostname] });
}

// ---------------------------------------------------------------------------------------
// xla.HloProto
// ---------------------------------------------------------------------------------------

// PrimitiveType values of hlo.proto the tests use.
export const F32 = 11;

// ShapeProto of an array: { type, dims } with the default (row-major) layout.
function encodeShape({ type = F32, dims = [] }) {
  const minorToMajor = dims.map((_, i) => dims.length - 1 - i);
  return [intField(2, type), ...intFields(3, dims), messageField(5, intFields(1, minorToMajor))];
}

// HloInstructionProto: { id, name, opcode, shape, operands, called, fusionKind,
// customCallTarget, metadata: { opType, opName, sourceFile, sourceLine }, dot: { lhs, rhs } }.
function encodeInstruction(i) {
  const parts = [stringField(1, i.name), stringField(2, i.opcode), messageField(3, encodeShape(i.shape))];
  if (i.metadata) {
    const m = i.metadata;
    parts.push(messageField(7, [
      ...(m.opType ? [stringField(1, m.opType)] : []),
      ...(m.opName ? [stringField(2, m.opName)] : []),
      ...(m.sourceFile ? [stringField(3, m.sourceFile), intField(4, m.sourceLine ?? 1)] : []),
    ]));
  }
  if (i.parameterNumber !== undefined) parts.push(intField(9, i.parameterNumber));
  if (i.fusionKind) parts.push(stringField(11, i.fusionKind));
  if (i.customCallTarget) parts.push(stringField(28, i.customCallTarget));
  if (i.dot) parts.push(messageField(30, [...intFields(1, i.dot.lhs), ...intFields(2, i.dot.rhs)]));
  parts.push(intField(35, i.id), ...intFields(36, i.operands), ...intFields(38, i.called));
  return parts;
}

// LogicalBufferProto.Location and HeapSimulatorTrace.Event kinds.
export const HEAP = { ALLOC: 0, FREE: 1 };

// HloProto of `module` ({ name, id, entry, computations: [{ id, name, instructions,
// fusion }], schedule: { computationId: [instruction ids] } }) and its buffer assignment
// ({ buffers: [{ id, size, instruction }], allocations: [{ index, size, buffers, flags }],
// heap: [{ allocation, events: [{ kind, buffer, computation, instruction }] }] }).
export function encodeHloProto({ module, buffers }) {
  const computations = module.computations.map((c) =>
    messageField(3, [
      stringField(1, c.name),
      ...c.instructions.map((i) => messageField(2, encodeInstruction(i))),
      intField(5, c.id),
      intField(6, c.instructions.at(-1).id),
      ...(c.fusion ? [intField(7, 1)] : []),
    ]),
  );
  const schedule = Object.entries(module.schedule ?? {}).map(([computation, ids]) =>
    // map<int64, InstructionSequence> entry: key = 1, value = 2.
    messageField(1, [intField(1, Number(computation)), messageField(2, intFields(1, ids))]),
  );
  const entry = module.computations.find((c) => c.id === module.entry);
  const hloModule = messageField(1, [
    stringField(1, module.name),
    stringField(2, entry.name),
    ...computations,
    intField(5, module.id),
    intField(6, module.entry),
    ...(schedule.length ? [messageField(7, schedule)] : []),
  ]);
  if (!buffers) return hloModule;
  const FLAGS = { entryParameter: 5, liveOut: 7, constant: 12, threadLocal: 3 };
  const assignment = [
    ...buffers.buffers.map((b) => messageField(1, [intField(1, b.id), intField(2, b.size), messageField(3, [intField(4, b.instruction)])])),
    ...buffers.allocations.map((a) =>
      messageField(3, [
        intField(1, a.index),
        intField(2, a.size),
        ...Object.entries(a.flags ?? {}).filter(([, on]) => on).map(([flag]) => intField(FLAGS[flag], 1)),
        ...a.buffers.map((id) => messageField(9, [intField(1, id)])),
      ]),
    ),
    ...buffers.heap.map((trace) =>
      messageField(4, [
        ...trace.events.map((e) =>
          messageField(1, [intField(1, e.kind), intField(2, e.buffer), stringField(3, e.computation), stringField(4, e.instruction)]),
        ),
        intField(3, trace.allocation),
      ]),
    ),
  ];
  return Buffer.concat([hloModule, messageField(3, assignment)]);
}
