// Pod viewer: each worker's step time stacked by category, for one step or on average,
// and which worker lags.
import { card, diagnosticsList, emptyState, tiles } from '../components/cards';
import { CATEGORIES, stackedBars } from '../components/charts';
import { dataTable } from '../components/table';
import { el, formatCount, formatMs } from '../format';
import { csvButton } from './input_pipeline';
import { generatedColumns, resultOf, stepsHint, type PageContext } from './page';

// A row's time in one step-time category, by its column: the tool declares one per
// category, `<key>_ms` (`avg_<key>_ms` for workers), keys from `categories`.
function categoryMs(row: object, column: string): number {
  const value = (row as Record<string, unknown>)[column];
  return typeof value === 'number' ? value : 0;
}

// Columns the page leaves to the CSV: the worker index (the name says it), the per-category
// averages (the chart above stacks them) and the step name (the number says it).
const WORKER_OMITTED = ['host_index', ...CATEGORIES.map((c) => `avg_${c.key}_ms`)];
const STEP_OMITTED = ['step_name'];

export function renderPodViewer(ctx: PageContext): HTMLElement {
  const d = resultOf(ctx, 'pod_viewer');
  const page = el('div', { class: 'page page-pod-viewer' });
  const summary = d.summary;
  const workers = d.workers;
  const steps = d.steps;
  const stepWorkers = d.step_workers;
  if (!steps.length) {
    page.append(card('Pod viewer', {}, emptyState('No step markers found', 'The pod viewer compares workers step by step.', stepsHint(summary as unknown as Record<string, unknown>, 'statement'))));
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
        { label: 'Largest spread', value: formatMs(summary.max_spread_ms), json: ['summary', 'max_spread_ms'], detail: summary.max_spread_step === null ? '' : `step ${summary.max_spread_step}` },
        { label: 'Straggler', value: summary.straggler_host ?? 'none', tone: summary.straggler_host ? 'warn' : 'good' },
      ]),
      summary.statement ? el('p', { class: 'statement' }, summary.statement) : null,
    ),
  );

  // One stacked bar per worker: the chosen step, or the average over steps.
  const hosts = workers.map((w) => w.host);
  const chooser = el('select', { class: 'inline-select', 'aria-label': 'Step', 'data-control': 'pod-step' });
  chooser.append(el('option', { value: 'avg' }, 'Average over steps'), ...steps.map((s) => el('option', { value: String(s.step_number) }, `Step ${s.step_number}`)));
  const slot = el('div', {});
  const draw = () => {
    const chosen = chooser.value;
    // The tool's categories (its stack order), in the chart's colours and words.
    const series = CATEGORIES.filter((c) => d.categories.includes(c.key)).map((c) => ({
      name: c.label,
      color: c.color,
      values: workers.map((w) => {
        if (chosen === 'avg') return categoryMs(w, `avg_${c.key}_ms`);
        const row = stepWorkers.find((r) => String(r.step_number) === chosen && r.host === w.host);
        return row ? categoryMs(row, `${c.key}_ms`) : 0;
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
        columns: generatedColumns('pod_viewer', 'workers', workers, { host: { className: 'name' } }, WORKER_OMITTED),
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
        columns: generatedColumns('pod_viewer', 'steps', steps, { slowest_host: { className: 'name' } }, STEP_OMITTED),
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
