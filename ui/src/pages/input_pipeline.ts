// Input pipeline analyzer: the verdict, what the input share is made of (in the
// framework's words), the device-side view of each step (how long it waited for input),
// the host-side breakdown of input time and the input-op table. The tables' columns are
// labelled as the tool declares them (/api/tables).
import { csvUrl, type ResultOptions } from '../api';
import { card, diagnosticsList, emptyState, jsonSource, keyValues } from '../components/cards';
import { horizontalBars, stackedBars } from '../components/charts';
import { dataTable } from '../components/table';
import { el, formatCount, formatMs, formatPercent } from '../format';
import type { InputOpRow, PipelineBottleneckLink, SummaryStats } from '../generated/tools';
import { overviewStepRows, summaryFields, verdictText } from './overview';
import { declaredColumns, frameworkLabel, optionParams, resultOf, selectedStep, selectStep, stepsHint, toolHref, type PageContext } from './page';

// Colors of the host input classes; the tool gives each class's label (host_breakdown
// rows) and leaves out the classes that do not apply to the profile's framework.
const HOST_CLASS_COLORS: Record<string, string> = {
  enqueue_to_device: '#e8710a',
  demanded_file_read: '#d93025',
  advanced_file_read: '#f9ab00',
  preprocessing: '#1a73e8',
  other: '#9aa0a6',
  data_loader: '#d93025',
  pin_memory: '#e8710a',
};

// The stage tf_data_bottleneck_analysis names, with a link to its page (only when it names one).
function pipelineBottleneck(ctx: PageContext, link: PipelineBottleneckLink | null | undefined): HTMLElement | null {
  if (!link?.stage) return null;
  return el(
    'div',
    { class: 'recommendation', 'data-pipeline-bottleneck': link.stage },
    el('span', { class: 'label' }, 'Bottleneck stage: '),
    link.statement,
    ' ',
    el('a', { href: toolHref(ctx.selection, 'tf_data_bottleneck_analysis'), 'data-link-tool': 'tf_data_bottleneck_analysis' }, 'See the pipeline →'),
  );
}

// The CSV of `table` for the page's result: the tool's declared options as the URL sets
// them, as for the result itself.
export function csvButton(ctx: PageContext, table: string, options: ResultOptions = {}): HTMLElement {
  const withOptions = { ...options, params: { ...optionParams(ctx.selection.tool, ctx.hash.extra), ...options.params } };
  return el('a', { class: 'button', href: csvUrl(ctx.selection, table, withOptions), download: '', 'data-csv': table }, 'Export as CSV');
}

function statsPairs(stats: SummaryStats): [string, string][] {
  return [
    ['Mean', formatMs(stats.mean)],
    ['Std. deviation', formatMs(stats.stddev)],
    ['Min', formatMs(stats.min)],
    ['Max', formatMs(stats.max)],
  ];
}

// An input op's row expanded: every field, the percents beside their times.
function inputOpDetails(op: InputOpRow): HTMLElement {
  const ofHostOpTime = (ms: number, percent: number | null) => (percent === null ? formatMs(ms) : `${formatMs(ms)} (${formatPercent(percent)} of host op time)`);
  return keyValues([
    ['Op', op.name],
    ['Type', op.type],
    ['Category', op.category],
    ['Occurrences', formatCount(op.count)],
    ['Where', op.host_or_device],
    ['Total time', ofHostOpTime(op.total_time_ms, op.total_time_percent)],
    ['Self time', ofHostOpTime(op.self_time_ms, op.self_time_percent)],
    ['Self time, share of step time', op.step_time_percent === null ? '–' : formatPercent(op.step_time_percent)],
    ['Average per call', formatMs(op.count ? op.total_time_ms / op.count : 0)],
  ]);
}

