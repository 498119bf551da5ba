// Shortened labels that keep what identifies them. A name too long for its place keeps
// its head and its tail with "…" for the middle: run names differ at the end
// ("…num_workers_0" / "…num_workers_4"), device names at both ends ("rank1:/device:GPU:1"),
// op paths in their last scopes. Cutting the end instead (CSS text-overflow) made
// different names read the same. Every shortened label shows its full name on hover (the
// caller sets the title), and labels shown together stay distinct: where two names would
// shorten to one label, both are widened until they differ.
//
// The string functions have no imports, so tests/browser/elide_test.mjs can load this
// file alone; the DOM ones (fitElided, elidedGroup) need a document.

export const ELLIPSIS = '…';

// The head's share of the kept characters: the tail (the op, the rank, the run's
// variant) tells names apart more often than the head does.
const HEAD_SHARE = 0.4;

// Characters that separate the parts of a name (scopes, namespaces, arguments): the part
// kept around a difference extends to them, so it reads "/layer_17/", not "_17/".
const SEPARATORS = new Set(['/', ':', ' ', ',', '<', '>', '(', ')', '#']);
// `text` with its middle replaced by "…" so that it has at most `maxChars` characters
// (code points, so a surrogate pair is never split); unchanged when it fits. The tail
// starts at a separator where one is near ("…/GatherV2/Cast", not "…herV2/Cast"); the
// head takes the characters that frees.
export function elideMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  // Code points only where there are surrogate pairs: splitting every name costs time in a
  // column of 100,000.
  const points = SURROGATE.test(text) ? Array.from(text) : null;
  const length = points ? points.length : text.length;
  if (length <= maxChars) return text;
  const at = (i: number) => (points ? points[i] : text[i]);
  const slice = (from: number, to?: number) => (points ? points.slice(from, to).join('') : text.slice(from, to));
  const kept = Math.max(1, Math.floor(maxChars) - 1);
  let head = Math.floor(kept * HEAD_SHARE);
  let tailStart = length - (kept - head);
  for (let j = tailStart; j < length - 1 && j - tailStart <= (length - tailStart) / 2; j++) {
    if (SEPARATORS.has(at(j))) {
      head += j - tailStart;
      tailStart = j;
      break;
    }
  }
  return slice(0, head) + ELLIPSIS + slice(tailStart);
}

const SURROGATE = /[\uD800-\uDFFF]/;

// A label that keeps parts around its differences keeps at least this much of its head.
const MIN_HEAD_CHARS = 6;
// A window never grows past this many characters on either side of the difference.
const MAX_WINDOW_SIDE = 24;

// For each of `texts` (different), where it first differs from the most similar other
// one (its longest common prefix with another): in sorted order that is a neighbour, so
// a group of thousands costs a sort, not every pair.
function firstDifferences(texts: string[]): Map<string, number> {
  const sorted = [...texts].sort();
  const common = (a: string, b: string) => {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return i;
  };
  const at = new Map<string, number>();
  sorted.forEach((t, i) => {
    const before = i > 0 ? common(t, sorted[i - 1]) : 0;
    const after = i + 1 < sorted.length ? common(t, sorted[i + 1]) : 0;
    at.set(t, Math.min(Math.max(before, after), t.length - 1));
  });
  return at;
}

// The part of `text` around index `at` (where it differs from a name it would otherwise
// read the same as), from separator to separator: [from, to).
function windowAround(text: string, at: number): [number, number] {
  // Differing at a separator ("layer_1/" against "layer_17/"): the part that ended there.
  if (at > 0 && SEPARATORS.has(text[at])) at--;
  let from = at;
  while (from > 0 && at - from < MAX_WINDOW_SIDE && !SEPARATORS.has(text[from - 1])) from--;
  if (from > 0) from--; // the separator itself reads better
  let to = at + 1;
  while (to < text.length && to - at < MAX_WINDOW_SIDE && !SEPARATORS.has(text[to])) to++;
  if (to < text.length) to++;
  return [from, to];
}

