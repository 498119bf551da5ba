// Overview: performance summary, step-time graph, top-10 device ops, run environment and
// the recommendation for the next step (TF Profiler's overview page).
import { card, diagnosticsList, emptyState, jsonSource, keyValues, tiles, type Tile } from '../components/cards';
import { CATEGORIES, stackedBars } from '../components/charts';
import { dataTable } from '../components/table';
import { el, formatBytes, formatCount, formatMs, formatPercent, num } from '../format';
import type { StepRow, StepTimeSummary } from '../generated/tools';
import { findingCard } from './advisor';
import { frameworkLabel, generatedColumns, resultOf, selectedStep, selectStep, stepsHint, toolHref, type PageContext } from './page';

const VERDICT_TONE: Record<string, Tile['tone']> = { highly: 'bad', moderately: 'warn', not: 'good', unknown: 'neutral' };

export function verdictText(verdict: string, potentially: boolean): string {
  if (verdict === 'highly') return 'Highly input bound';
  if (verdict === 'moderately') return 'Moderately input bound';
  if (verdict === 'not') return potentially ? 'Potentially input bound' : 'Not input bound';
  return 'Unknown (no steps)';
}

// Every step of the run (PageContext.stepRows, the overview's step_time_graph), as declared.
export function overviewStepRows(ctx: PageContext): StepRow[] {
  return ctx.stepRows as unknown as StepRow[];
}

// The step summary as page.ts' untyped helpers read it (the framework, the no-steps hint).
export function summaryFields(summary: StepTimeSummary): Record<string, unknown> {
  return summary as unknown as Record<string, unknown>;
}

// The step-time graph: one stacked bar per step, one color per category. With `ctx`, a
// click on a step selects it (the page then shows that step) and the selected step is
// drawn so.
export function stepTimeChart(name: string, rows: StepRow[], ctx?: PageContext): HTMLElement {
  const labels = rows.map((r) => String(r.step_number));
  // Categories that do not apply to the profile are not in its rows: no series for them.
  const column = (key: string) => `${key}_ms` as keyof StepRow;
  const series = CATEGORIES.filter((c) => rows.length === 0 || column(c.key) in rows[0]).map((c) => ({ name: c.label, color: c.color, values: rows.map((r) => num(r[column(c.key)])) }));
  if (!ctx) return stackedBars(name, labels, series, { yName: 'ms' });
  const step = selectedStep(ctx);
  const selected = step ? rows.findIndex((r) => String(r.step_number) === step) : -1;
  return stackedBars(name, labels, series, {
    yName: 'ms',
    selected,
    onClick: (i) => selectStep(ctx, String(rows[i].step_number) === step ? null : String(rows[i].step_number)),
  });
}

// "All steps" back from one step.
export function stepClearButton(ctx: PageContext): HTMLElement {
  const button = el('button', { class: 'button', 'data-control': 'all-steps' }, `Step ${selectedStep(ctx)} · show all steps`);
  button.addEventListener('click', () => selectStep(ctx, null));
  return button;
}

