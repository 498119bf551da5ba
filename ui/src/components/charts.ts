// Charts (echarts, bundled and tree-shaken: only the pieces used here are in the bundle).
import { BarChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, DataZoomComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { el, escapeHtml, formatMs } from '../format';
import { distinctElided, elidedGroup, elidedLabel, measureFor } from './elide';

echarts.use([BarChart, PieChart, GridComponent, LegendComponent, TooltipComponent, DataZoomComponent, CanvasRenderer]);

const live = new Set<echarts.ECharts>();

// A drawn chart's option as echarts holds it (legend type, series), for the browser tests'
// checks of every chart (tests/browser/every_page_test.mjs); nothing in the UI uses it.
(window as unknown as { stepscopeChartOption?: (node: Element) => unknown }).stepscopeChartOption = (node) =>
  echarts.getInstanceByDom(node as HTMLElement)?.getOption();
const observer = new ResizeObserver((entries) => {
  for (const entry of entries) {
    const chart = echarts.getInstanceByDom(entry.target as HTMLElement);
    chart?.resize();
  }
});

// Disposes every chart (called when the page changes).
export function disposeCharts(): void {
  for (const chart of live) {
    observer.unobserve(chart.getDom());
    chart.dispose();
  }
  live.clear();
}

// A chart's option, or a function of the chart's width in px giving it (for a legend and
// labels laid out to fit the width).
export type ChartOption = echarts.EChartsCoreOption | ((widthPx: number) => echarts.EChartsCoreOption);

// A chart node of `height` px drawing `option` once it is in the document; data-ready is
// set when drawn (tests wait for it). Other chart modules (roofline_chart.ts) mount
// through this so every chart is resized and disposed the same way.
export function mountChart(height: number, option: ChartOption, name: string, onReady?: (chart: echarts.ECharts) => void): HTMLElement {
  return mount(height, option, name, onReady);
}

function mount(height: number | ((widthPx: number) => number), option: ChartOption, name: string, onReady?: (chart: echarts.ECharts) => void): HTMLElement {
  const node = el('div', { class: 'chart', 'data-chart': name });
  const heightFor = typeof height === 'function' ? height : () => height;
  node.style.height = `${heightFor(0)}px`;
  // echarts needs the node in the document to know its width: initialise on the next frame.
  requestAnimationFrame(() => {
    if (!node.isConnected) return;
    const width = node.clientWidth;
    node.style.height = `${heightFor(width)}px`;
    const chart = echarts.init(node, undefined, { renderer: 'canvas' });
    chart.setOption(typeof option === 'function' ? option(width) : option);
    live.add(chart);
    observer.observe(node);
    onReady?.(chart);
    node.dataset.ready = 'true';
  });
  return node;
}

export const textStyle = { fontFamily: 'Roboto, "Segoe UI", "Helvetica Neue", Arial, sans-serif', color: '#3c4043' };

// echarts' legend: 12 px text after a 14 px mark, items 10 px apart in both directions.
const LEGEND_FONT = `12px ${textStyle.fontFamily}`;
const LEGEND_ICON_PX = 14 + 5;
const LEGEND_GAP_PX = 10;
const LEGEND_LINE_PX = 14;

// The height a plain (never paged) legend of `names` takes in a chart `widthPx` wide: its
// items wrap onto as many lines as they need, and the plot starts below them. A paged
// ("scroll") legend showed "1/2" and hid series on its second page.
export function legendHeight(names: string[], widthPx: number): number {
  if (!names.length) return 0;
  const measure = measureFor(LEGEND_FONT);
  const available = Math.max(1, widthPx - 2 * LEGEND_GAP_PX);
  let lines = 1;
  let x = 0;
  for (const name of names) {
    const item = LEGEND_ICON_PX + measure(name);
    if (x > 0 && x + item > available) {
      lines++;
      x = 0;
    }
    x += item + LEGEND_GAP_PX;
  }
  return lines * LEGEND_LINE_PX + (lines - 1) * LEGEND_GAP_PX;
}

// A legend that lists every series, on as many lines as it needs (see legendHeight).
export const plainLegend = { top: 0, type: 'plain', itemWidth: 14, itemHeight: 10, itemGap: LEGEND_GAP_PX, textStyle: { fontSize: 12 } };

// Category-axis labels in `perLabelPx` each: head and tail of each name, distinct; the
// axis tooltip shows the whole name.
function axisLabels(labels: string[], perLabelPx: number): string[] {
  const chars = Math.max(6, Math.floor(perLabelPx / 7) - 1);
  return distinctElided(labels, chars);
}

export interface StackSeries {
  name: string;
  color: string;
  values: number[];
}

export interface StackedBarsOptions {
  yName?: string;
  xName?: string;
  height?: number;
  // Called with the x index of a clicked bar (the step graph selects that step).
  onClick?: (index: number) => void;
  // The x index drawn as selected (its label bold, the others' bars faded).
  selected?: number;
}

// A stacked bar per x value (step-time graph: one bar per step, one color per category).
// Every series given is in the legend, also one that is zero throughout (the caller leaves
// out what does not apply); the legend is never paged and the unit runs along the y axis,
// clear of it.
export function stackedBars(name: string, xLabels: string[], series: StackSeries[], options: StackedBarsOptions = {}): HTMLElement {
  const selected = options.selected ?? -1;
  const barData = (values: number[]) =>
    selected < 0 ? values : values.map((value, i) => ({ value, itemStyle: { opacity: i === selected ? 1 : 0.35 } }));
  const zoom = xLabels.length > 40;
  const grid = { left: 64, right: 24, bottom: zoom ? 56 : 32 };
  const legendPx = (width: number) => legendHeight(series.map((s) => s.name), width || 600);
  const option = (width: number): echarts.EChartsCoreOption => {
    const shown = axisLabels(xLabels, ((width || 600) - grid.left - grid.right) / Math.max(1, xLabels.length));
    return {
      textStyle,
      animation: false,
      color: series.map((s) => s.color),
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        valueFormatter: (value: unknown) => formatMs(value as number),
      },
      legend: { ...plainLegend, data: series.map((s) => s.name) },
      grid: { ...grid, top: legendPx(width) + 20 },
      xAxis: {
        type: 'category',
        data: xLabels,
        name: options.xName ?? 'step',
        nameLocation: 'middle',
        nameGap: 24,
        axisTick: { alignWithLabel: true },
        axisLabel: {
          // Every step's number while they fit, so the selected one is never the hidden one.
          interval: xLabels.length <= 20 ? 0 : 'auto',
          formatter: (_value: string, i: number) => (i === selected ? `{selected|${shown[i]}}` : shown[i]),
          rich: { selected: { fontWeight: 'bold', color: '#1a73e8' } },
        },
        triggerEvent: options.onClick !== undefined,
      },
      yAxis: {
        type: 'value',
        name: options.yName ?? 'ms',
        nameLocation: 'middle',
        nameGap: 46,
        nameRotate: 90,
        splitLine: { lineStyle: { color: '#eceff1' } },
      },
      dataZoom: zoom ? [{ type: 'slider', height: 18, bottom: 8 }] : [],
      series: series.map((s) => ({ name: s.name, type: 'bar', stack: 'total', barMaxWidth: 48, data: barData(s.values), emphasis: { focus: 'series' }, cursor: options.onClick ? 'pointer' : 'default' })),
    };
  };
  const onClick = options.onClick;
  const height = options.height ?? 320;
  // Taller by what the legend takes beyond one line, so the bars keep their room.
  return mount((width) => height + legendPx(width) - LEGEND_LINE_PX, option, name, (chart) => {
    if (!onClick) return;
    // A click anywhere in a step's column (not only on its bars) selects it.
    chart.getZr().on('click', (event: { offsetX: number; offsetY: number }) => {
      const point = [event.offsetX, event.offsetY];
      if (!chart.containPixel('grid', point)) return;
      const [index] = chart.convertFromPixel('grid', point) as number[];
      // After echarts has finished with the event: the click may replace the page (and
      // dispose this chart).
      if (index >= 0 && index < xLabels.length) window.setTimeout(() => onClick(Math.round(index)), 0);
    });
  });
}

