// Framework op stats (TensorFlow Stats): where op time goes on the host and the device,
// as up to four pie charts and one sortable, filterable table per side and grouping, each
// exportable as CSV. "Include idle" counts idle time as an IDLE op, as TensorBoard does.
import { card, emptyState, tiles } from '../components/cards';
import { pie } from '../components/charts';
import { readableLabels } from '../components/kernel_names';
import { dataTable, type ColumnSpec } from '../components/table';
import { el, formatMs, formatPercent } from '../format';
import { csvButton } from './input_pipeline';
import type { FrameworkOpStats, OpStatsRow, OpTypeRow, PieSlice } from '../generated/tools';
import { declaredColumns, resultOf, type PageContext } from './page';

// The tables' columns are the tool's declaration (/api/tables): the Type column only where
// the framework has types, the memory columns where the profile records allocations.
const OMITTED = ['host_or_device', 'category'];
type TableKey = 'host_ops' | 'device_ops' | 'host_op_types' | 'device_op_types';
const TABLES: { key: TableKey; label: string; filter: string[]; types: 'host_has_types' | 'device_has_types' }[] = [
  { key: 'host_ops', label: 'Host ops', filter: ['name', 'type'], types: 'host_has_types' },
  { key: 'device_ops', label: 'Device ops', filter: ['name', 'type'], types: 'device_has_types' },
  { key: 'host_op_types', label: 'Host op types', filter: ['type'], types: 'host_has_types' },
  { key: 'device_op_types', label: 'Device op types', filter: ['type'], types: 'device_has_types' },
];

function columnsOf(ctx: PageContext, key: string): ColumnSpec[] {
  return declaredColumns(ctx, key, { name: { className: 'name' }, type: { className: key.endsWith('_types') ? 'name' : '' } }, OMITTED);
}

// The tool sends the largest slices and, last, "(other)" for the rest of `rows` (the
// table the pie summarises): the pie shows that as an "other" slice saying how many it
// holds, listed in the table below.
function pieCard(title: string, name: string, slices: PieSlice[], rows: number, noun: string): HTMLElement {
  const last = slices[slices.length - 1];
  const hasRest = slices.length > 0 && last.label === '(other)';
  const shown = hasRest ? slices.slice(0, -1) : slices;
  const names = shown.map((s) => s.label || '(unnamed)');
  const labels = readableLabels(names);
  const data = shown.map((s, i) => ({ name: names[i], label: labels[i], value: s.self_time_ms })).filter((s) => s.value > 0);
  const rest = hasRest ? { value: last.self_time_ms, count: Math.max(1, rows - shown.length), where: 'in the table below' } : undefined;
  return el(
    'div',
    { class: 'pie-cell' },
    el('h3', { class: 'sub' }, title),
    data.length ? pie(name, data, { unit: 'ms', maxSlices: data.length, noun, rest }) : el('div', { class: 'muted small' }, 'No time on this side.'),
  );
}

