// Time and colour helpers of the trace viewer.

// "1.25 ms", "830 µs", "12.4 ns", "40 ps": picoseconds in the unit that reads best.
export function formatPs(ps: number, digits = 3): string {
  const abs = Math.abs(ps);
  const fmt = (value: number, unit: string) => `${Number(value.toPrecision(Math.max(1, digits + 1)))} ${unit}`;
  if (abs >= 1e12) return fmt(ps / 1e12, 's');
  if (abs >= 1e9) return fmt(ps / 1e9, 'ms');
  if (abs >= 1e6) return fmt(ps / 1e6, 'µs');
  if (abs >= 1e3) return fmt(ps / 1e3, 'ns');
  return `${Math.round(ps)} ps`;
}

// Axis tick spacing: 1, 2 or 5 times a power of ten, at least `minPs` apart.
export function niceStep(minPs: number): number {
  const power = Math.pow(10, Math.floor(Math.log10(Math.max(minPs, 1))));
  for (const m of [1, 2, 5, 10]) {
    if (m * power >= minPs) return m * power;
  }
  return 10 * power;
}

// A tick label: the time in the unit of its magnitude ("1.8021 s", "350 µs"), with just
// enough decimals to tell ticks `stepPs` apart.
export function formatTick(ps: number, stepPs: number): string {
  const units: [number, string][] = [
    [1e12, 's'],
    [1e9, 'ms'],
    [1e6, 'µs'],
    [1e3, 'ns'],
    [1, 'ps'],
  ];
  const magnitude = Math.max(Math.abs(ps), stepPs);
  const [scale, unit] = units.find(([s]) => magnitude >= s) ?? [1, 'ps'];
  const decimals = Math.max(0, Math.ceil(-Math.log10(stepPs / scale) - 1e-9));
  return `${(ps / scale).toFixed(Math.min(decimals, 9))} ${unit}`;
}

// A shorter label for long C++ names: "void " and template arguments go first
// ("void Eigen::Kernel<Eigen::TensorMap<...>>" -> "Eigen::Kernel<…>").
export function shortName(name: string): string {
  let out = name.startsWith('void ') ? name.slice(5) : name;
  const open = out.indexOf('<');
  if (open > 0) {
    let depth = 0;
    let close = -1;
    for (let i = open; i < out.length; i++) {
      if (out[i] === '<') depth++;
      else if (out[i] === '>' && --depth === 0) {
        close = i;
        break;
      }
    }
    if (close > open + 1) out = `${out.slice(0, open)}<…>${out.slice(close + 1)}`;
  }
  return out;
}

// Stable colours per event name (as chrome://tracing does): a hue from the name's hash,
// in a muted palette that keeps dark text readable.
const PALETTE = [
  '#8ab4f8', '#81c995', '#fdd663', '#f28b82', '#c58af9', '#78d9ec', '#fcad70', '#ff8bcb',
  '#a8dab5', '#aecbfa', '#e6c9a8', '#d7aefb', '#9fc3ad', '#f6aea9', '#c6dafc', '#fde293',
];

const colourCache = new Map<string, string>();

export function nameColour(name: string): string {
  let colour = colourCache.get(name);
  if (colour) return colour;
  // Names that differ only in numbers (layer_3 vs layer_4) share a colour.
  const key = name.replace(/[0-9]+/g, '#');
  let hash = 2166136261;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  colour = PALETTE[(hash >>> 0) % PALETTE.length];
  if (colourCache.size > 20000) colourCache.clear();
  colourCache.set(name, colour);
  return colour;
}