export interface Slice {
  name: string; // the full name (tooltip, title attribute)
  value: number;
  label?: string; // what the legend shows, when shorter than the name
}

export interface PieOptions {
  height?: number;
  unit?: string;
  // At most this many slices; the rest become one "other" slice that says what it holds.
  maxSlices?: number;
  // What the slices are, for the "other" slice ("kernels", "ops").
  noun?: string;
  // The legend under the chart instead of beside it (narrow cards).
  stacked?: boolean;
  // A rest the caller already merged (the tool's "(other)"): `count` slices worth `value`,
  // listed `where` (e.g. "in the table below"). Shown as the "other" slice.
  rest?: { value: number; count: number; where: string };
}

const PIE_COLORS = ['#1a73e8', '#e8710a', '#188038', '#d93025', '#9334e6', '#12b5cb', '#f9ab00', '#a142f4', '#e52592', '#5f6368', '#7cb342', '#b0bec5'];
const OTHER_COLOR = '#cfd8dc';
const OTHER_LISTED = 25; // members an "other" slice names in its tooltip

interface PieItem extends Slice {
  members?: Slice[]; // the "other" slice's slices
  where?: string; // where the members are listed, when they are not here
}

// The largest slices and, for the rest, one "other (N kernels, x %)" slice.
function pieItems(slices: Slice[], maxSlices: number, noun: string, total: number): PieItem[] {
  const sorted = [...slices].filter((s) => s.value > 0).sort((a, b) => b.value - a.value);
  if (sorted.length <= maxSlices) return sorted;
  const kept: PieItem[] = sorted.slice(0, maxSlices - 1);
  const rest = sorted.slice(maxSlices - 1);
  const value = rest.reduce((sum, s) => sum + s.value, 0);
  const share = total > 0 ? (100 * value) / total : 0;
  kept.push({ name: `other (${rest.length} ${noun}, ${share.toFixed(1)} %)`, value, members: rest });
  return kept;
}

