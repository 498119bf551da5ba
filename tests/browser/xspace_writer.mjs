// A minimal XSpace protobuf encoder for the browser tests: enough to write a host profile
// with some events and no step markers (the "no steps" empty state). Field numbers are
// those of proto/stepscope/xplane.proto.

function varint(value) {
  let v = BigInt(value);
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

// events: [{ name, offsetPs, durationPs }] on one thread of /host:CPU.
export function encodeHostOnlyXSpace({ hostname, threadName, events }) {
  const names = [...new Set(events.map((e) => e.name))];
  const idOf = new Map(names.map((n, i) => [n, i + 1]));
  const eventBytes = events.map((e) =>
    bytesField(4, Buffer.concat([intField(1, idOf.get(e.name)), intField(2, e.offsetPs), intField(3, e.durationPs)])),
  );
  const line = Buffer.concat([intField(1, 1), stringField(2, threadName), intField(3, 0), ...eventBytes]);
  const metadata = names.map((n) =>
    // map<int64, XEventMetadata> entry: key = 1, value = 2.
    bytesField(4, Buffer.concat([intField(1, idOf.get(n)), bytesField(2, Buffer.concat([intField(1, idOf.get(n)), stringField(2, n)]))])),
  );
  const plane = Buffer.concat([intField(1, 0), stringField(2, '/host:CPU'), bytesField(3, line), ...metadata]);
  return Buffer.concat([bytesField(1, plane), stringField(4, hostname)]);
}
