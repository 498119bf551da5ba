// Number and text formatting shared by every page.

// Text for the HTML that echarts tooltips render: every name from a profile goes through
// this (an op named "<img onerror=...>" is text, not markup).
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

export function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

export function isNum(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

// "12.3 ms", "850 µs", "1.25 s": milliseconds in the unit that reads best.
export function formatMs(ms: unknown): string {
  if (!isNum(ms)) return '–';
  const abs = Math.abs(ms);
  if (abs >= 1000) return `${(ms / 1000).toFixed(abs >= 10000 ? 1 : 2)} s`;
  if (abs >= 1) return `${ms.toFixed(abs >= 100 ? 1 : 2)} ms`;
  if (abs >= 0.001) return `${(ms * 1000).toFixed(abs >= 0.1 ? 0 : 1)} µs`;
  if (ms === 0) return '0 ms';
  return `${(ms * 1e6).toFixed(0)} ns`;
}

export function formatPercent(value: unknown, digits = 1): string {
  return isNum(value) ? `${value.toFixed(digits)}%` : '–';
}

export function formatCount(value: unknown): string {
  return isNum(value) ? Math.round(value).toLocaleString('en-US') : '–';
}

export function formatBytes(bytes: unknown): string {
  if (!isNum(bytes)) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

// A cell of a table, by column type and id.
export function formatCell(value: unknown, type: string, columnId: string): string {
  if (value === null || value === undefined) return '–';
  if (type === 'bool' || typeof value === 'boolean') return value ? 'yes' : 'no';
  if (type === 'int' && isNum(value)) return formatCount(value);
  if ((type === 'double' || typeof value === 'number') && isNum(value)) {
    if (columnId.endsWith('percent') || columnId.endsWith('_pct')) return `${value.toFixed(1)}%`;
    if (columnId.endsWith('_ms') || columnId.endsWith('_us')) {
      return value.toLocaleString('en-US', { minimumFractionDigits: 3, maximumFractionDigits: 3 });
    }
    return value.toLocaleString('en-US', { maximumFractionDigits: 3 });
  }
  return String(value);
}

// "total_self_time_ms" -> "Total self time (ms)" when the server gives no label.
export function humanize(id: string): string {
  const units: Record<string, string> = { ms: '(ms)', us: '(µs)', ps: '(ps)', percent: '%', bytes: '(bytes)' };
  const parts = id.split('_');
  const last = parts[parts.length - 1];
  let suffix = '';
  if (last in units && parts.length > 1) {
    suffix = ` ${units[last]}`;
    parts.pop();
  }
  const text = parts.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1) + suffix;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}