function formatValue(value: number, unit?: string): string {
  return unit === 'ms' ? formatMs(value) : value.toLocaleString('en-US');
}

function othersText(item: PieItem, unit?: string): string {
  const members = item.members ?? [];
  const lines = members.slice(0, OTHER_LISTED).map((m) => `${m.name}: ${formatValue(m.value, unit)}`);
  if (members.length > OTHER_LISTED) lines.push(`… and ${members.length - OTHER_LISTED} more`);
  if (item.where) lines.push(`the smallest, listed ${item.where}`);
  return lines.join('\n');
}

// A donut chart of shares (op types, kernels) with a legend that lists every slice with
// its value and share - nothing paged away; beyond maxSlices the smallest are one
// "other" slice whose tooltip lists them. Legend labels are the slices' short labels,
// with the full name on hover.
export function pie(name: string, slices: Slice[], options: PieOptions = {}): HTMLElement {
  const rest = options.rest && options.rest.value > 0 ? options.rest : undefined;
  const total = slices.reduce((sum, s) => sum + Math.max(0, s.value), 0) + (rest?.value ?? 0);
  const items = pieItems(slices, options.maxSlices ?? 10, options.noun ?? 'items', total);
  if (rest) {
    const share = total > 0 ? (100 * rest.value) / total : 0;
    const merged = items.length && items[items.length - 1].members ? items.pop()! : null;
    items.push({
      name: `other (${rest.count + (merged?.members?.length ?? 0)} ${options.noun ?? 'items'}, ${(share + (merged ? (100 * merged.value) / total : 0)).toFixed(1)} %)`,
      value: rest.value + (merged?.value ?? 0),
      members: merged?.members ?? [],
      where: rest.where,
    });
  }
  const colors = items.map((item, i) => (item.members ? OTHER_COLOR : PIE_COLORS[i % PIE_COLORS.length]));
  const percent = (value: number) => (total > 0 ? (100 * value) / total : 0);
  const option: echarts.EChartsCoreOption = {
    textStyle,
    animation: false,
    color: colors,
    tooltip: {
      trigger: 'item',
      confine: true,
      formatter: (p: { dataIndex: number; value: number; percent: number }) => {
        const item = items[p.dataIndex];
        const head = `${escapeHtml(item.name)}<br/><b>${formatValue(p.value, options.unit)}</b> (${p.percent.toFixed(1)}%)`;
        return item.members ? `${head}<br/><span style="font-size:11px">${escapeHtml(othersText(item, options.unit)).replace(/\n/g, '<br/>')}</span>` : head;
      },
    },
    series: [
      {
        type: 'pie',
        radius: ['40%', '75%'],
        center: ['50%', '50%'],
        avoidLabelOverlap: true,
        label: { show: false },
        labelLine: { show: false },
        itemStyle: { borderColor: '#fff', borderWidth: 1 },
        data: items.map((item) => ({ name: item.name, value: item.value })),
      },
    ],
  };
  let chartRef: echarts.ECharts | null = null;
  const chartNode = mount(options.height ?? 260, option, name, (chart) => {
    chartRef = chart;
  });
  // Labels fitted to the legend's width: head and tail of each, distinct (elide.ts).
  const legend = elidedGroup(el('ul', { class: 'pie-legend', 'data-legend': name }));
  items.forEach((item, i) => {
    const swatch = el('span', { class: 'swatch' });
    swatch.style.background = colors[i];
    const row = el(
      'li',
      { 'data-slice': String(i), title: item.members ? `${item.name}:\n${othersText(item, options.unit)}` : item.name },
      swatch,
      // The "other" slice's label is a sentence (how many, what share): it wraps, never shortened.
      item.members ? el('span', { class: 'pie-legend-label' }, item.name) : elidedLabel('span', 'pie-legend-label', item.label ?? item.name, item.name),
      el('span', { class: 'pie-legend-value' }, formatValue(item.value, options.unit)),
      el('span', { class: 'pie-legend-percent' }, `${percent(item.value).toFixed(1)} %`),
    );
    if (item.members) row.classList.add('other');
    row.addEventListener('mouseenter', () => chartRef?.dispatchAction({ type: 'highlight', seriesIndex: 0, dataIndex: i }));
    row.addEventListener('mouseleave', () => chartRef?.dispatchAction({ type: 'downplay', seriesIndex: 0, dataIndex: i }));
    legend.append(row);
  });
  return el('div', { class: options.stacked ? 'pie-with-legend stacked' : 'pie-with-legend' }, chartNode, legend);
}

