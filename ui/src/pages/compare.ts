// Compare: run A (before) against run B (after) — did the change help? The same comparison
// as `stepscope diff` (GET /api/compare): step time and every step-time category before and
// after with the change, the input verdict of both, and the ops and kernels whose time
// changed most, with those only one run has. Column labels come from the comparison's
// declared tables (/api/compare/tables).
import { compareApi, compareCsvUrl, type ComparePair, type RunInfo, type Row, type TableInfo, type ToolData } from '../api';
import { card, diagnosticsList, emptyState, errorState } from '../components/cards';
import { CATEGORIES, stackedBars } from '../components/charts';
import { elidedSelect } from '../components/elide';
import { kernelLabels } from '../components/kernel_names';
import { dataTable, type ColumnSpec } from '../components/table';
import { el, isNum } from '../format';
import { verdictText } from './overview';
import { arr, obj, str } from './page';

// Summary metrics where less is better: a decrease is shown green, an increase red.
const LOWER_IS_BETTER = new Set([
  'step_time_mean_ms', 'step_time_median_ms', 'step_time_stddev_ms', 'step_time_min_ms', 'step_time_max_ms',
  'input_bound_percent', 'input_time_mean_ms', 'device_idle_percent', 'kernel_time_ms', 'device_op_self_time_ms',
  'host_op_self_time_ms',
]);
// Changes smaller than this are run-to-run noise and shown without colour: 2 % of the
// value, or 1 point for a share; for times also 0.5 % of A's mean step time (a kernel that
// went from 2 to 4 µs doubled, but the step does not feel it).
const NOISE_PERCENT = 2;
const NOISE_POINTS = 1;
const NOISE_STEP_FRACTION = 0.005;
// A's mean step time (ms) of the comparison on screen: the scale of NOISE_STEP_FRACTION.
let stepScaleMs = 0;

function decimalsFor(unit: string): number {
  return unit === '%' ? 1 : unit === 'count' ? 0 : 3;
}

