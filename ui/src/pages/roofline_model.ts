// Roofline model: each HLO op (and each program) by arithmetic intensity against the
// device's bandwidth and compute roofs, for the whole profile or the selected step.
import { card, diagnosticsList, emptyState, keyValues } from '../components/cards';
import { rooflineChart, type RooflinePoint } from '../components/roofline_chart';
import { dataTable } from '../components/table';
import { el } from '../format';
import { hloSummaryTiles } from './hlo_common';
import { csvButton } from './input_pipeline';
import { declaredColumns, resultOf, type PageContext } from './page';

export function renderRooflineModel(ctx: PageContext): HTMLElement {
  const d = resultOf(ctx, 'roofline_model');
  const page = el('div', { class: 'page page-roofline-model' });
  const summary = d.summary;
  const device = summary.device;
  const rows = d.roofline;
  page.append(card('Summary', { id: 'summary' }, hloSummaryTiles(summary as unknown as Record<string, unknown>)));
  const peakGflops = (device.peak_tflops ?? 0) * 1000;
  const peakBandwidthGbps = device.peak_bandwidth_gbps ?? 0;
  const points: RooflinePoint[] = rows
    .filter((r) => r.level === 'op' || r.level === 'program')
    .map((r) => ({ name: r.name, level: r.level as 'op' | 'program', intensity: r.arithmetic_intensity ?? 0, gflopRate: r.gflop_rate ?? 0, boundBy: r.bound_by || 'unknown', timeUs: r.time_us }));
  const placed = points.filter((p) => p.intensity > 0 && p.gflopRate > 0);
  const scope = d.step === null ? 'the whole profile' : `step ${d.step}`;
  page.append(
    card(
      'Roofline',
      { id: 'roofline-chart', subtitle: `Ops of ${scope}; point size: time. Ops without FLOPs (data movement, unknown custom calls) are in the table only.` },
      peakGflops > 0 && peakBandwidthGbps > 0 && placed.length
        ? rooflineChart('roofline', points, { peakGflops, peakBandwidthGbps })
        : emptyState('Nothing to place', peakGflops > 0 ? 'No op has both FLOPs and time.' : 'The device peaks are unknown (no device stats, not in the table of published peaks).'),
      keyValues([
        ['Compute roof', peakGflops > 0 ? `${(peakGflops / 1000).toFixed(1)} TFLOP/s (${device.flops_source})` : 'unknown'],
        ['Bandwidth roof', peakBandwidthGbps > 0 ? `${peakBandwidthGbps.toFixed(0)} GB/s (${device.bandwidth_source})` : 'unknown'],
        ['Ridge point', device.ridge_flops_per_byte !== null ? `${device.ridge_flops_per_byte.toFixed(1)} FLOP/B` : 'unknown'],
      ]),
    ),
    card(
      'Points',
      { id: 'roofline-table' },
      dataTable({
        name: 'roofline',
        columns: declaredColumns(ctx, 'roofline', { name: { className: 'name' } }),
        rows: rows as never,
        filterColumns: ['name', 'program', 'category', 'level', 'bound_by'],
        filterPlaceholder: 'Filter by name, program, category or verdict',
        pageSize: 25,
        toolbar: [csvButton(ctx, 'roofline')],
      }),
    ),
  );
  const notes = diagnosticsList(d.diagnostics);
  if (notes) page.append(notes);
  return page;
}
