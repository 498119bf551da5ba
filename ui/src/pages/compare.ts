// Compare: run A (before) against run B (after) — did the change help? The same comparison
// as `stepscope diff` (GET /api/compare): step time and every step-time category before and
// after with the change, the input verdict of both, and the ops and kernels whose time
// changed most, with those only one run has. The result is read as `diff` declares it
// (ui/src/generated/tools.ts), and the tables' columns and labels are its declared ones.
import { compareApi, compareCsvUrl, type ComparePair, type RunInfo, type Row } from '../api';
import { card, diagnosticsList, emptyState, errorState } from '../components/cards';
import { CATEGORIES, stackedBars } from '../components/charts';
import { elidedSelect } from '../components/elide';
import { kernelLabels } from '../components/kernel_names';
import { dataTable, type ColumnSpec } from '../components/table';
import { el, isNum } from '../format';
import { TOOL_COLUMNS, type DiffCategory, type DiffInputVerdict, type DiffKernel, type DiffMetric, type DiffOp, type ProfileDiff } from '../generated/tools';
import { verdictText } from './overview';
import { generatedColumns } from './page';

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

// A cell's content, by column id.
type Cells<T> = Record<string, (row: T) => Node | string>;

// A small fixed table (summary, breakdown): the declared columns (generatedColumns), one
// row per metric, cells marked with data-col so the browser test reads exactly what is shown.
function compareTable<T>(name: string, columns: ColumnSpec[], rows: T[], rowKey: string, keyOf: (row: T) => string, cells: Cells<T>): HTMLElement {
  return el(
    'div',
    { class: 'table-scroll' },
    el(
      'table',
      { class: 'data-table compare-table', 'data-compare-table': name },
      el('thead', {}, el('tr', {}, ...columns.map((c, i) => el('th', { class: i === 0 ? 'type-string' : 'type-double', title: c.description ?? '' }, c.label ?? c.id)))),
      el(
        'tbody',
        {},
        ...rows.map((r) =>
          el('tr', { [`data-${rowKey}`]: keyOf(r) }, ...columns.map((c, i) => el('td', { 'data-col': c.id, class: i === 0 ? 'type-string' : 'type-double' }, cells[c.id]?.(r) ?? ''))),
        ),
      ),
    ),
  );
}

function summaryCard(d: ProfileDiff): HTMLElement {
  const tone = (m: DiffMetric) => toneOf(m.delta, m.delta_percent, m.unit, LOWER_IS_BETTER.has(m.metric));
  const cells: Cells<DiffMetric> = {
    label: (m) => m.label,
    a: (m) => formatValue(m.a, m.unit),
    b: (m) => formatValue(m.b, m.unit),
    delta: (m) => deltaSpan(formatDelta(m.delta, m.unit), tone(m)),
    delta_percent: (m) => deltaSpan(formatDeltaPercent(m.delta_percent), tone(m)),
  };
  // The key names the row (data-metric); each value is shown in its unit.
  const columns = generatedColumns('diff', 'summary', d.summary, {}, ['metric', 'unit']);
  return card(
    'Before and after',
    { id: 'summary', subtitle: d.time_basis === 'per_step' ? 'Op, kernel and host times are per step.' : 'Op, kernel and host times are totals over each profile.' },
    compareTable('summary', columns, d.summary, 'metric', (m) => m.metric, cells),
  );
}

function breakdownCard(d: ProfileDiff): HTMLElement | null {
  const categories = d.step_time_breakdown;
  if (categories.length === 0) return null;
  const tone = (c: DiffCategory) => toneOf(c.delta_ms, c.delta_percent, 'ms', true);
  const cells: Cells<DiffCategory> = {
    label: (c) => c.label,
    a_ms: (c) => formatValue(c.a_ms, 'ms'),
    b_ms: (c) => formatValue(c.b_ms, 'ms'),
    delta_ms: (c) => deltaSpan(formatDelta(c.delta_ms, 'ms'), tone(c)),
    delta_percent: (c) => deltaSpan(formatDeltaPercent(c.delta_percent), tone(c)),
    a_percent: (c) => formatValue(c.a_percent, '%'),
    b_percent: (c) => formatValue(c.b_percent, '%'),
  };
  // The category key names the row (data-category).
  const columns = generatedColumns('diff', 'step_time_breakdown', categories, {}, ['category']);
  // One stacked bar per run: where the average step's time goes, before and after.
  // The categories the comparison has (those that apply to either profile).
  const series = CATEGORIES.filter((cat) => categories.some((c) => c.category === cat.key)).map((cat) => {
    const row = categories.find((c) => c.category === cat.key)!;
    return { name: cat.label, color: cat.color, values: [row.a_ms, row.b_ms] };
  });
  return card(
    'Average step time by category',
    { id: 'breakdown', subtitle: 'Each category of the average step, before (A) and after (B).' },
    stackedBars('compare-breakdown', ['A (before)', 'B (after)'], series, { yName: 'ms', xName: '', height: 220 }),
    compareTable('step_time_breakdown', columns, categories, 'category', (c) => c.category, cells),
  );
}

