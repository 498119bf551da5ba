// Memory profile: per memory id (allocator / device), where memory peaked, the heap /
// stack / free / fragmentation timeline, and the allocations live at the peak by op.
// Reads only the memory_profile tool's JSON, typed as the tool declares it (XProf's field
// names, docs/tools.md); the breakdown's columns are the declared ones.
// Dragging across the timeline selects a time range: the page then shows the tool's result
// for that range (start_ps / end_ps; `range=START_PS,END_PS` in the URL), so the summary,
// the timeline and the breakdown follow it.
import { LineChart } from 'echarts/charts';
import { BrushComponent, DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { csvUrl, timeRangeOptions, type Row } from '../api';
import { card, emptyState, tiles, type Tile } from '../components/cards';
import { elidedSelect } from '../components/elide';
import { dataTable } from '../components/table';
import { el, formatBytes, formatCount, formatMs, formatPercent } from '../format';
import type { MemoryBreakdownRow, PerAllocatorMemoryProfile } from '../generated/tools';
import { generatedColumns, resultOf, type PageContext } from './page';

echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, DataZoomComponent, MarkLineComponent, BrushComponent, CanvasRenderer]);

const MIB = 1024 * 1024;
// The page's one chart, disposed when the page renders again.
let timelineChart: echarts.ECharts | null = null;

const PS_PER_MS = 1e9;

// `onRange(startPs, endPs)` runs when the user drags a range across the chart.
function timelineChartNode(allocator: PerAllocatorMemoryProfile, onRange: (startPs: number, endPs: number) => void): HTMLElement {
  const summary = allocator.profileSummary;
  const points = allocator.sampledTimelineSnapshots.map((s) => {
    const g = s.aggregationStats;
    return { ms: s.timeOffsetPs / PS_PER_MS, heap: g.heapAllocatedBytes / MIB, stack: g.stackReservedBytes / MIB, frag: 100 * g.fragmentation };
  });
  const node = el('div', { class: 'chart', 'data-chart': 'memory_timeline' });
  node.style.height = '340px';
  const option: echarts.EChartsCoreOption = {
    animation: false,
    textStyle: { fontFamily: 'Roboto, "Segoe UI", "Helvetica Neue", Arial, sans-serif', color: '#3c4043' },
    color: ['#f57c00', '#1a73e8', '#9334e6'],
    legend: { top: 0 },
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? v.toFixed(2) : String(v)) },
    grid: { left: 64, right: 64, top: 36, bottom: 64 },
    xAxis: { type: 'value', name: 'time (ms)', nameLocation: 'middle', nameGap: 26, min: 'dataMin', max: 'dataMax', axisLabel: { formatter: (v: number) => String(Number(v.toPrecision(5))) } },
    // Units along the axes, clear of the legend above the plot.
    yAxis: [
      { type: 'value', name: 'MiB', nameLocation: 'middle', nameRotate: 90, nameGap: 48, splitLine: { lineStyle: { color: '#eceff1' } } },
      { type: 'value', name: 'fragmentation %', nameLocation: 'middle', nameRotate: -90, nameGap: 40, min: 0, max: 100, splitLine: { show: false } },
    ],
    // Scrolling zooms; dragging selects a range (the brush), which the page then loads.
    dataZoom: [{ type: 'inside', zoomOnMouseWheel: true, moveOnMouseMove: false }, { type: 'slider', height: 18, bottom: 8 }],
    brush: { xAxisIndex: 0, brushType: 'lineX', brushMode: 'single', transformable: false, brushStyle: { color: 'rgba(26, 115, 232, 0.15)', borderColor: '#1a73e8' } },
    series: [
      { name: 'stack', type: 'line', stack: 'memory', step: 'end', symbol: 'none', areaStyle: {}, data: points.map((p) => [p.ms, p.stack]) },
      {
        name: 'heap',
        type: 'line',
        stack: 'memory',
        step: 'end',
        symbol: 'none',
        areaStyle: {},
        data: points.map((p) => [p.ms, p.heap]),
        markLine: { symbol: 'none', label: { formatter: 'peak' }, data: [{ xAxis: summary.peakStatsTimePs / PS_PER_MS }] },
      },
      { name: 'fragmentation', type: 'line', yAxisIndex: 1, step: 'end', symbol: 'none', lineStyle: { width: 1 }, data: points.map((p) => [p.ms, p.frag]) },
    ],
  };
  requestAnimationFrame(() => {
    if (!node.isConnected) return;
    timelineChart?.dispose();
    timelineChart = echarts.init(node, undefined, { renderer: 'canvas' });
    timelineChart.setOption(option);
    const chart = timelineChart;
    // The brush is the chart's drag gesture from the start (no toolbox button to press).
    chart.dispatchAction({ type: 'takeGlobalCursor', key: 'brush', brushOption: { brushType: 'lineX', brushMode: 'single' } });
    chart.on('brushEnd', (event: unknown) => {
      const areas = (event as { areas?: { coordRange?: number[] }[] }).areas ?? [];
      const range = areas[0]?.coordRange;
      if (!range || range.length < 2 || !(range[1] > range[0])) return;
      onRange(Math.floor(range[0] * PS_PER_MS), Math.ceil(range[1] * PS_PER_MS));
    });
    new ResizeObserver(() => chart.resize()).observe(node);
    node.dataset.ready = 'true';
  });
  return node;
}

