// Input pipeline analyzer: the verdict, the device-side view of each step (how long it
// waited for input), the host-side breakdown of input time and the input-op table.
import { csvUrl } from '../api';
import { card, diagnosticsList, emptyState, keyValues } from '../components/cards';
import { horizontalBars, stackedBars } from '../components/charts';
import { dataTable } from '../components/table';
import { el, formatCount, formatMs, formatPercent, num } from '../format';
import { verdictText } from './overview';
import { arr, NO_STEPS_HINT, obj, str, type PageContext } from './page';

const HOST_BREAKDOWN: { key: string; label: string; color: string; explain: string }[] = [
  { key: 'enqueue_to_device', label: 'Enqueue to device', color: '#e8710a', explain: 'copying batches to the device (MemcpyHToD / infeed)' },
  { key: 'demanded_file_read', label: 'Read on demand', color: '#d93025', explain: 'reading files while the step waits' },
  { key: 'advanced_file_read', label: 'Read in advance', color: '#f9ab00', explain: 'reading files ahead, behind prefetch/interleave' },
  { key: 'preprocessing', label: 'Preprocessing', color: '#1a73e8', explain: 'map, batch, shuffle and other transformations' },
  { key: 'other', label: 'Other', color: '#9aa0a6', explain: 'input work that fits no other class' },
];

export function csvButton(ctx: PageContext, table: string, options: { includeIdle?: boolean } = {}): HTMLElement {
  return el('a', { class: 'button', href: csvUrl(ctx.selection, table, options), download: '', 'data-csv': table }, 'Export as CSV');
}

function statsPairs(stats: Record<string, unknown>): [string, string][] {
  return [
    ['Mean', formatMs(stats.mean)],
    ['Std. deviation', formatMs(stats.stddev)],
    ['Min', formatMs(stats.min)],
    ['Max', formatMs(stats.max)],
  ];
}