export function renderFrameworkOpStats(ctx: PageContext): HTMLElement {
  const d: FrameworkOpStats = resultOf(ctx, 'framework_op_stats');
  const includeIdle = ctx.hash.extra.include_idle === '1';
  const page = el('div', { class: 'page page-framework-op-stats' });
  const pies = d.pie_charts;
  const placement = d.op_placement;
  const hasDevice = d.device_ops.length > 0;

  const idleToggle = el('label', { class: 'toggle' });
  const checkbox = el('input', { type: 'checkbox', 'data-control': 'include-idle' });
  checkbox.checked = includeIdle;
  checkbox.addEventListener('change', () => ctx.setExtra('include_idle', checkbox.checked ? '1' : null));
  idleToggle.append(checkbox, el('span', {}, 'Include idle time'));

  page.append(
    card(
      'Summary',
      { id: 'summary', actions: [idleToggle] },
      tiles([
        { label: 'Host self time, all host ops', value: formatMs(d.host_total_self_time_ms), json: ['host_total_self_time_ms'], detail: `idle ${formatMs(d.host_idle_time_ms)}` },
        { label: 'Device self time, all device ops', value: hasDevice ? formatMs(d.device_total_self_time_ms) : '–', json: ['device_total_self_time_ms'], detail: hasDevice ? `idle ${formatMs(d.device_idle_time_ms)}` : 'no device activity' },
        { label: 'Framework ops on host only', value: formatPercent(placement.host_percent), json: ['op_placement', 'host_percent'], detail: `${formatMs(placement.host_time_ms)} of framework ops that launched no device work` },
        { label: 'Framework ops on device', value: formatPercent(placement.device_percent), json: ['op_placement', 'device_percent'], detail: `${formatMs(placement.device_time_ms)}` },
      ]),
      el('p', { class: 'muted small' }, includeIdle ? 'Idle time is counted as an IDLE op in the charts, tables and percentages.' : 'Idle time is excluded: percentages are of busy (op) time.'),
    ),
  );

  const rows = (key: TableKey) => (d[key] as (OpStatsRow | OpTypeRow)[]).filter((r) => r.type !== 'IDLE' && !('name' in r && r.name === 'IDLE')).length;
  // A framework without op types (PyTorch) has no by-type pie: it would repeat the by-op one.
  const cells: HTMLElement[] = [];
  if (d.host_has_types) cells.push(pieCard('Host self time by op type', 'pie_host_op_type', pies.host_op_type, rows('host_op_types'), 'op types'));
  cells.push(pieCard('Host self time by op', 'pie_host_op', pies.host_op, rows('host_ops'), 'ops'));
  if (hasDevice) {
    if (d.device_has_types) cells.push(pieCard('Device self time by op type', 'pie_device_op_type', pies.device_op_type, rows('device_op_types'), 'op types'));
    cells.push(pieCard('Device self time by op', 'pie_device_op', pies.device_op, rows('device_ops'), 'ops'));
  }
  page.append(card('Where op time goes', { id: 'pies', subtitle: hasDevice ? 'Host and device, by op type and by op (top 10 and the rest)' : 'Host only: this profile has no device activity' }, el('div', { class: 'grid-2 pies' }, ...cells)));

  // One table at a time, chosen with tabs.
  const available = TABLES.filter((t) => (t.key.startsWith('host') || hasDevice) && (!t.key.endsWith('_types') || d[t.types]));
  let current = available.find((t) => t.key === ctx.hash.extra.table) ?? available[0];
  const tabBar = el('div', { class: 'tabs', role: 'tablist' });
  const tableSlot = el('div', {});
  const draw = () => {
    tabBar.replaceChildren(
      ...available.map((t) => {
        const button = el('button', { class: `tab${t === current ? ' active' : ''}`, role: 'tab', 'aria-selected': String(t === current), 'data-tab': t.key }, `${t.label} (${d[t.key].length})`);
        button.addEventListener('click', () => {
          current = t;
          draw();
        });
        return button;
      }),
    );
    const rows = d[current.key];
    tableSlot.replaceChildren(
      rows.length
        ? dataTable({
            name: current.key,
            columns: columnsOf(ctx, current.key),
            rows: rows as never,
            sort: { column: 'total_self_time_ms', descending: true },
            filterColumns: current.filter.filter((c) => c !== 'type' || d[current.types]),
            filterPlaceholder: !current.filter.includes('name') ? 'Filter by op type' : d[current.types] ? 'Filter by op name or type' : 'Filter by op name',
            toolbar: [csvButton(ctx, current.key)],
            pageSize: 25,
          })
        : emptyState(`No ${current.label.toLowerCase()}`, 'Nothing was recorded on this side.'),
    );
  };
  draw();
  page.append(card('Op statistics', { id: 'op-table', subtitle: 'Click a column to sort; type to filter' }, tabBar, tableSlot));
  return page;
}