export function renderInputPipeline(ctx: PageContext): HTMLElement {
  const d = resultOf(ctx, 'input_pipeline_analyzer');
  const page = el('div', { class: 'page page-input-pipeline' });
  const steps = d.steps;
  const verdict = d.input_bound_verdict;
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
          el('div', {}, el('div', { class: 'verdict-title' }, verdictText(verdict, d.input_bound_potentially)), el('div', { class: 'verdict-statement' }, d.input_bound_statement || 'No steps were found, so the input share is unknown.')),
          steps ? el('div', { class: 'verdict-number' }, el('div', { class: 'verdict-percent', ...jsonSource(['input_bound_percent']) }, formatPercent(d.input_bound_percent)), el('div', { class: 'verdict-caption' }, 'of step time is input')) : null,
        ),
      ),
      frameworkLabel(summaryFields(d)) ? el('div', { class: 'framework', 'data-framework': d.framework, title: d.framework_evidence }, el('span', { class: 'label' }, 'Profile from: '), frameworkLabel(summaryFields(d))) : null,
      d.recommendation ? el('div', { class: 'recommendation' }, el('span', { class: 'label' }, 'Recommendation: '), d.recommendation) : null,
      pipelineBottleneck(ctx, d.pipeline_bottleneck),
      d.get_next_outside_steps > 0
        ? el(
            'div',
            { class: 'warning' },
            `${formatCount(d.get_next_outside_steps)} of ${formatCount(d.get_next_count)} input fetches happen outside any step, so their time is not counted as input. Fetch the next batch inside the step scope.`,
          )
        : null,
    ),
  );

  // Device-side: per-step input vs the rest.
  // The step's input wait and time; one step selected: the chart still shows every step
  // (the overview's rows), that one marked.
  const step = selectedStep(ctx);
  const chartRows = (step && ctx.stepRows.length ? overviewStepRows(ctx) : d.step_details).map((r) => ({ step_number: r.step_number, input_ms: r.input_bound_ms, step_time_ms: r.step_time_ms }));
  const deviceSide = steps
    ? el(
        'div',
        {},
        stackedBars(
          'input_step_chart',
          chartRows.map((r) => String(r.step_number)),
          [
            { name: 'Waiting for input', color: '#e53935', values: chartRows.map((r) => r.input_ms) },
            { name: 'Rest of the step', color: '#2e9e44', values: chartRows.map((r) => Math.max(0, r.step_time_ms - r.input_ms)) },
          ],
          {
            height: 280,
            selected: step ? chartRows.findIndex((r) => String(r.step_number) === step) : -1,
            onClick: ctx.stepRows.length ? (i) => selectStep(ctx, String(chartRows[i].step_number) === step ? null : String(chartRows[i].step_number)) : undefined,
          },
        ),
        el('div', { class: 'grid-2 tight' }, el('div', {}, el('h3', { class: 'sub' }, 'Step time'), keyValues(statsPairs(d.step_time_stats_ms))), el('div', {}, el('h3', { class: 'sub' }, 'Waiting for input per step'), keyValues(statsPairs(d.input_time_stats_ms)))),
      )
    : emptyState('No step markers found', 'The device-side analysis needs steps.', stepsHint(summaryFields(d)));
  // What the input share is made of: its parts sum to the verdict's percent.
  const share = d.input_share;
  if (steps && share.length) {
    page.append(
      card(
        'What the step waits for',
        { id: 'input-share', subtitle: 'The input share of step time, by what the step waited for' },
        dataTable({
          name: 'input_share',
          // Each label is a sentence naming the ops it covers: it wraps, never shortened.
          columns: declaredColumns(ctx, 'input_share', { label: { className: 'wrap' } }, ['kind']),
          rows: share as never,
          pageSize: 10,
        }),
      ),
    );
  }
  page.append(card('Device-side analysis', { id: 'device-side', subtitle: 'Per step: time waiting for input (red) and the rest of the step' }, deviceSide));

  // Host-side breakdown: the classes that apply to the profile's framework, as the tool
  // labels them.
  const hostClasses = d.host_breakdown;
  const totalHost = hostClasses.reduce((sum, c) => sum + c.time_ms, 0);
  const inputOps = d.input_ops;
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
              hostClasses.map((c) => ({ label: c.label, value: c.time_ms, color: HOST_CLASS_COLORS[c.category] ?? '#9aa0a6' })),
            ),
            el(
              'ul',
              { class: 'legend-list' },
              ...hostClasses.map((c) => el('li', { 'data-category': c.category }, el('b', {}, `${c.label}: `), `${formatMs(c.time_ms)} (${formatPercent((100 * c.time_ms) / totalHost)})`)),
            ),
          )
        : emptyState(
            'No host-side input time',
            inputOps.length
              ? 'The input ops below ran on the device (copies to it): no input work was recorded on the host.'
              : 'The profile records no input work on the host (no input-pipeline stage, DataLoader iteration or transfer to the device).',
            d.recommendation,
          ),
    ),
  );

  page.append(
    card(
      'Input ops',
      { id: 'input-ops', subtitle: 'Host input ops, and the copies to the device by the op that issued them; expand a row for its details' },
      inputOps.length
        ? dataTable({
            name: 'input_ops',
            // Type tells the copies apart (from pinned or pageable memory).
            columns: declaredColumns(ctx, 'input_ops', { name: { className: 'name' }, type: { className: 'name' } }),
            rows: inputOps as never,
            sort: { column: 'self_time_ms', descending: true },
            filterColumns: ['name', 'type', 'category'],
            filterPlaceholder: 'Filter input ops by name',
            expand: (row) => inputOpDetails(row as unknown as InputOpRow),
            toolbar: [csvButton(ctx, 'input_ops')],
          })
        : emptyState('No input ops', 'No input op was recorded in this profile: no input-pipeline stage, DataLoader iteration, or copy to a device.', d.recommendation),
    ),
  );
  const notes = diagnosticsList(d.diagnostics);
  if (notes) page.append(notes);
  return page;
}
