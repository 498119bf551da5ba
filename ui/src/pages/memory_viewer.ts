// Memory viewer: an XLA module's buffers over its program order (the compiler's buffer
// assignment): the heap-size curve, padded and unpadded, the peak, and the buffers live
// there. Reads only the memory_viewer tool's JSON, typed as the tool declares it
// (docs/tools.md); the buffers table's columns are the declared ones.
import { LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { csvUrl, type Row } from '../api';
import { card, emptyState, tiles } from '../components/cards';
import { elidedSelect } from '../components/elide';
import { dataTable } from '../components/table';
import { el, escapeHtml, formatBytes, formatCount } from '../format';
import type { HloModuleChoice, MemoryViewerBuffer, MemoryViewerResult } from '../generated/tools';
import { generatedColumns, optionParams, resultOf, type PageContext } from './page';

echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, DataZoomComponent, MarkLineComponent, CanvasRenderer]);

const MIB = 1024 * 1024;
let curveChart: echarts.ECharts | null = null;

// The module selector shared with the graph viewer's page: `modules`, `current` selected.
export function moduleSelect(ctx: PageContext, modules: HloModuleChoice[], current: string, onlyWithBuffers: boolean): HTMLElement {
  // Module names ("jit_train_step_…") keep their head and tail where the card is narrow.
  const select = elidedSelect(el('select', { class: 'inline-select', id: 'module-select', 'aria-label': 'XLA module' }));
  for (const m of modules) {
    const note = onlyWithBuffers && !m.has_buffer_assignment ? ', no buffer assignment' : '';
    select.append(el('option', { value: m.name }, `${m.name} · ${formatCount(m.instructions)} ops${note}`));
  }
  select.value = current;
  select.addEventListener('change', () => ctx.setExtra('module', select.value));
  return el('label', {}, 'Module ', select);
}

function curveNode(d: MemoryViewerResult): HTMLElement {
  const points = d.timeline;
  const node = el('div', { class: 'chart', 'data-chart': 'memory_viewer_curve' });
  node.style.height = '320px';
  const peakPosition = d.peak_position;
  const option: echarts.EChartsCoreOption = {
    animation: false,
    textStyle: { fontFamily: 'Roboto, "Segoe UI", "Helvetica Neue", Arial, sans-serif', color: '#3c4043' },
    color: ['#1a73e8', '#f57c00'],
    legend: { top: 0 },
    tooltip: {
      trigger: 'axis',
      formatter: (items: unknown) => {
        const list = Array.isArray(items) ? (items as { dataIndex: number; seriesName: string; value: [number, number] }[]) : [];
        if (!list.length) return '';
        const p = points[list[0].dataIndex];
        if (!p) return '';
        return [`point ${escapeHtml(String(p.position))} · ${escapeHtml(p.instruction)}`, ...list.map((i) => `${escapeHtml(i.seriesName)}: ${i.value[1].toFixed(2)} MiB`)].join('<br>');
      },
    },
    grid: { left: 64, right: 24, top: 36, bottom: 64 },
    xAxis: { type: 'value', name: 'program order (heap-simulation event)', nameLocation: 'middle', nameGap: 26, min: 'dataMin', max: 'dataMax' },
    // The unit along the axis, clear of the legend above the plot.
    yAxis: { type: 'value', name: 'MiB', nameLocation: 'middle', nameRotate: 90, nameGap: 48, splitLine: { lineStyle: { color: '#eceff1' } } },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }],
    series: [
      {
        name: 'allocated',
        type: 'line',
        step: 'end',
        symbol: 'none',
        areaStyle: { opacity: 0.15 },
        data: points.map((p) => [p.position, p.heap_bytes / MIB]),
        markLine: peakPosition >= 0 ? { symbol: 'none', label: { formatter: 'peak' }, data: [{ xAxis: peakPosition }] } : undefined,
      },
      { name: 'unpadded', type: 'line', step: 'end', symbol: 'none', lineStyle: { type: 'dashed' }, data: points.map((p) => [p.position, p.unpadded_bytes / MIB]) },
    ],
  };
  requestAnimationFrame(() => {
    if (!node.isConnected) return;
    curveChart?.dispose();
    curveChart = echarts.init(node, undefined, { renderer: 'canvas' });
    curveChart.setOption(option);
    new ResizeObserver(() => curveChart?.resize()).observe(node);
    node.dataset.ready = 'true';
  });
  return node;
}

