// Page building blocks: cards, stat tiles, loading / empty / error states.
import { el } from '../format';

export function card(title: string, options: { subtitle?: string; actions?: Node[]; id?: string } = {}, ...body: (Node | null)[]): HTMLElement {
  const header = el(
    'div',
    { class: 'card-header' },
    el('div', { class: 'card-titles' }, el('h2', { class: 'card-title' }, title), options.subtitle ? el('div', { class: 'card-subtitle' }, options.subtitle) : null),
    options.actions && options.actions.length ? el('div', { class: 'card-actions' }, ...options.actions) : null,
  );
  const node = el('section', { class: 'card' }, header, el('div', { class: 'card-body' }, ...body.filter((b): b is Node => b !== null)));
  if (options.id) node.dataset.card = options.id;
  return node;
}

// A tile value longer than this many characters is a name, not a number (tiles()).
const LONG_TILE_VALUE = 10;

export interface Tile {
  label: string;
  value: string;
  detail?: string;
  tone?: 'good' | 'warn' | 'bad' | 'neutral';
  // Where `value`'s number comes from in the tool's JSON (keys from the root) and the factor
  // applied to it (a fraction shown as %): tests hold the shown number to that field
  // (tests/browser/every_page_test.mjs), so a tile cannot drift from the CLI.
  json?: (string | number)[];
  scale?: number;
  // Shown on hover instead of the value: why a value is absent ("–").
  title?: string;
}

// The attributes that tie a shown number to its JSON field (Tile.json).
export function jsonSource(path: (string | number)[] | undefined, scale?: number): Record<string, string> {
  if (!path) return {};
  return scale === undefined ? { 'data-json': JSON.stringify(path) } : { 'data-json': JSON.stringify(path), 'data-json-scale': String(scale) };
}

export function tiles(items: Tile[], options: { columns?: number } = {}): HTMLElement {
  const node = el(
    'div',
    { class: 'tiles' },
    ...items.map((t) =>
      el(
        'div',
        { class: `tile tone-${t.tone ?? 'neutral'}` },
        el('div', { class: 'tile-label' }, t.label),
        // Names (a straggler device) are longer than a number: smaller, and they wrap
        // rather than being cut.
        el('div', { class: t.value.length > LONG_TILE_VALUE ? 'tile-value long' : 'tile-value', title: t.title ?? t.value, ...jsonSource(t.json, t.scale) }, t.value),
        t.detail ? el('div', { class: 'tile-detail' }, t.detail) : null,
      ),
    ),
  );
  if (options.columns) node.style.gridTemplateColumns = `repeat(${options.columns}, minmax(0, 1fr))`;
  return node;
}

// A key/value list (run environment, statistics).
export function keyValues(pairs: [string, string | Node][]): HTMLElement {
  const list = el('dl', { class: 'kv' });
  for (const [key, value] of pairs) {
    list.append(el('dt', {}, key), el('dd', {}, value));
  }
  return list;
}

export function loading(what: string): HTMLElement {
  return el('div', { class: 'state state-loading', role: 'status' }, el('div', { class: 'spinner' }), el('div', {}, `Loading ${what}…`));
}

// An empty state that says why there is nothing to show and what to do about it.
export function emptyState(title: string, reason: string, hint?: string): HTMLElement {
  return el(
    'div',
    { class: 'state state-empty', 'data-state': 'empty' },
    el('div', { class: 'state-title' }, title),
    el('div', { class: 'state-reason' }, reason),
    hint ? el('div', { class: 'state-hint' }, hint) : null,
  );
}

export function errorState(title: string, message: string): HTMLElement {
  return el(
    'div',
    { class: 'state state-error', role: 'alert', 'data-state': 'error' },
    el('div', { class: 'state-title' }, title),
    el('div', { class: 'state-reason' }, message),
  );
}

// Notes about the data (the model's diagnostics), shown under a page.
export function diagnosticsList(diagnostics: unknown): HTMLElement | null {
  if (!Array.isArray(diagnostics) || diagnostics.length === 0) return null;
  return el(
    'div',
    { class: 'diagnostics' },
    el('div', { class: 'diagnostics-title' }, 'Notes about this profile'),
    el('ul', {}, ...diagnostics.map((d) => el('li', {}, String(d)))),
  );
}

export function badge(text: string, tone: 'good' | 'warn' | 'bad' | 'neutral' | 'info' = 'neutral'): HTMLElement {
  return el('span', { class: `badge tone-${tone}` }, text);
}