// Room for the category labels left of horizontal bars, px.
const HBAR_LABEL_PX = 170;

// Horizontal bars (host-side input breakdown, etc.).
export function horizontalBars(name: string, items: { label: string; value: number; color?: string }[], options: { height?: number } = {}): HTMLElement {
  const shown = axisLabels(items.map((i) => i.label), HBAR_LABEL_PX - 8);
  const option: echarts.EChartsCoreOption = {
    textStyle,
    animation: false,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: unknown) => formatMs(v as number) },
    grid: { left: HBAR_LABEL_PX, right: 48, top: 8, bottom: 28 },
    xAxis: { type: 'value', name: 'ms', splitLine: { lineStyle: { color: '#eceff1' } } },
    // Labels longer than the room left of the bars keep their head and tail; the tooltip has the whole one.
    yAxis: { type: 'category', data: items.map((i) => i.label), inverse: true, axisTick: { show: false }, axisLabel: { formatter: (_v: string, i: number) => shown[i] } },
    series: [
      {
        type: 'bar',
        barMaxWidth: 22,
        data: items.map((i) => ({ value: i.value, itemStyle: { color: i.color ?? '#1a73e8' } })),
        label: { show: true, position: 'right', formatter: (p: { value: number }) => formatMs(p.value), fontSize: 11 },
      },
    ],
  };
  return mount(options.height ?? Math.max(120, items.length * 34 + 40), option, name);
}

// Time categories of the step-time breakdown, in stacking order, with TF Profiler's
// conventions: input red, device compute green.
export const CATEGORIES: { key: string; label: string; color: string }[] = [
  { key: 'device_compute', label: 'Device compute', color: '#2e9e44' },
  { key: 'device_collectives', label: 'Device collectives', color: '#7e57c2' },
  { key: 'device_to_device', label: 'Device to device', color: '#26a69a' },
  { key: 'host_compute', label: 'Host compute', color: '#1e88e5' },
  { key: 'kernel_launch', label: 'Kernel launch', color: '#fb8c00' },
  { key: 'compilation', label: 'Compilation', color: '#8d6e63' },
  { key: 'output', label: 'Output', color: '#fdd835' },
  { key: 'input', label: 'Input', color: '#e53935' },
  { key: 'other', label: 'Other (no recorded event)', color: '#b0bec5' },
];
