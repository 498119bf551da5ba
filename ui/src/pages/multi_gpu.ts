// Multi-GPU: per device, compute and collectives per step and how long each waits for the
// straggler; per step, imbalance and launch skew; collectives' bandwidth against the link
// (the tool's declared tables), with the link bandwidth and the model's parameter count
// the user can set on the summary card (link_gbps=X and parameters=N in the URL and on the
// API, as `analyze --link_gbps X --parameters N`) for the guide's all-reduce estimate.
// Where no step has work on two devices, the tool compares the devices over the whole
// profile (summary.basis "profile"), and so does the chart.
import { card, diagnosticsList, emptyState, tiles } from '../components/cards';
import { stackedBars } from '../components/charts';
import { dataTable } from '../components/table';
import type { MultiGpuDeviceRow } from '../generated/tools';
import { el, formatCount, formatMs, formatPercent } from '../format';
import { csvButton } from './input_pipeline';
import { declaredColumns, resultOf, type PageContext } from './page';

export function renderMultiGpu(ctx: PageContext): HTMLElement {
  const d = resultOf(ctx, 'multi_gpu');
  const page = el('div', { class: 'page page-multi-gpu' });
  const summary = d.summary;
  const devices = d.devices;
  const steps = d.steps;
  const csv = (table: string) => csvButton(ctx, table);
  const whole = summary.basis === 'profile';
  const linkLabel = declaredColumns(ctx, 'collectives').find((c) => c.id === 'link_gbps')?.label ?? 'link_gbps';
  page.append(
    card(
      'Summary',
      { id: 'summary', actions: [linkInput(ctx, linkLabel), parametersInput(ctx)] },
      tiles([
        {
          label: 'Devices',
          value: formatCount(summary.device_count),
          json: ['summary', 'device_count'],
          detail: whole ? 'compared over the whole profile: no step has work on two of them' : `${plural(summary.steps, 'step')} compared`,
        },
        {
          label: 'Straggler',
          value: summary.straggler || 'none',
          detail: !summary.straggler ? '' : whole ? 'most kernel time without collectives' : `slowest in ${plural(summary.straggler_steps, 'step')}`,
          tone: summary.straggler ? 'warn' : 'good',
        },
        { label: 'Compute imbalance', value: formatMs(summary.avg_imbalance_ms), json: ['summary', 'avg_imbalance_ms'], detail: whole ? 'slowest minus fastest device, over the profile' : 'slowest minus fastest device, per step' },
        { label: 'Launch skew', value: formatMs(summary.avg_launch_skew_ms), json: ['summary', 'avg_launch_skew_ms'], detail: whole ? 'latest minus earliest first activity' : 'latest minus earliest first kernel' },
        {
          label: 'Collectives',
          value: formatPercent(summary.collective_percent),
          json: ['summary', 'collective_percent'],
          detail: whole ? 'of device time over the profile' : `${formatMs(summary.avg_step_collective_ms)} per device and step`,
        },
        {
          label: 'Collective bus bandwidth',
          value: summary.sized_collectives > 0 ? `${summary.busbw_gbps.toFixed(1)} GB/s` : 'unknown',
          json: ['summary', 'busbw_gbps'],
          detail:
            summary.sized_collectives > 0
              ? summary.link_gbps > 0
                ? `${formatPercent(summary.link_percent)} of the ${summary.link_gbps.toFixed(0)} GB/s link (${summary.link})`
                : 'link bandwidth unknown'
              : 'no collective in the profile says how much it moved',
        },
        {
          label: 'All-reduce estimate',
          value: summary.estimated_all_reduce_ms > 0 ? formatMs(summary.estimated_all_reduce_ms) : '–',
          json: ['summary', 'estimated_all_reduce_ms'],
          detail:
            summary.estimated_all_reduce_ms > 0
              ? `${formatCount(summary.parameter_count)} parameters × 4 B / link (${
                  summary.estimate_basis === 'parameters' ? 'the count given' : 'from the measured all-reduce bytes'
                }); measured ${formatMs(summary.all_reduce_ms_per_step)} per step`
              : summary.link_gbps > 0
                ? 'needs the model’s parameter count (above) or all-reduce sizes in the profile'
                : `needs the link bandwidth: enter it in “${linkLabel}” above`,
        },
        {
          label: 'Launch threads',
          value: formatCount(summary.launch_threads),
          json: ['summary', 'launch_threads'],
          detail: `${formatCount(summary.gpu_private_threads)} tf_gpu_private; busy alongside tf.data ${formatPercent(summary.launch_input_overlap_percent)} of their time`,
        },
      ]),
    ),
  );
  if (!devices.length) {
    page.append(card('Devices', {}, emptyState('Fewer than two devices with activity', 'This page compares devices or ranks step by step.', '')));
  } else {
    page.append(deviceChart(devices, whole));
    page.append(
      card(
        'Devices',
        { id: 'devices' },
        dataTable({
          name: 'devices',
          columns: declaredColumns(ctx, 'devices', { device: { className: 'name' } }),
          rows: devices as never,
          sort: { column: 'avg_compute_ms', descending: true },
          filterColumns: ['host', 'device'],
          toolbar: [csv('devices')],
        }),
      ),
    );
  }
  if (steps.length) {
    page.append(
      card(
        'Steps',
        { id: 'steps' },
        dataTable({
          name: 'steps',
          columns: declaredColumns(ctx, 'steps', { straggler: { className: 'name' } }),
          rows: steps as never,
          sort: { column: 'step_number', descending: false },
          filterColumns: ['straggler'],
          toolbar: [csv('steps')],
        }),
      ),
    );
  }
  const collectives = d.collectives;
  if (collectives.length) {
    page.append(
      card(
        'Collectives',
        { id: 'collectives', subtitle: 'Size, algorithm and bus bandwidth (NCCL’s conventions) of the collectives whose size the profile records, against the link' },
        dataTable({
          name: 'collectives',
          columns: declaredColumns(ctx, 'collectives', { device: { className: 'name' } }),
          rows: collectives as never,
          sort: { column: 'time_ms', descending: true },
          filterColumns: ['host', 'device', 'collective'],
          toolbar: [csv('collectives')],
        }),
      ),
    );
  }
  const notes = diagnosticsList(d.diagnostics);
  if (notes) page.append(notes);
  return page;
}

