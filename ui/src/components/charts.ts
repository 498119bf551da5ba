// Charts (echarts, bundled and tree-shaken: only the pieces used here are in the bundle).
import { BarChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, DataZoomComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { el, formatMs } from '../format';

echarts.use([BarChart, PieChart, GridComponent, LegendComponent, TooltipComponent, DataZoomComponent, CanvasRenderer]);

const live = new Set<echarts.ECharts>();
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

function mount(height: number, option: echarts.EChartsCoreOption, name: string): HTMLElement {
  const node = el('div', { class: 'chart', 'data-chart': name });
  node.style.height = `${height}px`;
  // echarts needs the node in the document to know its width: initialise on the next frame.
  requestAnimationFrame(() => {
    if (!node.isConnected) return;
    const chart = echarts.init(node, undefined, { renderer: 'canvas' });
    chart.setOption(option);
    live.add(chart);
    observer.observe(node);
    node.dataset.ready = 'true';
  });
  return node;
}

const textStyle = { fontFamily: 'Roboto, "Segoe UI", "Helvetica Neue", Arial, sans-serif', color: '#3c4043' };

export interface StackSeries {
  name: string;
  color: string;
  values: number[];
}

// A stacked bar per x value (step-time graph: one bar per step, one color per category).
export function stackedBars(name: string, xLabels: string[], series: StackSeries[], options: { yName?: string; xName?: string; height?: number } = {}): HTMLElement {
  const visible = series.filter((s) => s.values.some((v) => v > 0));
  const option: echarts.EChartsCoreOption = {
    textStyle,
    animation: false,
    color: visible.map((s) => s.color),
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (value: unknown) => formatMs(value as number),
    },
    legend: { top: 0, type: 'scroll', itemWidth: 14, itemHeight: 10 },
    grid: { left: 56, right: 24, top: 40, bottom: xLabels.length > 40 ? 56 : 32 },
    xAxis: { type: 'category', data: xLabels, name: options.xName ?? 'step', nameLocation: 'middle', nameGap: 24, axisTick: { alignWithLabel: true } },
    yAxis: { type: 'value', name: options.yName ?? 'ms', nameTextStyle: { align: 'right' }, splitLine: { lineStyle: { color: '#eceff1' } } },
    dataZoom: xLabels.length > 40 ? [{ type: 'slider', height: 18, bottom: 8 }] : [],
    series: visible.map((s) => ({ name: s.name, type: 'bar', stack: 'total', barMaxWidth: 48, data: s.values, emphasis: { focus: 'series' } })),
  };
  return mount(options.height ?? 320, option, name);
}

export interface Slice {
  name: string;
  value: number;
}

// A donut chart of shares (op types, kernels); small slices are merged by the caller.
export function pie(name: string, slices: Slice[], options: { height?: number; unit?: string } = {}): HTMLElement {
  const option: echarts.EChartsCoreOption = {
    textStyle,
    animation: false,
    color: ['#1a73e8', '#e8710a', '#188038', '#d93025', '#9334e6', '#12b5cb', '#f9ab00', '#a142f4', '#e52592', '#5f6368', '#7cb342', '#b0bec5'],
    tooltip: {
      trigger: 'item',
      formatter: (p: { name: string; value: number; percent: number }) =>
        `${escapeHtml(p.name)}<br/><b>${options.unit === 'ms' ? formatMs(p.value) : p.value.toLocaleString('en-US')}</b> (${p.percent.toFixed(1)}%)`,
    },
    legend: { type: 'scroll', orient: 'vertical', right: 0, top: 'middle', width: '42%', formatter: (n: string) => (n.length > 34 ? `${n.slice(0, 33)}…` : n), textStyle: { fontSize: 11 } },
    series: [
      {
        type: 'pie',
        radius: ['38%', '70%'],
        center: ['28%', '50%'],
        avoidLabelOverlap: true,
        label: { show: false },
        labelLine: { show: false },
        itemStyle: { borderColor: '#fff', borderWidth: 1 },
        data: slices,
      },
    ],
  };
  return mount(options.height ?? 260, option, name);
}

// Horizontal bars (host-side input breakdown, etc.).
export function horizontalBars(name: string, items: { label: string; value: number; color?: string }[], options: { height?: number } = {}): HTMLElement {
  const option: echarts.EChartsCoreOption = {
    textStyle,
    animation: false,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: unknown) => formatMs(v as number) },
    grid: { left: 170, right: 48, top: 8, bottom: 28 },
    xAxis: { type: 'value', name: 'ms', splitLine: { lineStyle: { color: '#eceff1' } } },
    yAxis: { type: 'category', data: items.map((i) => i.label), inverse: true, axisTick: { show: false } },
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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
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