function summaryTiles(allocator: PerAllocatorMemoryProfile, memoryId: string): HTMLElement {
  const at = (...keys: string[]) => ['memoryProfilePerAllocator', memoryId, ...keys];
  const s = allocator.profileSummary;
  const peak = s.peakStats;
  const diagnostics = allocator.diagnostics;
  const fragmentation = 100 * peak.fragmentation;
  // Events with sizes alone (PyTorch 1.9): the bytes in use are their running sum, but the
  // free memory, fragmentation and unfreed buffers are not in the file: absent, not 0.
  const sizesOnly = allocator.heapFromSizes;
  const absent = (label: string, why: string): Tile => ({ label, value: '–', detail: why, title: why });
  return tiles([
    { label: 'Peak memory', value: formatBytes(peak.peakBytesInUse), json: at('profileSummary', 'peakStats', 'peakBytesInUse'), detail: `at ${formatMs(s.peakStatsTimePs / PS_PER_MS)}, step ${s.peakStepId}` },
    { label: 'Heap at peak', value: formatBytes(peak.heapAllocatedBytes), json: at('profileSummary', 'peakStats', 'heapAllocatedBytes'), detail: sizesOnly ? 'running sum of the event sizes' : `stack ${formatBytes(peak.stackReservedBytes)}` },
    sizesOnly
      ? absent('Free at peak', 'not recorded: the events carry no allocator totals')
      : { label: 'Free at peak', value: formatBytes(peak.freeMemoryBytes), json: at('profileSummary', 'peakStats', 'freeMemoryBytes'), detail: `of ${formatBytes(s.memoryCapacity)} capacity` },
    sizesOnly
      ? absent('Fragmentation at peak', 'not recorded: the events carry no allocator totals')
      : { label: 'Fragmentation at peak', value: formatPercent(fragmentation), json: at('profileSummary', 'peakStats', 'fragmentation'), scale: 100, detail: '(free − largest free chunk) / free', tone: fragmentation >= 50 ? 'warn' : 'neutral' },
    { label: 'Lifetime peak', value: formatBytes(s.peakBytesUsageLifetime), json: at('profileSummary', 'peakBytesUsageLifetime'), detail: sizesOnly ? 'of the running sum' : "the allocator's peak since it started" },
    { label: 'Allocations', value: formatCount(s.numAllocations), json: at('profileSummary', 'numAllocations'), detail: `${formatCount(s.numDeallocations)} frees` },
    sizesOnly
      ? absent('Never freed', 'not known: without addresses no free pairs with its allocation')
      : { label: 'Never freed', value: formatCount(diagnostics.neverFreed), json: at('diagnostics', 'neverFreed'), detail: `${formatBytes(diagnostics.neverFreedBytes)} live at the end`, tone: diagnostics.neverFreed > 0 ? 'warn' : 'neutral' },
  ]);
}

// The breakdown's column ids, checked against the declaration.
const column = (id: keyof MemoryBreakdownRow) => id;

function breakdownTable(ctx: PageContext, breakdown: MemoryBreakdownRow[], memoryId: string): HTMLElement {
  const rows = breakdown.filter((r) => r.memoryId === memoryId);
  const bytes = (id: keyof MemoryBreakdownRow) => ({ render: (r: Row) => el('span', { title: `${formatCount(r[id])} bytes` }, formatBytes(r[id])) });
  // Every declared column but the memory id, which the page's selector already names.
  const columns = generatedColumns(
    'memory_profile',
    'breakdown',
    rows,
    {
      [column('allocationBytes')]: bytes('allocationBytes'),
      [column('requestedBytes')]: bytes('requestedBytes'),
      [column('totalBytes')]: bytes('totalBytes'),
      [column('tfOpName')]: { className: 'name' },
    },
    [column('memoryId')],
  );
  const csv = csvUrl(ctx.selection, 'breakdown', timeRangeOptions(ctx.hash.extra.range));
  return dataTable({
    name: 'memory_breakdown',
    columns,
    rows: rows as never,
    sort: { column: column('totalBytes'), descending: true },
    filterColumns: [column('tfOpName'), column('regionType'), column('dataType'), column('tensorShape')],
    filterPlaceholder: 'Filter by op, region, data type or shape',
    pageSize: 25,
    emptyText: 'No allocation of the peak step was live at the peak.',
    toolbar: [el('a', { class: 'button', href: csv, download: '', 'data-csv': 'breakdown' }, 'Export as CSV')],
  });
}