function summary(d: MemoryViewerResult): HTMLElement {
  const padding = d.peak_bytes - d.peak_unpadded_bytes;
  return tiles([
    { label: 'Peak allocated', value: formatBytes(d.peak_bytes), json: ['peak_bytes'], detail: d.peak_position >= 0 ? `at point ${d.peak_position} (${d.peak_instruction})` : 'no heap simulation' },
    { label: 'Unpadded at peak', value: formatBytes(d.peak_unpadded_bytes), json: ['peak_unpadded_bytes'], detail: `padding ${formatBytes(padding)}`, tone: d.peak_bytes > 0 && padding / d.peak_bytes > 0.2 ? 'warn' : 'neutral' },
    { label: 'Parameters', value: formatBytes(d.parameter_bytes), json: ['parameter_bytes'], detail: 'entry computation arguments' },
    { label: 'Outputs', value: formatBytes(d.output_bytes), json: ['output_bytes'], detail: 'may be live out' },
    { label: 'Temporaries', value: formatBytes(d.temporary_bytes), json: ['temporary_bytes'], detail: `${formatCount(d.heap_trace_events)} heap events` },
    { label: 'Live all program', value: formatBytes(d.whole_program_bytes), json: ['whole_program_bytes'], detail: 'parameters, outputs, constants' },
  ]);
}

// The buffers table's column ids, checked against the declaration.
const column = (id: keyof MemoryViewerBuffer) => id;

function buffersTable(ctx: PageContext, buffers: MemoryViewerBuffer[]): HTMLElement {
  const bytes = (id: keyof MemoryViewerBuffer) => ({ render: (r: Row) => el('span', { title: `${formatCount(r[id])} bytes` }, formatBytes(r[id])) });
  const columns = generatedColumns('memory_viewer', 'peak_buffers', buffers, {
    [column('size_bytes')]: bytes('size_bytes'),
    [column('unpadded_bytes')]: bytes('unpadded_bytes'),
    [column('instruction')]: { className: 'name' },
    [column('op_name')]: { className: 'name' },
  });
  const params = optionParams(ctx.selection.tool, ctx.hash.extra);
  return dataTable({
    name: 'peak_buffers',
    columns,
    rows: buffers as never,
    sort: { column: column('size_bytes'), descending: true },
    filterColumns: [column('instruction'), column('opcode'), column('shape'), column('op_name'), column('allocation_type')],
    filterPlaceholder: 'Filter by op, opcode, shape or allocation type',
    pageSize: 25,
    emptyText: 'No buffer is live at the peak.',
    toolbar: [el('a', { class: 'button', href: csvUrl(ctx.selection, 'peak_buffers', { params }), download: '', 'data-csv': 'peak_buffers' }, 'Export as CSV')],
  });
}

export function renderMemoryViewer(ctx: PageContext): HTMLElement {
  const d = resultOf(ctx, 'memory_viewer');
  const page = el('div', { class: 'page page-memory-viewer', 'data-page': 'memory_viewer' });
  page.append(card('Memory viewer', { id: 'memory-viewer-controls', subtitle: 'What the XLA compiler planned for one module (static; the Memory profile page shows what ran)' }, el('div', { class: 'table-toolbar' }, moduleSelect(ctx, d.modules, d.module, true))));
  if (!d.has_buffer_assignment) {
    page.append(card('No buffer assignment', { id: 'memory-viewer-empty' }, emptyState('No buffer assignment', d.message, 'Choose another module, or profile with a JAX / XLA version that stores buffer assignments with the HLO.')));
    return page;
  }
  const points = d.timeline;
  page.append(
    card('Summary', { id: 'memory-viewer-summary' }, summary(d)),
    card(
      'Memory allocation size vs program order',
      { id: 'memory-viewer-curve', subtitle: `The x axis is the compiler's order, not time; ${points.length} points${d.timeline_downsampled ? ' (down-sampled, the peak kept)' : ''}. Drag or scroll to zoom.` },
      points.length ? curveNode(d) : emptyState('No heap simulation', 'This module has no heap trace; only buffers live for the whole program are counted.'),
    ),
    card('Buffers live at the peak', { id: 'memory-viewer-buffers', subtitle: 'Largest first; parameters, outputs and constants are live for the whole program' }, buffersTable(ctx, d.peak_buffers)),
  );
  const notes = d.diagnostics;
  if (notes.length) page.append(card('Notes', { id: 'memory-viewer-notes' }, el('ul', {}, ...notes.map((n) => el('li', {}, n)))));
  return page;
}