function verdictBox(v: DiffInputVerdict): HTMLElement {
  const verdict = v.verdict;
  const tone = verdict === 'highly' ? 'bad' : verdict === 'moderately' ? 'warn' : verdict === 'not' ? 'good' : 'neutral';
  return el(
    'div',
    { class: `verdict tone-${tone} compare-verdict`, 'data-side': v.side, 'data-verdict': verdict },
    el('div', { class: 'verdict-title' }, `${v.side.toUpperCase()}: ${verdictText(verdict, false)}`),
    el('div', { class: 'verdict-percent', 'data-col': 'input_bound_percent' }, formatValue(v.input_bound_percent, '%')),
    el('div', { class: 'verdict-statement' }, v.statement),
  );
}

function inputCard(d: ProfileDiff): HTMLElement {
  return card('Input share and verdict', { id: 'input' }, el('div', { class: 'compare-verdicts' }, ...d.input_verdicts.map(verdictBox)));
}

// The ops or kernels of one kind of change ("matched", "added", "removed"), largest change
// first (the API's order), with the declared columns and coloured changes. The time
// columns' headers say the time basis ("A self (ms/step)"), as the CLI's text does.
function itemsTable(name: string, table: 'ops' | 'kernels', rows: (DiffOp | DiffKernel)[], timeUnit: string, emptyText: string): HTMLElement {
  const custom: Record<string, Partial<ColumnSpec>> = {};
  for (const c of TOOL_COLUMNS.diff[table]) {
    if (c.unit === 'ms') custom[c.id] = { label: `${c.label} (${timeUnit})` };
  }
  const tone = (row: Row) => toneOf(row.delta_ms, row.delta_percent, 'ms', true);
  custom.delta_ms = { ...custom.delta_ms, render: (row) => deltaSpan(formatDelta(row.delta_ms, 'ms').replace(/ ms$/, ''), tone(row)) };
  custom.delta_percent = { render: (row) => deltaSpan(formatDeltaPercent(row.delta_percent), tone(row)) };
  if (table === 'ops') {
    custom.name = { className: 'name' };
  } else {
    // Kernel names as kernel stats labels them (template instances told apart), in full on hover.
    const names = [...new Set((rows as DiffKernel[]).map((r) => r.kernel_name))];
    const labels = new Map(kernelLabels(names).map((label, i) => [names[i], label]));
    custom.kernel_name = { className: 'name', render: (row) => el('span', { title: String(row.kernel_name ?? '') }, labels.get(String(row.kernel_name ?? '')) ?? '') };
  }
  // The tabs already say the change.
  const columns = generatedColumns('diff', table, rows, custom, ['change']);
  const nameColumn = table === 'ops' ? 'name' : 'kernel_name';
  return dataTable({ name, columns, rows: rows as never, pageSize: 10, filterColumns: [nameColumn], emptyText });
}

function itemsCard(title: string, table: 'ops' | 'kernels', d: ProfileDiff, pair: ComparePair): HTMLElement | null {
  const rows: (DiffOp | DiffKernel)[] = d[table];
  if (rows.length === 0) return null;
  const unit = d.time_basis === 'per_step' ? 'ms/step' : 'ms';
  const noun = table;
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
    body.replaceChildren(itemsTable(`${table}-${key}`, table, rows.filter((r) => r.change === key), unit, tab.empty));
  };
  for (const tab of tabs) {
    const count = rows.filter((r) => r.change === tab.key).length;
    const button = el('button', { class: 'tab', role: 'tab', 'data-tab': tab.key }, `${tab.label} (${count})`);
    button.addEventListener('click', () => show(tab.key));
    bar.append(button);
  }
  show('matched');
  const csv = el('a', { class: 'button', href: compareCsvUrl(pair, table), download: '', 'data-csv': table }, 'Export as CSV');
  return card(title, { id: table, subtitle: `Matched by name; times in ${unit}. Largest change first.`, actions: [csv] }, bar, body);
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
  let data: ProfileDiff;
  try {
    data = await compareApi.data(pair);
  } catch (error) {
    page.append(errorState('Cannot compare these runs', (error as Error).message));
    return page;
  }
  const meanA = data.summary.find((m) => m.metric === 'step_time_mean_ms')?.a;
  stepScaleMs = isNum(meanA) ? meanA : 0;
  page.append(
    card(
      'Did the change help?',
      { id: 'headline' },
      el('div', { class: 'compare-sides' }, el('div', { 'data-side': 'a' }, el('b', {}, 'A: '), data.a.label), el('div', { 'data-side': 'b' }, el('b', {}, 'B: '), data.b.label)),
      el('div', { class: 'compare-statement', 'data-statement': '' }, data.statement),
    ),
  );
  page.append(summaryCard(data));
  const breakdown = breakdownCard(data);
  if (breakdown) page.append(breakdown);
  page.append(inputCard(data));
  const ops = itemsCard('Ops whose time changed most', 'ops', data, pair);
  if (ops) page.append(ops);
  const kernels = itemsCard('Kernels whose time changed most', 'kernels', data, pair);
  if (kernels) page.append(kernels);
  const notes = diagnosticsList(data.diagnostics);
  if (notes) page.append(notes);
  return page;
}