// The model's parameter count for the all-reduce estimate; empty: the measured all-reduce
// bytes / 4 (fp32 gradients).
function parametersInput(ctx: PageContext): HTMLElement {
  const input = el('input', { class: 'inline-select', id: 'multi-gpu-parameters', type: 'number', min: '1', max: '1000000000000000', step: '1', placeholder: 'from all-reduce bytes', 'aria-label': 'Model parameters' });
  input.value = ctx.hash.extra.parameters ?? '';
  // The browser's own range check first, so a slip stays in the box; the server checks the rest.
  input.addEventListener('change', () => (input.checkValidity() ? ctx.setExtra('parameters', input.value.trim() || null) : input.reportValidity()));
  return el('label', { class: 'toggle' }, 'Model parameters ', input);
}

// The link bandwidth to compare collectives with and to estimate the all-reduce from,
// labelled as the tool labels the column; empty: the tool's table by GPU model. On the
// summary card, so it is there also when the profile has no collectives to list.
function linkInput(ctx: PageContext, label: string): HTMLElement {
  const input = el('input', { class: 'inline-select', id: 'multi-gpu-link-gbps', type: 'number', min: '0', max: '1000000', step: 'any', placeholder: 'by GPU model', 'aria-label': label });
  input.value = ctx.hash.extra.link_gbps ?? '';
  // The browser's own range check first, so a slip stays in the box; the server checks the rest.
  input.addEventListener('change', () => (input.checkValidity() ? ctx.setExtra('link_gbps', input.value.trim() || null) : input.reportValidity()));
  return el('label', { class: 'toggle' }, `${label} `, input);
}

// "1 step", "3 steps".
function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}

// One stacked bar per device: per step (averages over the steps each device ran in), or
// over the whole profile where no step has work on two devices. A device without a step
// says so under its bar; a chart with nothing to draw says why instead.
function deviceChart(devices: MultiGpuDeviceRow[], whole: boolean): HTMLElement {
  const name = (r: MultiGpuDeviceRow) => (devices.some((o) => o.host !== r.host) ? `${r.host}:${r.device}` : r.device);
  const labels = devices.map((r) => (!whole && r.steps === 0 ? `${name(r)} (no step)` : name(r)));
  const series = whole
    ? [
        { name: 'Compute', color: '#2e9e44', values: devices.map((r) => Math.max(0, r.kernel_ms - r.total_collective_ms)) },
        { name: 'Collectives', color: '#7e57c2', values: devices.map((r) => r.total_collective_ms) },
      ]
    : [
        { name: 'Compute', color: '#2e9e44', values: devices.map((r) => r.avg_compute_ms) },
        { name: 'Collectives', color: '#7e57c2', values: devices.map((r) => r.avg_collective_ms) },
        { name: 'Waits for the straggler', color: '#e53935', values: devices.map((r) => r.avg_wait_ms) },
      ];
  const title = whole ? 'Device time over the profile' : 'Device time per step';
  const empty = devices.filter((r) => !whole && r.steps === 0).map(name);
  const subtitle = whole
    ? 'No step has work on two devices, so each device’s kernel time over the whole profile: compute and collectives'
    : `Average over the steps each device ran in: compute, collectives, and the straggler’s extra compute each device waits for${
        empty.length ? `; ${empty.join(', ')} ran in no step` : ''
      }`;
  if (!series.some((s) => s.values.some((v) => v > 0))) {
    return card(
      title,
      { id: 'chart' },
      emptyState(
        'No device time to draw',
        whole ? 'No device ran a kernel in this profile.' : 'No device ran a kernel inside a step: there is no per-step time to compare.',
        'The Devices table below has each device’s kernel time over the whole profile.',
      ),
    );
  }
  return card(title, { id: 'chart', subtitle }, stackedBars('multi_gpu_chart', labels, series, { xName: 'device', yName: 'ms' }));
}
