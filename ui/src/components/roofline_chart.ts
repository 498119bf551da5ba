// The roofline chart: achieved GFLOP/s against arithmetic intensity (FLOP per byte), both
// on log scales, under the device's two roofs - bandwidth x intensity up to the ridge
// point, peak compute after it. One point per op (colour: what bounds it) and per program.
import { LineChart, ScatterChart } from 'echarts/charts';
import * as echarts from 'echarts/core';
import { escapeHtml } from '../format';
import { legendHeight, mountChart, plainLegend, textStyle } from './charts';

echarts.use([LineChart, ScatterChart]);

export interface RooflinePoint {
  name: string;
  level: 'op' | 'program';
  intensity: number; // FLOP/B
  gflopRate: number; // achieved GFLOP/s
  boundBy: string;
  timeUs: number;
}

export interface Roofs {
  peakGflops: number;
  peakBandwidthGbps: number;
}

const BOUND_COLORS: Record<string, string> = { compute: '#1a73e8', memory: '#e8710a', latency: '#d93025', unknown: '#80868b' };

export function rooflineChart(name: string, points: RooflinePoint[], roofs: Roofs, options: { height?: number } = {}): HTMLElement {
  const ridge = roofs.peakGflops / roofs.peakBandwidthGbps;
  const xs = points.map((p) => p.intensity).filter((x) => x > 0);
  const ys = points.map((p) => p.gflopRate).filter((y) => y > 0);
  // The x range covers every point and the ridge with a decade of margin.
  const xMin = 10 ** Math.floor(Math.log10(Math.min(ridge, ...xs)) - 1);
  const xMax = 10 ** Math.ceil(Math.log10(Math.max(ridge, ...xs)) + 1);
  const yMin = 10 ** Math.floor(Math.log10(Math.min(roofs.peakBandwidthGbps * xMin, ...ys)));
  const yMax = 10 ** Math.ceil(Math.log10(roofs.peakGflops * 2));
  const roof = [
    [xMin, roofs.peakBandwidthGbps * xMin],
    [ridge, roofs.peakGflops],
    [xMax, roofs.peakGflops],
  ];
  const scatter = (level: 'op' | 'program', bound: string | null) =>
    points
      .filter((p) => p.level === level && p.intensity > 0 && p.gflopRate > 0 && (bound === null || p.boundBy === bound))
      .map((p) => ({ value: [p.intensity, p.gflopRate], name: p.name, timeUs: p.timeUs, boundBy: p.boundBy }));
  // One series per verdict that has a point to draw (ops without FLOPs are not placed).
  const bounds = [...new Set(points.filter((p) => p.level === 'op' && p.intensity > 0 && p.gflopRate > 0).map((p) => p.boundBy))];
  const maxTime = Math.max(1, ...points.map((p) => p.timeUs));
  const size = (_value: unknown, params: { data?: { timeUs?: number } }) => 8 + 16 * Math.sqrt((params.data?.timeUs ?? 0) / maxTime);
  const seriesNames = ['Roof', ...bounds.map((bound) => `Ops (${bound} bound)`), 'Programs'];
  // Every series in the legend, on as many lines as it takes (never paged).
  const option = (width: number): echarts.EChartsCoreOption => ({
    textStyle,
    animation: false,
    legend: plainLegend,
    grid: { left: 80, right: 32, top: legendHeight(seriesNames, width || 600) + 24, bottom: 48 },
    tooltip: {
      trigger: 'item',
      formatter: (p: { seriesName: string; data: { name?: string; value: number[]; timeUs?: number; boundBy?: string } }) => {
        if (!p.data?.name) return escapeHtml(p.seriesName);
        const [x, y] = p.data.value;
        return `<b>${escapeHtml(p.data.name)}</b><br/>${x.toPrecision(3)} FLOP/B, ${y.toPrecision(4)} GFLOP/s<br/>${(p.data.timeUs ?? 0).toFixed(1)} µs, bound by ${escapeHtml(p.data.boundBy ?? '')}`;
      },
    },
    xAxis: { type: 'log', name: 'arithmetic intensity (FLOP/B)', nameLocation: 'middle', nameGap: 28, min: xMin, max: xMax, splitLine: { lineStyle: { color: '#eceff1' } } },
    // The unit along the axis, clear of the legend above the plot.
    yAxis: { type: 'log', name: 'GFLOP/s', nameLocation: 'middle', nameRotate: 90, nameGap: 60, min: yMin, max: yMax, splitLine: { lineStyle: { color: '#eceff1' } } },
    series: [
      { name: 'Roof', type: 'line', data: roof, showSymbol: false, lineStyle: { color: '#202124', width: 2 }, itemStyle: { color: '#202124' }, silent: true },
      ...bounds.map((bound) => ({ name: `Ops (${bound} bound)`, type: 'scatter', data: scatter('op', bound), symbolSize: size, itemStyle: { color: BOUND_COLORS[bound] ?? '#80868b', opacity: 0.75 } })),
      { name: 'Programs', type: 'scatter', data: scatter('program', null), symbol: 'diamond', symbolSize: 16, itemStyle: { color: '#188038' } },
    ],
  });
  return mountChart(options.height ?? 420, option, name);
}