function fixed(value: number, decimals: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

// "12.107 ms", "53.5 %", "40": a value in its unit, with the decimals the CLI text uses.
export function formatValue(value: unknown, unit: string): string {
  if (!isNum(value)) return '–';
  const text = fixed(value, decimalsFor(unit));
  if (unit === '%') return `${text} %`;
  return unit && unit !== 'count' ? `${text} ${unit}` : text;
}

// "+1.250 ms", "-30.2 pts": a change; a share changes by points.
export function formatDelta(value: unknown, unit: string): string {
  if (!isNum(value)) return '–';
  const decimals = decimalsFor(unit);
  // A change that rounds to zero reads "0.000", not "-0.000".
  const shown = Math.abs(value) < 0.5 * 10 ** -decimals ? 0 : value;
  const text = `${shown > 0 ? '+' : ''}${fixed(shown, decimals)}`;
  if (unit === '%') return `${text} pts`;
  return unit && unit !== 'count' ? `${text} ${unit}` : text;
}

function formatDeltaPercent(value: unknown): string {
  return isNum(value) ? `${value > 0 ? '+' : ''}${fixed(value, 1)} %` : '–';
}

type Tone = 'good' | 'bad' | 'neutral';

// The colour of a change where less is better (or neutral for numbers that are neither).
function toneOf(delta: unknown, deltaPercent: unknown, unit: string, lowerIsBetter: boolean): Tone {
  if (!lowerIsBetter || !isNum(delta) || delta === 0) return 'neutral';
  const noise =
    unit === '%'
      ? Math.abs(delta) < NOISE_POINTS
      : (isNum(deltaPercent) && Math.abs(deltaPercent) < NOISE_PERCENT) || (unit.startsWith('ms') && Math.abs(delta) < NOISE_STEP_FRACTION * stepScaleMs);
  if (noise) return 'neutral';
  return delta < 0 ? 'good' : 'bad';
}

function deltaSpan(text: string, tone: Tone): HTMLElement {
  return el('span', { class: `delta delta-${tone}`, 'data-tone': tone }, text);
}

function labelOf(tables: TableInfo[], table: string, column: string, fallback: string): string {
  return tables.find((t) => t.name === table)?.columns.find((c) => c.id === column)?.label ?? fallback;
}

function unitOf(tables: TableInfo[], table: string, column: string): string {
  return tables.find((t) => t.name === table)?.columns.find((c) => c.id === column)?.unit ?? '';
}

// A small fixed table (summary, breakdown): one row per metric, cells marked with
// data-col so the browser test reads exactly what is shown.
function compareTable(name: string, headers: string[], rows: { key: string; cells: [string, Node | string][] }[], rowKey: string): HTMLElement {
  return el(
    'div',
    { class: 'table-scroll' },
    el(
      'table',
      { class: 'data-table compare-table', 'data-compare-table': name },
      el('thead', {}, el('tr', {}, ...headers.map((h, i) => el('th', { class: i === 0 ? 'type-string' : 'type-double' }, h)))),
      el(
        'tbody',
        {},
        ...rows.map((r) =>
          el('tr', { [`data-${rowKey}`]: r.key }, ...r.cells.map(([col, content], i) => el('td', { 'data-col': col, class: i === 0 ? 'type-string' : 'type-double' }, content))),
        ),
      ),
    ),
  );
}

function summaryCard(d: ToolData, tables: TableInfo[]): HTMLElement {
  const rows = arr(d.summary).map((m) => {
    const unit = str(m.unit);
    const key = str(m.metric);
    const tone = toneOf(m.delta, m.delta_percent, unit, LOWER_IS_BETTER.has(key));
    return {
      key,
      cells: [
        ['label', str(m.label)],
        ['a', formatValue(m.a, unit)],
        ['b', formatValue(m.b, unit)],
        ['delta', deltaSpan(formatDelta(m.delta, unit), tone)],
        ['delta_percent', deltaSpan(formatDeltaPercent(m.delta_percent), tone)],
      ] as [string, Node | string][],
    };
  });
  const h = (col: string, fallback: string) => labelOf(tables, 'summary', col, fallback);
  return card(
    'Before and after',
    { id: 'summary', subtitle: str(obj(d).time_basis) === 'per_step' ? 'Op, kernel and host times are per step.' : 'Op, kernel and host times are totals over each profile.' },
    compareTable('summary', [h('label', 'Metric'), h('a', 'A'), h('b', 'B'), h('delta', 'Change'), h('delta_percent', 'Change %')], rows, 'metric'),
  );
}

function breakdownCard(d: ToolData, tables: TableInfo[]): HTMLElement | null {
  const categories = arr(d.step_time_breakdown);
  if (categories.length === 0) return null;
  const rows = categories.map((c) => {
    const tone = toneOf(c.delta_ms, c.delta_percent, 'ms', true);
    return {
      key: str(c.category),
      cells: [
        ['label', str(c.label)],
        ['a_ms', formatValue(c.a_ms, 'ms')],
        ['b_ms', formatValue(c.b_ms, 'ms')],
        ['delta_ms', deltaSpan(formatDelta(c.delta_ms, 'ms'), tone)],
        ['delta_percent', deltaSpan(formatDeltaPercent(c.delta_percent), tone)],
        ['a_percent', formatValue(c.a_percent, '%')],
        ['b_percent', formatValue(c.b_percent, '%')],
      ] as [string, Node | string][],
    };
  });
  const ids = ['label', 'a_ms', 'b_ms', 'delta_ms', 'delta_percent', 'a_percent', 'b_percent'];
  const headers = ids.map((id) => labelOf(tables, 'step_time_breakdown', id, id));
  // One stacked bar per run: where the average step's time goes, before and after.
  // The categories the comparison has (those that apply to either profile).
  const series = CATEGORIES.filter((cat) => categories.some((c) => c.category === cat.key)).map((cat) => {
    const row = categories.find((c) => c.category === cat.key)!;
    return { name: cat.label, color: cat.color, values: [Number(row.a_ms) || 0, Number(row.b_ms) || 0] };
  });
  return card(
    'Average step time by category',
    { id: 'breakdown', subtitle: 'Each category of the average step, before (A) and after (B).' },
    stackedBars('compare-breakdown', ['A (before)', 'B (after)'], series, { yName: 'ms', xName: '', height: 220 }),
    compareTable('step_time_breakdown', headers, rows, 'category'),
  );
}

function verdictBox(v: Row, side: string): HTMLElement {
  const verdict = str(v.verdict);
  const tone = verdict === 'highly' ? 'bad' : verdict === 'moderately' ? 'warn' : verdict === 'not' ? 'good' : 'neutral';
  return el(
    'div',
    { class: `verdict tone-${tone} compare-verdict`, 'data-side': side, 'data-verdict': verdict },
    el('div', { class: 'verdict-title' }, `${side.toUpperCase()}: ${verdictText(verdict, false)}`),
    el('div', { class: 'verdict-percent', 'data-col': 'input_bound_percent' }, formatValue(v.input_bound_percent, '%')),
    el('div', { class: 'verdict-statement' }, str(v.statement)),
  );
}

function inputCard(d: ToolData): HTMLElement {
  const verdicts = arr(d.input_verdicts);
  return card(
    'Input share and verdict',
    { id: 'input' },
    el('div', { class: 'compare-verdicts' }, ...verdicts.map((v) => verdictBox(v as Row, str(v.side)))),
  );
}

// The ops or kernels of one kind of change ("matched", "added", "removed"), largest change
// first (the API's order), with the declared columns and coloured changes.
function itemsTable(name: string, rows: Row[], table: TableInfo | undefined, emptyText: string): HTMLElement {
  const columns: ColumnSpec[] = (table?.columns ?? [])
    .filter((c) => c.id !== 'change')
    .map((c) => {
      const spec: ColumnSpec = { id: c.id, label: c.label, type: c.type, className: c.id === 'name' ? 'name' : undefined };
      if (c.id === 'delta_ms') {
        spec.render = (row) => deltaSpan(formatDelta(row.delta_ms, 'ms').replace(/ ms$/, ''), toneOf(row.delta_ms, row.delta_percent, 'ms', true));
      } else if (c.id === 'delta_percent') {
        spec.render = (row) => deltaSpan(formatDeltaPercent(row.delta_percent), toneOf(row.delta_ms, row.delta_percent, 'ms', true));
      }
      return spec;
    });
  // Kernel names as kernel stats labels them (template instances told apart), in full on hover.
  const kernelColumn = columns.find((c) => c.id === 'kernel_name');
  if (kernelColumn) {
    const names = [...new Set(rows.map((r) => String(r.kernel_name ?? '')))];
    const labels = new Map(kernelLabels(names).map((label, i) => [names[i], label]));
    kernelColumn.className = 'name';
    kernelColumn.render = (row) => el('span', { title: String(row.kernel_name ?? '') }, labels.get(String(row.kernel_name ?? '')) ?? '');
  }
  const nameColumn = table?.columns.find((c) => c.id === 'name' || c.id === 'kernel_name')?.id ?? 'name';
  return dataTable({ name, columns, rows, pageSize: 10, filterColumns: [nameColumn], emptyText });
}

function itemsCard(title: string, id: string, d: ToolData, tables: TableInfo[], pair: ComparePair): HTMLElement | null {
  const rows = arr<Row>(d[id]);
  if (rows.length === 0) return null;
  const table = tables.find((t) => t.name === id);
  const unit = unitOf(tables, id, 'delta_ms');
  const noun = id === 'ops' ? 'ops' : 'kernels';
  const tabs: { key: string; label: string; empty: string }[] = [
    { key: 'matched', label: 'Changed most', empty: `No ${noun} ran in both.` },
    { key: 'added', label: 'Only in B (added)', empty: `No ${noun} are new in B.` },
    { key: 'removed', label: 'Only in A (removed)', empty: `No ${noun} of A are gone in B.` },
  ];
  const body = el('div', {});
  const bar = el('div', { class: 'tabs', role: 'tablist' });
  const show = (key: string) => {
    for (const b of bar.querySelectorAll<HTMLElement>('button')) b.classList.toggle('active', b.dataset.tab === key);
    const tab = tabs.find((t) => t.key === key)!;
    body.replaceChildren(itemsTable(`${id}-${key}`, rows.filter((r) => r.change === key), table, tab.empty));
  };
  for (const tab of tabs) {
    const count = rows.filter((r) => r.change === tab.key).length;
    const button = el('button', { class: 'tab', role: 'tab', 'data-tab': tab.key }, `${tab.label} (${count})`);
    button.addEventListener('click', () => show(tab.key));
    bar.append(button);
  }
  show('matched');
  const csv = el('a', { class: 'button', href: compareCsvUrl(pair, id), download: '', 'data-csv': id }, 'Export as CSV');
  return card(title, { id, subtitle: `Matched by name; times in ${unit}. Largest change first.`, actions: [csv] }, bar, body);
}

function runPicker(runs: RunInfo[], pair: ComparePair, navigate: (next: ComparePair) => void): HTMLElement {
  const names = [...runs].sort((a, b) => b.modified_time_ns - a.modified_time_ns || a.name.localeCompare(b.name)).map((r) => r.name);
  const runSelect = (id: string, value: string, onChange: (v: string) => void) => {
    // Long run names keep their head and tail (elide.ts), so two runs never read the same.
    const select = elidedSelect(el('select', { id, 'aria-label': id === 'compare-run-a' ? 'Run A' : 'Run B' }, ...names.map((n) => el('option', { value: n }, n))));
    select.value = value;
    select.addEventListener('change', () => onChange(select.value));
    return select;
  };
  const hostSelect = (id: string, run: string, value: string | undefined, onChange: (v: string) => void) => {
    const hosts = runs.find((r) => r.name === run)?.hosts ?? [];
    if (hosts.length <= 1) return null;
    const select = elidedSelect(el('select', { id, 'aria-label': id }, ...hosts.map((h) => el('option', { value: h }, h === 'all' ? 'All hosts' : h))));
    select.value = value && hosts.includes(value) ? value : hosts[0];
    select.addEventListener('change', () => onChange(select.value));
    return select;
  };
  const swap = el('button', { class: 'button', id: 'compare-swap', title: 'Swap A and B' }, '⇄ Swap');
  swap.addEventListener('click', () => navigate({ runA: pair.runB, runB: pair.runA, hostA: pair.hostB, hostB: pair.hostA }));
  return el(
    'div',
    { class: 'compare-picker' },
    el('label', { for: 'compare-run-a' }, 'A (before)'),
    runSelect('compare-run-a', pair.runA, (v) => navigate({ ...pair, runA: v, hostA: undefined })),
    hostSelect('compare-host-a', pair.runA, pair.hostA, (v) => navigate({ ...pair, hostA: v })),
    swap,
    el('label', { for: 'compare-run-b' }, 'B (after)'),
    runSelect('compare-run-b', pair.runB, (v) => navigate({ ...pair, runB: v, hostB: undefined })),
    hostSelect('compare-host-b', pair.runB, pair.hostB, (v) => navigate({ ...pair, hostB: v })),
  );
}

// The pair the hash names, or by default the newest run (B) against the one before it (A).
export function comparePairFrom(runs: RunInfo[], extra: Record<string, string>): ComparePair {
  const byAge = [...runs].sort((a, b) => b.modified_time_ns - a.modified_time_ns || a.name.localeCompare(b.name));
  const known = (name: string | undefined) => (name && runs.some((r) => r.name === name) ? name : undefined);
  const runB = known(extra.run_b) ?? byAge[0].name;
  const runA = known(extra.run_a) ?? (byAge.find((r) => r.name !== runB) ?? byAge[0]).name;
  return { runA, runB, hostA: extra.host_a || undefined, hostB: extra.host_b || undefined };
}

export async function renderCompare(runs: RunInfo[], pair: ComparePair, navigate: (next: ComparePair) => void): Promise<HTMLElement> {
  const page = el('div', { class: 'page page-compare', 'data-tool': 'compare' });
  page.append(card('Runs to compare', { id: 'picker', subtitle: 'A is the run before your change, B the run after it.' }, runPicker(runs, pair, navigate)));
  if (runs.length < 2) {
    page.append(emptyState('Only one run in this logdir', 'Comparing needs two runs: profile again after your change.', 'Both sides show the same run until then.'));
  }
  let data: ToolData;
  let tables: TableInfo[];
  try {
    [data, tables] = await Promise.all([compareApi.data(pair), compareApi.tables(pair).then((t) => t.tables)]);
  } catch (error) {
    page.append(errorState('Cannot compare these runs', (error as Error).message));
    return page;
  }
  const a = obj(data.a);
  const b = obj(data.b);
  const meanA = arr(data.summary).find((m) => m.metric === 'step_time_mean_ms')?.a;
  stepScaleMs = isNum(meanA) ? meanA : 0;
  page.append(
    card(
      'Did the change help?',
      { id: 'headline' },
      el('div', { class: 'compare-sides' }, el('div', { 'data-side': 'a' }, el('b', {}, 'A: '), str(a.label)), el('div', { 'data-side': 'b' }, el('b', {}, 'B: '), str(b.label))),
      el('div', { class: 'compare-statement', 'data-statement': '' }, str(data.statement)),
    ),
  );
  page.append(summaryCard(data, tables));
  const breakdown = breakdownCard(data, tables);
  if (breakdown) page.append(breakdown);
  page.append(inputCard(data));
  const ops = itemsCard('Ops whose time changed most', 'ops', data, tables, pair);
  if (ops) page.append(ops);
  const kernels = itemsCard('Kernels whose time changed most', 'kernels', data, tables, pair);
  if (kernels) page.append(kernels);
  const notes = diagnosticsList(data.diagnostics);
  if (notes) page.append(notes);
  return page;
}
