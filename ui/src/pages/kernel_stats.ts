// Kernel stats: the GPU kernels that took the most time, with their launch parameters and
// Tensor Core use. The table has one row per kernel, op and launch configuration (its
// grid and block right after the names, so rows that differ only there do not read as
// duplicates), and, where the tool sends `kernel_names`, a view of one row per kernel.
import type { Row } from '../api';
import { card, emptyState, tiles } from '../components/cards';
import { pie } from '../components/charts';
import { distinctElided } from '../components/elide';
import { kernelLabels, readableLabels, shortKernelName } from '../components/kernel_names';
import { dataTable } from '../components/table';
import { el, formatCount, formatMs, formatPercent } from '../format';
import type { TensorCoreTime } from '../generated/tools';
import { csvButton } from './input_pipeline';
import { generatedColumns, resultOf, type PageContext } from './page';

// Each pie shows this many slices; the rest are one "other" slice that lists them.
const PIE_SLICES = 12;
// Kernel labels in the tables: at most this many characters (head and tail), so the
// launch configuration and the times fit beside them.
const KERNEL_LABEL_CHARS = 48;
// What kernels launched by no framework op are listed under.
const NO_OP = '(no op)';

const TENSOR_CORE_SLICES: { key: keyof TensorCoreTime; label: string }[] = [
  { key: 'using_tensor_cores', label: 'Uses Tensor Cores' },
  { key: 'eligible_not_using', label: 'Eligible op, no Tensor Cores' },
  { key: 'not_eligible', label: 'Not eligible' },
];

