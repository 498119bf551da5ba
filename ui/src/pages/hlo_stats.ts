// HLO stats: every HLO op that ran on a device, with its time, category, achieved FLOP rate
// and memory bandwidth, what bounds it and the source line it came from (the tool's
// declared table: labels and units from /api/tables).
import { card, diagnosticsList, emptyState } from '../components/cards';
import { pie } from '../components/charts';
import { dataTable } from '../components/table';
import { el } from '../format';
import { hloSummaryTiles } from './hlo_common';
import { csvButton } from './input_pipeline';
import { declaredColumns, resultOf, type PageContext } from './page';

export function renderHloStats(ctx: PageContext): HTMLElement {
  const d = resultOf(ctx, 'hlo_stats');
  const page = el('div', { class: 'page page-hlo-stats' });
  const ops = d.hlo_ops;
  page.append(card('Summary', { id: 'summary' }, hloSummaryTiles(d.summary as unknown as Record<string, unknown>)));
  if (!ops.length) {
    page.append(card('HLO ops', {}, emptyState('No HLO op ran on a device', 'No device kernel of this profile names an HLO op (hlo_op stat).')));
  } else {
    const byCategory = new Map<string, number>();
    const byBound = new Map<string, number>();
    for (const op of ops) {
      byCategory.set(op.category, (byCategory.get(op.category) ?? 0) + op.total_time_us / 1000);
      byBound.set(op.bound_by, (byBound.get(op.bound_by) ?? 0) + op.total_time_us / 1000);
    }
    const slices = (m: Map<string, number>) => [...m.entries()].map(([name, value]) => ({ name, value }));
    page.append(
      el(
        'div',
        { class: 'grid-2' },
        card('Time by category', { id: 'pie-category' }, pie('pie_hlo_category', slices(byCategory), { unit: 'ms', height: 260, noun: 'categories' })),
        card('Time by what bounds it', { id: 'pie-bound', subtitle: 'compute / memory: near that roof; latency: under 10 % of the roof at its intensity' }, pie('pie_hlo_bound', slices(byBound), { unit: 'ms', height: 260, noun: 'verdicts' })),
      ),
      card(
        'HLO ops',
        { id: 'hlo-table', subtitle: 'Per HLO instruction, every device together; expand a row for its HLO expression' },
        dataTable({
          name: 'hlo_ops',
          columns: declaredColumns(ctx, 'hlo_ops', { op_name: { className: 'name' }, framework_op: { className: 'name' } }, ['expression', 'total_self_time_us', 'cumulative_time_percent']),
          rows: ops as never,
          sort: { column: 'total_time_us', descending: true },
          filterColumns: ['op_name', 'program', 'category', 'framework_op', 'source'],
          filterPlaceholder: 'Filter by op, program, category, framework op or source',
          pageSize: 25,
          expand: (row) => el('pre', { class: 'small' }, String(row.expression ?? '')),
          toolbar: [csvButton(ctx, 'hlo_ops')],
        }),
      ),
    );
  }
  const notes = diagnosticsList(d.diagnostics);
  if (notes) page.append(notes);
  return page;
}
