// Pod viewer: each worker's step time stacked by category, for one step or on average,
// and which worker lags.
import { card, diagnosticsList, emptyState, tiles } from '../components/cards';
import { CATEGORIES, stackedBars } from '../components/charts';
import { dataTable } from '../components/table';
import { el, formatCount, formatMs, num } from '../format';
import { csvButton } from './input_pipeline';
import { arr, obj, str, stepsHint, type PageContext } from './page';

export function renderPodViewer(ctx: PageContext): HTMLElement {
  const d = ctx.data;
  const page = el('div', { class: 'page page-pod-viewer' });
  const summary = obj(d.summary);
  const workers = arr(d.workers);
  const steps = arr(d.steps);
  const stepWorkers = arr(d.step_workers);
  if (!steps.length) {
    page.append(card('Pod viewer', {}, emptyState('No step markers found', 'The pod viewer compares workers step by step.', stepsHint(summary, 'statement'))));
    const notes = diagnosticsList(d.diagnostics);
    if (notes) page.append(notes);
    return page;
  }
  page.append(
    card(
      'Summary',
      { id: 'summary' },
      tiles([
        { label: 'Workers', value: formatCount(d.host_count), json: ['host_count'], detail: `${formatCount(d.steps_on_all_hosts)} of ${formatCount(d.step_count)} steps on all` },
        { label: 'Average spread', value: formatMs(summary.avg_spread_ms), json: ['summary', 'avg_spread_ms'], detail: 'slowest minus fastest worker' },
        { label: 'Largest spread', value: formatMs(summary.max_spread_ms), json: ['summary', 'max_spread_ms'], detail: summary.max_spread_step === null || summary.max_spread_step === undefined ? '' : `step ${str(summary.max_spread_step)}` },
        { label: 'Straggler', value: str(summary.straggler_host) || 'none', tone: summary.straggler_host ? 'warn' : 'good' },
      ]),
      str(summary.statement) ? el('p', { class: 'statement' }, str(summary.statement)) : null,
    ),
  );

  // One stacked bar per worker: the chosen step, or the average over steps.
  const hosts = workers.map((w) => str(w.host));
  const chooser = el('select', { class: 'inline-select', 'aria-label': 'Step', 'data-control': 'pod-step' });
  chooser.append(el('option', { value: 'avg' }, 'Average over steps'), ...steps.map((s) => el('option', { value: str(s.step_number) }, `Step ${str(s.step_number)}`)));
  const slot = el('div', {});
  const draw = () => {
    const chosen = chooser.value;
    // Categories that do not apply to the profile are not in its rows: no series for them.
    const series = CATEGORIES.filter((c) => workers.length === 0 || `avg_${c.key}_ms` in workers[0]).map((c) => ({
      name: c.label,
      color: c.color,
      values: workers.map((w) => {
        if (chosen === 'avg') return num(w[`avg_${c.key}_ms`]);
        const row = stepWorkers.find((r) => str(r.step_number) === chosen && str(r.host) === str(w.host));
        return row ? num(row[`${c.key}_ms`]) : 0;
      }),
    }));
    slot.replaceChildren(stackedBars('pod_step_chart', hosts, series, { xName: 'worker' }));
  };
  chooser.addEventListener('change', draw);
  draw();
  page.append(card('Step time by worker', { id: 'chart', subtitle: 'Stacked by category (input in red, device compute in green)', actions: [chooser] }, slot));

  page.append(
    card(
      'Workers',
      { id: 'workers' },
      dataTable({
        name: 'workers',
        columns: [
          { id: 'host', label: 'Worker', className: 'name' },
          { id: 'steps', label: 'Steps' },
          { id: 'avg_step_time_ms', label: 'Avg step (ms)' },
          { id: 'avg_lag_ms', label: 'Avg lag (ms)' },
          { id: 'slowest_steps', label: 'Slowest in' },
          { id: 'input_percent', label: 'Input %' },
        ],
        rows: workers as never,
        sort: { column: 'avg_step_time_ms', descending: true },
        filterColumns: ['host'],
        toolbar: [csvButton(ctx, 'workers')],
      }),
    ),
    card(
      'Steps',
      { id: 'steps' },
      dataTable({
        name: 'steps',
        columns: [
          { id: 'step_number', label: 'Step' },
          { id: 'worker_count', label: 'Workers' },
          { id: 'min_step_time_ms', label: 'Fastest (ms)' },
          { id: 'max_step_time_ms', label: 'Slowest (ms)' },
          { id: 'spread_ms', label: 'Spread (ms)' },
          { id: 'slowest_host', label: 'Slowest worker', className: 'name' },
        ],
        rows: steps as never,
        sort: { column: 'step_number', descending: false },
        filterColumns: ['slowest_host'],
        filterPlaceholder: 'Filter by worker',
        toolbar: [csvButton(ctx, 'steps')],
      }),
    ),
  );
  const notes = diagnosticsList(d.diagnostics);
  if (notes) page.append(notes);
  return page;
}