export function renderInputPipeline(ctx: PageContext): HTMLElement {
  const d = ctx.data;
  const page = el('div', { class: 'page page-input-pipeline' });
  const steps = num(d.steps);
  const verdict = str(d.input_bound_verdict);
  const tone = verdict === 'highly' ? 'bad' : verdict === 'moderately' ? 'warn' : verdict === 'not' ? 'good' : 'neutral';

  page.append(
    card(
      'Is the program input bound?',
      { id: 'verdict' },
      el(
        'div',
        { class: `verdict tone-${tone}`, 'data-verdict': verdict },
        el(
          'div',
          { class: 'verdict-row' },
          el('div', {}, el('div', { class: 'verdict-title' }, verdictText(verdict, d.input_bound_potentially === true)), el('div', { class: 'verdict-statement' }, str(d.input_bound_statement) || 'No steps were found, so the input share is unknown.')),
          steps ? el('div', { class: 'verdict-number' }, el('div', { class: 'verdict-percent' }, formatPercent(d.input_bound_percent)), el('div', { class: 'verdict-caption' }, 'of step time is input')) : null,
        ),
      ),
      str(d.recommendation) ? el('div', { class: 'recommendation' }, el('span', { class: 'label' }, 'Recommendation: '), str(d.recommendation)) : null,
      num(d.get_next_outside_steps) > 0
        ? el(
            'div',
            { class: 'warning' },
            `${formatCount(d.get_next_outside_steps)} of ${formatCount(d.get_next_count)} input fetches happen outside any step, so their time is not counted as input. Fetch the next batch inside the step scope.`,
          )
        : null,
    ),
  );

  // Device-side: per-step input vs the rest.
  const stepRows = arr(d.step_details);
  const stepStats = obj(d.step_time_stats_ms);
  const inputStats = obj(d.input_time_stats_ms);
  const deviceSide = steps
    ? el(
        'div',
        {},
        stackedBars(
          'input_step_chart',
          stepRows.map((r) => str(r.step_number)),
          [
            { name: 'Waiting for input', color: '#e53935', values: stepRows.map((r) => num(r.input_ms)) },
            { name: 'Rest of the step', color: '#2e9e44', values: stepRows.map((r) => Math.max(0, num(r.step_time_ms) - num(r.input_ms))) },
          ],
          { height: 280 },
        ),
        el('div', { class: 'grid-2 tight' }, el('div', {}, el('h3', { class: 'sub' }, 'Step time'), keyValues(statsPairs(stepStats))), el('div', {}, el('h3', { class: 'sub' }, 'Waiting for input per step'), keyValues(statsPairs(inputStats)))),
      )
    : emptyState('No step markers found', 'The device-side analysis needs steps.', NO_STEPS_HINT);
  page.append(card('Device-side analysis', { id: 'device-side', subtitle: 'Per step: time waiting for input (red) and the rest of the step' }, deviceSide));

  // Host-side breakdown.
  const host = obj(d.host_breakdown_ms);
  const totalHost = HOST_BREAKDOWN.reduce((sum, c) => sum + num(host[c.key]), 0);
  const inputOps = arr(d.input_ops);
  page.append(
    card(
      'Host-side analysis',
      { id: 'host-side', subtitle: 'Where the host spends its input time (self time of input ops over the profile)' },
      totalHost > 0
        ? el(
            'div',
            { class: 'grid-2 tight' },
            horizontalBars(
              'host_breakdown',
              HOST_BREAKDOWN.map((c) => ({ label: c.label, value: num(host[c.key]), color: c.color })),
            ),
            el(
              'ul',
              { class: 'legend-list' },
              ...HOST_BREAKDOWN.map((c) => el('li', {}, el('b', {}, `${c.label}: `), `${formatMs(host[c.key])} (${formatPercent((100 * num(host[c.key])) / totalHost)}) — ${c.explain}`)),
            ),
          )
        : emptyState(
            'No input-pipeline ops found',
            'The profile has no input-pipeline events (Iterator::… ops or host-to-device copies).',
            'Name your pipeline stages with stepscope::ScopedIterator("Iterator::Batch::Map") and fetch batches inside stepscope::ScopedGetNext.',
          ),
    ),
  );

  page.append(
    card(
      'Input ops',
      { id: 'input-ops', subtitle: 'Every input op; expand a row for its details' },
      inputOps.length
        ? dataTable({
            name: 'input_ops',
            columns: [
              { id: 'name', label: 'Input op', className: 'name' },
              { id: 'category', label: 'Category' },
              { id: 'count', label: 'Count' },
              { id: 'total_time_ms', label: 'Total time (ms)' },
              { id: 'total_time_percent', label: 'Total time %' },
              { id: 'self_time_ms', label: 'Self time (ms)' },
              { id: 'self_time_percent', label: 'Self time %' },
            ],
            rows: inputOps as never,
            sort: { column: 'self_time_ms', descending: true },
            filterColumns: ['name', 'type', 'category'],
            filterPlaceholder: 'Filter input ops by name',
            expand: (row) =>
              keyValues([
                ['Op', str(row.name)],
                ['Type', str(row.type)],
                ['Category', str(row.category)],
                ['Occurrences', formatCount(row.count)],
                ['Total time', `${formatMs(row.total_time_ms)} (${formatPercent(row.total_time_percent)} of host op time)`],
                ['Self time', `${formatMs(row.self_time_ms)} (${formatPercent(row.self_time_percent)})`],
                ['Average per call', formatMs(num(row.count) ? num(row.total_time_ms) / num(row.count) : 0)],
              ]),
            toolbar: [csvButton(ctx, 'input_ops')],
          })
        : emptyState('No input ops', 'No input-pipeline op was recorded in this profile.'),
    ),
  );
  const notes = diagnosticsList(d.diagnostics);
  if (notes) page.append(notes);
  return page;
}