// `text` in about `maxChars` characters: its head, the parts `kept` (where it differs from
// names it would otherwise read the same as) and its tail, "…" for each gap:
// "replica_6/b…/layer_17/…/RandomUniform". The kept parts stay even where that makes
// the label longer than maxChars.
function elideKeeping(text: string, maxChars: number, kept: [number, number][]): string {
  if (!kept.length) return elideMiddle(text, maxChars);
  const parts = [...kept].sort((a, b) => a[0] - b[0]);
  const keptChars = parts.reduce((sum, [from, to]) => sum + to - from, 0);
  const rest = Math.max(2, maxChars - keptChars - parts.length - 1);
  // The head keeps a few characters even then: "v…" says nothing.
  const head = Math.max(MIN_HEAD_CHARS, Math.floor(rest * HEAD_SHARE));
  // The tail keeps at least the name's last part (the op of a scoped name).
  let lastPart = text.length - 1;
  while (lastPart > 0 && text.length - lastPart < MAX_WINDOW_SIDE && !SEPARATORS.has(text[lastPart - 1])) lastPart--;
  const tail = Math.max(rest - head, text.length - lastPart);
  const ranges: [number, number][] = [[0, head], ...parts, [Math.max(0, text.length - tail), text.length]];
  // Merge what overlaps or touches; "…" between the rest.
  const merged: [number, number][] = [];
  for (const [from, to] of ranges) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  const label = merged.map(([from, to]) => text.slice(from, to)).join(ELLIPSIS);
  return label.length < text.length ? label : text;
}

// Groups of different texts whose labels are equal.
function collisions(labels: Map<string, string>): string[][] {
  const byLabel = new Map<string, string[]>();
  for (const [t, label] of labels) {
    const group = byLabel.get(label);
    if (group) group.push(t);
    else byLabel.set(label, [t]);
  }
  return [...byLabel.values()].filter((group) => group.length > 1);
}