export function renderOverview(ctx: PageContext): HTMLElement {
  const d = resultOf(ctx, 'overview_page');
  const page = el('div', { class: 'page page-overview' });
  const steps = d.steps;
  const breakdown = d.step_time_breakdown_ms;
  const percent = d.step_time_breakdown_percent;
  const stats = d.step_time_stats_ms;
  const precision = d.device_compute_precision;
  const placement = d.op_placement;
  const verdict = d.input_bound_verdict;
  const env = d.run_environment;
  // The graph shows every step even when one is selected (the data is then that step's).
  const graphRows = ctx.stepRows.length ? overviewStepRows(ctx) : d.step_time_graph;

  // Performance summary.
  const summaryTiles: Tile[] = [
    selectedStep(ctx)
      ? { label: `Step ${selectedStep(ctx)} time`, value: formatMs(d.avg_step_time_ms), json: ['avg_step_time_ms'], detail: `of ${formatCount(ctx.stepRows.length)} steps; the page shows this step alone` }
      : { label: 'Average step time', value: steps ? formatMs(d.avg_step_time_ms) : '–', json: ['avg_step_time_ms'], detail: steps ? `σ ${formatMs(stats.stddev)} over ${formatCount(steps)} steps` : 'no steps found' },
    { label: 'Input', value: steps ? formatPercent(d.input_bound_percent) : '–', json: ['input_bound_percent'], detail: verdictText(verdict, d.input_bound_potentially), tone: VERDICT_TONE[verdict] ?? 'neutral' },
    {
      label: '16-bit device compute',
      value: precision.bit16_percent !== null ? formatPercent(precision.bit16_percent) : 'n/a',
      json: ['device_compute_precision', 'bit16_percent'],
      detail: precision.bit32_percent !== null ? `${formatPercent(precision.bit32_percent)} 32-bit` : 'no device compute',
    },
    { label: 'Framework ops on host only', value: formatPercent(placement.host_percent), json: ['op_placement', 'host_percent'], detail: `ops that launched no device work; ${formatPercent(placement.device_percent)} on device` },
  ];
  // Steps timed as the program's iterations with device work: how far the device runs
  // behind the host, and whether the device's cadence is the step time.
  const cadence = d.step_cadence;
  if (cadence && !selectedStep(ctx)) {
    summaryTiles.push({
      label: 'Device lag',
      value: formatMs(cadence.mean_device_lag_ms),
      json: ['step_cadence', 'mean_device_lag_ms'],
      detail: `mean from a host step's end to the end of its device work; max ${formatMs(cadence.max_device_lag_ms)}`,
      tone: cadence.device_bound ? 'warn' : 'neutral',
    });
  }
  // XLA profiles: FLOP utilisation of the HLO ops against the device's compute roof.
  const xla = d.xla;
  if (xla) {
    const device = xla.device;
    summaryTiles.push({
      label: 'FLOP utilisation (XLA)',
      value: xla.flops_utilization_percent !== null ? formatPercent(xla.flops_utilization_percent, 2) : 'n/a',
      json: ['xla', 'flops_utilization_percent'],
      detail: xla.flops_utilization_percent !== null
        ? `of ${(device.peak_tflops ?? 0).toFixed(0)} TFLOP/s; bandwidth ${formatPercent(xla.bandwidth_utilization_percent)} (${formatCount(xla.kernels_joined)} of ${formatCount(xla.kernels)} kernels joined to HLO)`
        : 'device peaks unknown',
    });
  }
  const breakdownList = el(
    'ul',
    { class: 'breakdown-list' },
    // Categories with time, and always input (and device compute when there is a device).
    // Categories that do not apply to the profile are absent from its breakdown: never shown.
    ...CATEGORIES.filter((c) => c.key in breakdown && (breakdown[c.key] > 0 || c.key === 'input' || (c.key === 'device_compute' && env.active_device_count > 0))).map((c) =>
      el(
        'li',
        { 'data-category': c.key },
        el('span', { class: 'swatch' }),
        el('span', { class: 'breakdown-label' }, c.label),
        el('span', { class: 'breakdown-value', ...jsonSource(['step_time_breakdown_ms', c.key]) }, formatMs(breakdown[c.key])),
        el('span', { class: 'breakdown-percent', ...jsonSource(['step_time_breakdown_percent', c.key]) }, formatPercent(percent[c.key])),
      ),
    ),
  );
  for (const li of breakdownList.querySelectorAll<HTMLElement>('li')) {
    const category = CATEGORIES.find((c) => c.key === li.dataset.category);
    (li.querySelector('.swatch') as HTMLElement).style.background = category?.color ?? '#999';
  }
  const statement = d.input_bound_statement;
  page.append(
    el(
      'div',
      { class: 'grid-2' },
      card(
        'Performance summary',
        { id: 'summary', subtitle: selectedStep(ctx) ? `Step ${selectedStep(ctx)}, broken down by where the time goes` : 'Average step time, broken down by where the time goes' },
        tiles(summaryTiles, { columns: 2 }),
        steps ? breakdownList : emptyState('No step markers found', 'Without steps there is no step time to break down.', stepsHint(summaryFields(d))),
        steps && statement ? el('p', { class: 'statement' }, statement) : null,
        steps && cadence?.statement ? el('p', { class: 'statement', 'data-field': 'cadence' }, `Cadence: ${cadence.statement}.`) : null,
      ),
      card(
        'Step-time graph',
        {
          id: 'step-graph',
          subtitle: 'Time per step by category (input in red, device compute in green). Click a step to show it alone; click it again for all steps.',
          actions: selectedStep(ctx) ? [stepClearButton(ctx)] : [],
        },
        graphRows.length ? stepTimeChart('step_time_graph', graphRows, ctx) : emptyState('No step markers found', 'This profile has no steps to plot.', stepsHint(summaryFields(d))),
      ),
    ),
  );

  // Top device ops.
  const topOps = d.top_device_ops;
  page.append(
    card(
      'Top 10 device ops',
      { id: 'top-ops', subtitle: selectedStep(ctx) ? `By self time on the device in step ${selectedStep(ctx)}` : 'By self time on the device', actions: [el('a', { class: 'button', href: toolHref(ctx.selection, 'framework_op_stats') }, 'All ops →')] },
      topOps.length
        ? dataTable({
            name: 'top_device_ops',
            // The category is on the framework op stats page; this card stays narrow.
            columns: generatedColumns('overview_page', 'top_device_ops', topOps, { rank: { label: '#' }, name: { className: 'name' } }, ['category']),
            rows: topOps as never,
            sort: { column: 'rank', descending: false },
            filterColumns: ['name', 'type'],
            pageSize: 10,
          })
        : emptyState('No device ops', 'This profile has no device (GPU) activity: every op ran on the host.', 'The host-side ops are on the Framework op stats page.'),
    ),
  );

  // Run environment + recommendation.
  const hosts = env.hosts;
  const envPairs: [string, string][] = [
    ['Framework', frameworkLabel(summaryFields(d)) || 'not recognised'],
    ['Hosts', formatCount(env.host_count || hosts.length)],
    ['Device type', env.device_type || '–'],
    ['Devices', `${formatCount(env.device_count)} (${formatCount(env.active_device_count)} active)`],
  ];
  // The devices by model name ("8× NVIDIA A100-SXM4-40GB"), as the text output says them.
  const models = env.device_models.filter((m) => m.name);
  if (models.length) envPairs.push(['Device models', models.map((m) => `${formatCount(m.count)}× ${m.name}`).join(', ')]);
  if (env.device_compute_units > 0) envPairs.push(['Device compute units', formatCount(env.device_compute_units)]);
  if (hosts.length === 1) {
    const host = hosts[0];
    if (host.logical_cores > 0) envPairs.push(['Host CPU cores', formatCount(host.logical_cores)]);
    if (host.host_memory_bytes > 0) envPairs.push(['Host memory', formatBytes(host.host_memory_bytes)]);
  }
  envPairs.push(['Dropped events', env.dropped_events > 0 ? `${formatCount(env.dropped_events)} (buffers were full)` : 'none']);
  const recommendations = d.recommendations;
  page.append(
    el(
      'div',
      { class: 'grid-2' },
      card(
        'Run environment',
        { id: 'environment' },
        keyValues(envPairs),
        hosts.length > 1
          ? dataTable({ name: 'hosts', columns: generatedColumns('overview_page', 'hosts', hosts), rows: hosts as never, pageSize: 20 })
          : null,
      ),
      card(
        'Recommendation for next step',
        { id: 'recommendation' },
        el('p', { class: 'next-step' }, d.next_step || 'No change recommended: no check found a bottleneck.'),
        // The next step repeats the first finding's advice: show its evidence, then the others.
        recommendations.length ? el('div', { class: 'findings compact' }, ...recommendations.slice(0, 3).map((f) => findingCard(f, ctx, true))) : null,
        recommendations.length ? el('a', { class: 'button', href: toolHref(ctx.selection, 'advisor') }, recommendations.length > 3 ? `All ${recommendations.length} findings →` : 'Open the advisor →') : null,
      ),
    ),
  );
  // Sampled device counters (NVML via stepscope's tracer), when the profile has any.
  const counters = d.device_counters;
  if (counters.length) {
    page.append(
      card(
        'Device counters',
        { id: 'device-counters', subtitle: 'Sampled during the profile: SM and memory utilisation, memory used, power (time at or above 80 % utilisation / 90 % of memory)' },
        dataTable({
          name: 'device_counters',
          columns: generatedColumns('overview_page', 'device_counters', counters, { counter: { className: 'name' } }),
          rows: counters as never,
          sort: { column: 'device', descending: false },
          filterColumns: ['device', 'counter'],
          pageSize: 20,
        }),
      ),
    );
  }
  const notes = diagnosticsList(d.diagnostics);
  if (notes) page.append(notes);
  return page;
}
