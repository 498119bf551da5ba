// Kernel stats: the GPU kernels that took the most time, with their launch parameters and
// Tensor Core use.
import { card, emptyState, tiles } from '../components/cards';
import { pie } from '../components/charts';
import { dataTable, type ColumnSpec } from '../components/table';
import { el, formatCount, formatMs, formatPercent, num } from '../format';
import { csvButton } from './input_pipeline';
import { arr, obj, str, type PageContext } from './page';

// The pie shows this many kernels and "(other)" for the rest.
const PIE_KERNELS = 10;

// "void ns::Kernel<T>(args)" -> "ns::Kernel<T>": the return type and parameter list only
// repeat what the template arguments say. The full name stays in tooltips and the CSV.
function kernelLabel(name: string): string {
  const withoutVoid = name.replace(/^void\s+/, '');
  let depth = 0;
  for (let i = 0; i < withoutVoid.length; i++) {
    const c = withoutVoid[i];
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (c === '(' && depth === 0 && i > 0) return withoutVoid.slice(0, i);
  }
  return withoutVoid;
}

export function renderKernelStats(ctx: PageContext): HTMLElement {
  const d = ctx.data;
  const summary = obj(d.summary);
  const kernels = arr(d.kernels);
  const page = el('div', { class: 'page page-kernel-stats' });
  if (!kernels.length) {
    page.append(card('Kernel stats', {}, emptyState('No GPU kernels', 'This profile recorded no kernels on a device plane.', 'Kernel stats need a GPU profile (CUPTI activity on /device:GPU:N planes).')));
    return page;
  }
  page.append(
    card(
      'Summary',
      { id: 'summary' },
      tiles([
        { label: 'Kernel time', value: formatMs(summary.total_time_ms), detail: `${formatCount(summary.launches)} launches` },
        { label: 'Distinct kernels', value: formatCount(summary.distinct_kernel_names ?? summary.distinct_kernels), detail: `in ${formatCount(summary.kernel_op_groups ?? summary.distinct_kernels)} kernel–op groups (table rows)` },
        { label: 'Median kernel', value: formatMs(num(summary.median_duration_us) / 1000), detail: `${formatPercent(summary.tiny_launch_percent)} of launches under 10 µs`, tone: num(summary.tiny_launch_percent) >= 50 ? 'warn' : 'neutral' },
        summary.tensor_cores_apply === false
          ? { label: 'Tensor Core time', value: '–', detail: 'not applicable: no GPU here has Tensor Cores' }
          : { label: 'Tensor Core time', value: formatPercent(summary.tensor_core_time_percent), detail: `${formatPercent(summary.eligible_without_tensor_core_percent)} eligible but unused` },
      ]),
    ),
  );

  // Kernel time by kernel (all its ops and launch shapes together): the kernels worth
  // optimising, not one launch of each.
  const byKernel = new Map<string, number>();
  for (const k of kernels) {
    const name = kernelLabel(str(k.kernel_name));
    byKernel.set(name, (byKernel.get(name) ?? 0) + num(k.total_duration_us) / 1000);
  }
  const ranked = [...byKernel.entries()].sort((a, b) => b[1] - a[1]);
  const top = ranked.slice(0, PIE_KERNELS).map(([name, value]) => ({ name, value }));
  const totalMs = num(summary.total_time_ms) || ranked.reduce((s, [, v]) => s + v, 0);
  const rest = totalMs - top.reduce((s, k) => s + k.value, 0);
  if (rest > totalMs * 1e-4) top.push({ name: '(other kernels)', value: rest });
  page.append(card('Top kernels', { id: 'pie', subtitle: `Share of kernel time by kernel, top ${PIE_KERNELS} of ${ranked.length}` }, pie('pie_top_kernels', top, { unit: 'ms', height: 320 })));

  page.append(
    card(
      'Kernels',
      { id: 'kernel-table', subtitle: d.truncated === true ? `The ${kernels.length} most expensive kernel–op pairs; the CSV has the same rows` : 'Every kernel–op pair' },
      dataTable({
        name: 'kernels',
        columns: ([
          { id: 'rank', label: '#' },
          { id: 'kernel_name', label: 'Kernel', className: 'name', render: (r) => el('span', { title: str(r.kernel_name) }, kernelLabel(str(r.kernel_name))) },
          { id: 'op_name', label: 'Op', className: 'name' },
          { id: 'occurrences', label: 'Count' },
          { id: 'total_duration_us', label: 'Total (µs)' },
          { id: 'avg_duration_us', label: 'Avg (µs)' },
          { id: 'min_duration_us', label: 'Min (µs)' },
          { id: 'max_duration_us', label: 'Max (µs)' },
          { id: 'registers_per_thread', label: 'Registers' },
          { id: 'shmem_bytes', label: 'Shared mem (B)' },
          { id: 'block_dim', label: 'Block' },
          { id: 'grid_dim', label: 'Grid' },
          { id: 'is_op_tensor_core_eligible', label: 'TC eligible' },
          { id: 'is_kernel_using_tensor_core', label: 'Uses TC' },
          // Tensor Core columns only where a GPU can have them (the tool leaves them out otherwise).
        ] as ColumnSpec[]).filter((c) => summary.tensor_cores_apply !== false || !c.id.includes('tensor_core')),
        rows: kernels as never,
        sort: { column: 'total_duration_us', descending: true },
        filterColumns: ['kernel_name', 'op_name'],
        filterPlaceholder: 'Filter by kernel or op name',
        pageSize: 25,
        toolbar: [csvButton(ctx, 'kernels')],
      }),
    ),
  );
  return page;
}