// Labels for `texts`, one per text, in order: each elided to the characters `startChars`
// gives it. Where different texts would read the same, each also keeps the part where it
// differs from the nearest of them (a scope, a rank), round after round; a text whose
// label that does not change is widened by a quarter instead, until the labels differ
// or are whole. Equal texts get equal labels.
function distinctBy(texts: string[], startChars: (text: string) => number): string[] {
  const labels = new Map<string, string>();
  for (const t of texts) if (!labels.has(t)) labels.set(t, elideMiddle(t, startChars(t)));
  // What a text that collided has been given: its width and the parts it keeps.
  const chars = new Map<string, number>();
  const kept = new Map<string, [number, number][]>();
  for (let round = 0; round < 64; round++) {
    let changed = false;
    for (const group of collisions(labels)) {
      const differences = firstDifferences(group);
      for (const t of group) {
        if (labels.get(t) === t) continue; // whole already
        if (!chars.has(t)) chars.set(t, startChars(t));
        const parts = kept.get(t) ?? [];
        parts.push(windowAround(t, differences.get(t)!));
        kept.set(t, parts);
        let label = elideKeeping(t, chars.get(t)!, parts);
        if (label === labels.get(t)) {
          chars.set(t, Math.max(chars.get(t)! + 2, Math.ceil(chars.get(t)! * 1.25)));
          label = elideKeeping(t, chars.get(t)!, parts);
        }
        labels.set(t, label);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return texts.map((t) => labels.get(t)!);
}

// Labels of at most `maxChars` characters for names shown together (a table column, a
// selector), distinct where the names are.
export function distinctElided(texts: string[], maxChars: number): string[] {
  return distinctBy(texts, () => maxChars);
}

// How wide a text is drawn in a font: a width in px.
export type Measure = (text: string) => number;

// The most characters of `text` whose middle elision fits `widthPx`.
function fittingChars(text: string, widthPx: number, measure: Measure): number {
  const length = Array.from(text).length;
  if (measure(text) <= widthPx) return length;
  let low = 1;
  let high = length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (measure(elideMiddle(text, mid)) <= widthPx) low = mid;
    else high = mid - 1;
  }
  return low;
}

// Labels for names shown together in boxes `widthPx` wide: each as much of its head and
// tail as fits, distinct where the names are (a widened label may then not fit: the
// caller lets it wrap).
export function distinctFitted(texts: string[], widthPx: number, measure: Measure): string[] {
  return distinctBy(texts, (t) => fittingChars(t, widthPx, measure));
}

let canvasContext: CanvasRenderingContext2D | null = null;

// A Measure for a CSS font ("12px Roboto Mono"): the canvas draws text as the page does.
export function measureFor(font: string): Measure {
  canvasContext ??= document.createElement('canvas').getContext('2d');
  const context = canvasContext;
  if (!context) return (text) => text.length * 8; // no canvas: a wide estimate
  const widths = new Map<string, number>();
  return (text) => {
    let width = widths.get(text);
    if (width === undefined) {
      context.font = font;
      width = context.measureText(text).width;
      widths.set(text, width);
    }
    return width;
  };
}

// The font an element's text is drawn in, as canvas takes it.
export function fontOf(element: Element): string {
  const style = getComputedStyle(element);
  return style.font || `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
}

// Fits every label of `group` (elements with data-elide = the text to show, set by
// elidedLabel) to its box: as much head and tail as fits, distinct within the group; a
// label widened for that wraps rather than being cut.
export function fitElided(group: HTMLElement): void {
  const items = [...group.querySelectorAll<HTMLElement>('[data-elide]')];
  if (!items.length) return;
  // The whole texts first (a box sized by its content grows back to them), then every
  // width, then the labels: one layout for the whole group.
  for (const item of items) if (item.textContent !== item.dataset.elide) item.textContent = item.dataset.elide!;
  const widths = items.map((item) => item.clientWidth);
  const width = Math.min(...widths.filter((w) => w > 0));
  if (!Number.isFinite(width)) return; // not laid out yet
  const measure = measureFor(fontOf(items[0]));
  const labels = distinctFitted(items.map((item) => item.dataset.elide!), width, measure);
  items.forEach((item, i) => {
    if (item.textContent !== labels[i]) item.textContent = labels[i];
    item.classList.toggle('elide-wrap', measure(labels[i]) > width);
  });
}

// Created on first use: this file also loads where there is no DOM (its unit test).
let groups: ResizeObserver | null = null;
// Observed elements that have been in the document: gone from it again, they are let go
// (one observed before it is attached is reported once while still detached).
const shown = new WeakSet<Element>();

// Marks `container` as a group of labels fitted to their boxes (fitElided), again
// whenever it is resized; the first fit comes once it is laid out.
export function elidedGroup<T extends HTMLElement>(container: T): T {
  container.dataset.elideGroup = '';
  groups ??= new ResizeObserver((entries) => {
    for (const entry of entries) {
      if (entry.target.isConnected) {
        shown.add(entry.target);
        fitElided(entry.target as HTMLElement);
      } else if (shown.has(entry.target)) {
        // A group of a page that was replaced (it reports its size as 0 once gone): let it go.
        groups?.unobserve(entry.target);
      }
    }
  });
  groups.observe(container);
  return container;
}

// A label inside an elidedGroup: shows `text` fitted to its box, `title` on hover.
export function elidedLabel(tag: 'span' | 'div', className: string, text: string, title: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = `elide ${className}`;
  node.dataset.elide = text;
  node.textContent = text;
  node.title = title;
  return node;
}

// What `select` draws besides its text (padding, border, the arrow), px: measured on an
// unconstrained copy holding only `text` (its widest option: a select is never narrower
// than its own minimum), so it is the browser's own, whatever the style.
function selectChromePx(select: HTMLSelectElement, measure: Measure, text: string): number {
  const probe = select.cloneNode(false) as HTMLSelectElement;
  probe.append(new Option(text));
  probe.removeAttribute('id');
  probe.style.cssText = 'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none';
  (select.parentElement ?? document.body).append(probe);
  const chrome = probe.offsetWidth - measure(text);
  probe.remove();
  return chrome;
}

// Fits the options of `select` to its width: each shows the head and tail of its text,
// distinct from the others, the whole text on hover (and the selected one's on the
// select). A select cuts an option's end, which made "…num_workers_0" and
// "…num_workers_4" one name. Run again after the options change.
export function fitSelect(select: HTMLSelectElement): void {
  const options = [...select.options];
  const full = options.map((o) => (o.dataset.full ??= o.textContent ?? ''));
  if (select.offsetWidth > 0 && options.length) {
    const measure = measureFor(fontOf(select));
    const widest = full.reduce((a, b) => (measure(b) > measure(a) ? b : a), '');
    const labels = distinctFitted(full, select.offsetWidth - selectChromePx(select, measure, widest), measure);
    options.forEach((o, i) => {
      if (o.textContent !== labels[i]) o.textContent = labels[i];
      o.title = full[i];
    });
  }
  select.title = full[select.selectedIndex] ?? '';
  if (!select.dataset.fitted) {
    select.dataset.fitted = '';
    select.addEventListener('change', () => (select.title = select.options[select.selectedIndex]?.dataset.full ?? ''));
  }
}

// Created on first use, as `groups`.
let selects: ResizeObserver | null = null;

// A select whose options are fitted to its width (fitSelect) once it is laid out and
// whenever it is resized: for selects a page builds before it is in the document.
export function elidedSelect<T extends HTMLSelectElement>(select: T): T {
  selects ??= new ResizeObserver((entries) => {
    for (const entry of entries) {
      if (entry.target.isConnected) {
        shown.add(entry.target);
        fitSelect(entry.target as HTMLSelectElement);
      } else if (shown.has(entry.target)) {
        selects?.unobserve(entry.target);
      }
    }
  });
  selects.observe(select);
  return select;
}
