// What the XLA pages (HLO stats, op profile, roofline) share: the summary tiles of the
// tools' common `summary` object.
import { tiles } from '../components/cards';
import { formatCount, formatMs, formatPercent, isNum, num } from '../format';
import { obj, str } from './page';

export function hloSummaryTiles(summary: Record<string, unknown>): HTMLElement {
  const device = obj(summary.device);
  const known = isNum(summary.flops_utilization_percent);
  return tiles([
    { label: 'Programs', value: formatCount(summary.programs), json: ['summary', 'programs'], detail: `${formatCount(summary.hlo_instructions)} HLO instructions` },
    {
      label: 'Kernels joined to HLO',
      value: formatPercent(summary.join_rate_percent),
      json: ['summary', 'join_rate_percent'],
      detail: `${formatCount(summary.kernels_joined)} of ${formatCount(summary.kernels)} kernels`,
      tone: num(summary.join_rate_percent) >= 90 ? 'good' : 'warn',
    },
    {
      label: 'HLO op time',
      value: formatMs(summary.total_time_ms),
      json: ['summary', 'total_time_ms'],
      detail: `${num(summary.total_gflops).toFixed(1)} GFLOP, ${num(summary.total_gb).toFixed(2)} GB${num(summary.unknown_flops_time_percent) > 0 ? `; ${formatPercent(summary.unknown_flops_time_percent)} in ops of unknown FLOPs` : ''}`,
    },
    {
      label: 'FLOP utilisation',
      value: known ? formatPercent(summary.flops_utilization_percent, 2) : '–',
      json: ['summary', 'flops_utilization_percent'],
      detail: known ? `of ${num(device.peak_tflops).toFixed(1)} TFLOP/s (${str(device.flops_source)})` : 'device peak unknown',
    },
    {
      label: 'Bandwidth utilisation',
      value: known ? formatPercent(summary.bandwidth_utilization_percent, 2) : '–',
      json: ['summary', 'bandwidth_utilization_percent'],
      detail: known ? `of ${num(device.peak_bandwidth_gbps).toFixed(0)} GB/s (${str(device.bandwidth_source)})` : 'device bandwidth unknown',
    },
  ]);
}