export function renderKernelStats(ctx: PageContext): HTMLElement {
  const d = resultOf(ctx, 'kernel_stats');
  const summary = d.summary;
  const kernels = d.kernels;
  const page = el('div', { class: 'page page-kernel-stats' });
  const labels = new Map<string, string>();
  // Labels over every kernel either table names (the by-kernel view has kernels beyond the
  // listed kernel–op groups), so no two read the same.
  const names = [...new Set([...kernels, ...d.kernel_names].map((k) => k.kernel_name))];
  kernelLabels(names).forEach((label, i) => labels.set(names[i], label));
  const labelOf = (name: string) => labels.get(name) ?? shortKernelName(name);
  const tableLabels = new Map<string, string>();
  distinctElided(names.map(labelOf), KERNEL_LABEL_CHARS).forEach((label, i) => tableLabels.set(names[i], label));
  // Table cells get untyped rows (the table component is shared).
  const kernelName = (r: Row) => String(r.kernel_name);
  const kernelCell = (r: Row) => el('span', { title: kernelName(r) }, tableLabels.get(kernelName(r)) ?? labelOf(kernelName(r)));
  // The by-kernel view has room for the whole label (its template arguments that differ).
  const wholeKernelCell = (r: Row) => el('span', { title: kernelName(r) }, labelOf(kernelName(r)));
  if (!kernels.length) {
    page.append(card('Kernel stats', {}, emptyState('No GPU kernels', 'This profile recorded no kernels on a device plane.', 'Kernel stats need a GPU profile (CUPTI activity on /device:GPU:N planes).')));
    return page;
  }
  page.append(
    card(
      'Summary',
      { id: 'summary' },
      tiles([
        { label: 'Kernel time', value: formatMs(summary.total_time_ms), json: ['summary', 'total_time_ms'], detail: `${formatCount(summary.launches)} launches` },
        {
          label: 'Distinct kernels',
          value: formatCount(summary.distinct_kernel_names),
          json: ['summary', 'distinct_kernel_names'],
          detail: `in ${formatCount(summary.kernel_op_groups)} kernel–op groups (table rows)` },
        { label: 'Median kernel', value: formatMs(summary.median_duration_us / 1000), json: ['summary', 'median_duration_us'], detail: `${formatPercent(summary.tiny_launch_percent)} of launches under 10 µs`, tone: summary.tiny_launch_percent >= 50 ? 'warn' : 'neutral' },
        !summary.tensor_cores_apply
          ? { label: 'Tensor Core time', value: '–', detail: 'not applicable: no GPU here has Tensor Cores' }
          : { label: 'Tensor Core time', value: formatPercent(summary.tensor_core_time_percent), json: ['summary', 'tensor_core_time_percent'], detail: `${formatPercent(summary.eligible_without_tensor_core_percent)} eligible but unused` },
      ]),
    ),
  );

  // Kernel time by kernel (all its ops and launch shapes together): the kernels worth
  // optimising, not one launch of each. Labels tell template instantiations apart.
  const byKernel = new Map<string, number>();
  for (const k of kernels) {
    byKernel.set(k.kernel_name, (byKernel.get(k.kernel_name) ?? 0) + k.total_duration_us / 1000);
  }
  const listedMs = [...byKernel.values()].reduce((sum, v) => sum + v, 0);
  const kernelSlices = [...byKernel.entries()].map(([name, value]) => ({ name, value, label: labelOf(name) }));
  // Kernels beyond the listed groups (max_kernels): part of the total, one slice.
  const unlisted = summary.total_time_ms - listedMs;
  if (d.truncated && unlisted > 0) kernelSlices.push({ name: `(kernels beyond the ${kernels.length} listed groups)`, value: unlisted, label: `(kernels beyond the listed ${kernels.length})` });
  page.append(
    card(
      'Kernel time by kernel',
      {
        id: 'pie',
        subtitle: `${formatCount(summary.distinct_kernel_names)} kernels${d.truncated ? ` (${formatCount(byKernel.size)} in the ${formatCount(kernels.length)} listed kernel–op groups)` : ''}; hover a name for its full signature`,
      },
      pie('pie_top_kernels', kernelSlices, { unit: 'ms', height: 300, maxSlices: PIE_SLICES, noun: 'kernels' }),
    ),
  );

  const tensorCores = d.tensor_core_time_ms;
  const opNames = d.kernel_ops.map((o) => o.op_name || NO_OP);
  const opShort = readableLabels(opNames);
  const opSlices = d.kernel_ops.map((o, i) => ({ name: opNames[i], value: o.total_time_ms, label: opShort[i] }));
  page.append(
    el(
      'div',
      { class: 'grid-1-2' },
      card(
        'Tensor Core use',
        { id: 'pie-tensor-cores', subtitle: 'Kernel time in kernels that use Tensor Cores, of Tensor-Core-eligible ops that do not, and the rest' },
        tensorCores === null
          ? emptyState('Tensor Cores do not apply', 'No GPU in this profile has Tensor Cores (AMD, or NVIDIA before Volta).')
          : pie('pie_tensor_cores', TENSOR_CORE_SLICES.map((c) => ({ name: c.label, value: tensorCores[c.key] })), { unit: 'ms', height: 200, noun: 'parts', stacked: true }),
      ),
      card(
        'Kernel time by op',
        { id: 'pie-ops', subtitle: 'Kernel time by the framework op that launched it' },
        opSlices.length ? pie('pie_kernel_ops', opSlices, { unit: 'ms', height: 280, maxSlices: PIE_SLICES, noun: 'ops' }) : emptyState('No ops', 'No kernel has a known framework op.'),
      ),
    ),
  );

  // The columns the tool declares, in its order; the page only renders the names.
  const byConfig = dataTable({
    name: 'kernels',
    columns: generatedColumns('kernel_stats', 'kernels', kernels, {
      rank: { label: '#' },
      kernel_name: { className: 'name', render: kernelCell },
      op_name: { className: 'name', maxChars: 40, blank: NO_OP },
    }),
    rows: kernels as never,
    sort: { column: 'total_duration_us', descending: true },
    filterColumns: ['kernel_name', 'op_name'],
    filterPlaceholder: 'Filter by kernel or op name',
    pageSize: 25,
    toolbar: [csvButton(ctx, 'kernels')],
  });
  const kernelNames = d.kernel_names;
  const subtitle = d.truncated ? `The ${kernels.length} most expensive kernel–op pairs; the CSV has the same rows` : 'Every kernel–op pair';
  if (!kernelNames.length) {
    page.append(card('Kernels', { id: 'kernel-table', subtitle }, byConfig));
    return page;
  }
  // One row per kernel: its launch configurations and ops together.
  const perKernel = dataTable({
    name: 'kernel_names',
    columns: generatedColumns('kernel_stats', 'kernel_names', kernelNames, { kernel_name: { className: 'name', render: wholeKernelCell } }),
    rows: kernelNames as never,
    sort: { column: 'total_duration_us', descending: true },
    filterColumns: ['kernel_name'],
    filterPlaceholder: 'Filter by kernel name',
    pageSize: 25,
    toolbar: [csvButton(ctx, 'kernel_names')],
  });
  const views = [
    { key: 'kernels', label: `By kernel, op and launch config (${formatCount(kernels.length)})`, node: byConfig, subtitle },
    { key: 'kernel_names', label: `By kernel (${formatCount(kernelNames.length)})`, node: perKernel, subtitle: 'One row per kernel name: every op and launch configuration it ran with together' },
  ];
  let current = views.find((v) => v.key === ctx.hash.extra.kernels) ?? views[0];
  const tabBar = el('div', { class: 'tabs', role: 'tablist' });
  const slot = el('div', {});
  const note = el('div', { class: 'card-subtitle' });
  const draw = () => {
    tabBar.replaceChildren(
      ...views.map((v) => {
        const button = el('button', { class: `tab${v === current ? ' active' : ''}`, role: 'tab', 'aria-selected': String(v === current), 'data-tab': v.key }, v.label);
        button.addEventListener('click', () => {
          current = v;
          draw();
        });
        return button;
      }),
    );
    note.textContent = current.subtitle;
    slot.replaceChildren(current.node);
  };
  draw();
  page.append(card('Kernels', { id: 'kernel-table' }, tabBar, note, slot));
  return page;
}