export function renderMemoryProfile(ctx: PageContext): HTMLElement {
  const d = resultOf(ctx, 'memory_profile');
  const ids = d.memoryIds;
  const perAllocator = d.memoryProfilePerAllocator;
  const page = el('div', { class: 'page page-memory-profile', 'data-page': 'memory_profile' });
  // The sidebar's step selector: the model of that step, whose memory events are the step's.
  const step = ctx.selection.step;
  if (!ids.length) {
    page.append(card('Memory profile', {}, emptyState('No memory events', d.diagnostics.join(' ') || 'This profile has no allocator activity.', 'Record allocations: TensorFlow with host tracer level ≥ 2, PyTorch with profile_memory=True.')));
    return page;
  }
  const wanted = ctx.hash.extra.memory_id;
  let current = wanted && ids.includes(wanted) ? wanted : ids[0];

  const select = elidedSelect(el('select', { class: 'inline-select', id: 'memory-id-select', 'aria-label': 'Memory id' }));
  for (const id of ids) select.append(el('option', { value: id }, id || '(unnamed)'));
  select.value = current;
  const controls = el('div', { class: 'table-toolbar' }, el('label', {}, 'Memory id ', select));

  // The brushed time range the result is for (the server computed it), if any.
  const range = timeRangeOptions(ctx.hash.extra.range);
  if (range.startPs !== undefined && range.endPs !== undefined) {
    const clear = el('button', { class: 'button', type: 'button', 'data-action': 'clear-range' }, 'Whole profile');
    clear.addEventListener('click', () => ctx.setExtra('range', null));
    const text = `Time range ${formatMs(Number(range.startPs) / PS_PER_MS)} – ${formatMs(Number(range.endPs) / PS_PER_MS)}`;
    controls.append(el('span', { class: 'range-label', 'data-range': `${range.startPs},${range.endPs}` }, text), clear);
  }
  const scope = [step ? `Step ${step} only` : '', range.startPs !== undefined ? 'the selected time range' : ''].filter(Boolean);
  const onRange = (startPs: number, endPs: number) => ctx.setExtra('range', `${startPs},${endPs}`);

  const body = el('div', {});
  const draw = () => {
    const allocator = perAllocator[current];
    const snapshots = allocator.sampledTimelineSnapshots;
    body.replaceChildren(
      card('Summary', { id: 'memory-summary', subtitle: scope.length ? `${scope.join(', ')}: the peak within it` : 'The peak within the profile' }, summaryTiles(allocator, current)),
      card(
        'Memory timeline',
        { id: 'memory-timeline', subtitle: `Heap and stack stacked (MiB), fragmentation on the right axis; ${snapshots.length} points, down-sampled with the peak kept. Drag across to select a time range; scroll to zoom.` },
        snapshots.length ? timelineChartNode(allocator, onRange) : emptyState('No events', scope.length ? `No memory events of this id in ${scope.join(', ')}.` : 'No memory events.'),
      ),
      // Events with sizes but no addresses (PyTorch 1.9): no allocation pairs with its free,
      // so no buffer can be called live at the peak; the card says why instead of a table.
      allocator.heapFromSizes
        ? card('Memory breakdown at the peak', { id: 'memory-breakdown' }, emptyState('No breakdown for this memory id', "Its events carry sizes but no addresses or totals (PyTorch before 1.10 wrote [memory] events so): memory in use is the running sum of their sizes from the start of the profile, and the buffers live at the peak cannot be listed.", 'Profile with PyTorch 1.10 or later (profile_memory=True) for addresses.'))
        : card('Memory breakdown at the peak', { id: 'memory-breakdown', subtitle: 'Allocations of the peak step live at the peak, largest first; special rows: heap no such allocation explains, and the stack' }, breakdownTable(ctx, d.breakdown, current)),
    );
  };
  select.addEventListener('change', () => {
    current = select.value;
    ctx.setExtra('memory_id', current);
  });
  draw();
  const notes = d.diagnostics;
  page.append(card('Memory profile', { id: 'memory-controls' }, controls), body);
  if (notes.length) page.append(card('Notes', { id: 'memory-notes' }, el('ul', {}, ...notes.map((n) => el('li', {}, n)))));
  return page;
}
