// tf.data bottleneck analysis: which input pipeline stage to fix. Each pipeline is drawn
// as a graph of its stages (an edge from a stage to the stage consuming its output),
// coloured by self time, the bottleneck outlined; then the tool's declared tables.
import { card, diagnosticsList, emptyState, tiles } from '../components/cards';
import { dataTable } from '../components/table';
import { el, formatCount, formatMs, formatPercent } from '../format';
import type { TfDataStageRow } from '../generated/tools';
import { heatColour, renderGraph, type GraphEdgeSpec, type GraphNodeSpec } from '../graph/graph';
import { csvButton } from './input_pipeline';
import { declaredColumns, resultOf, type PageContext } from './page';

// "1 call", "12 calls".
function calls(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'call' : 'calls'}`;
}

function pipelineGraph(pipeline: string, stages: TfDataStageRow[]): HTMLElement {
  const own = stages.filter((s) => s.pipeline === pipeline);
  const maxSelf = Math.max(0, ...own.map((s) => s.self_ms));
  const nodes: GraphNodeSpec[] = own.map((s) => ({
    id: s.id,
    lines: [s.dataset || s.stage, `${formatMs(s.self_ms)} self · ${calls(s.calls)}`],
    fill: heatColour(maxSelf > 0 ? s.self_ms / maxSelf : 0),
    title: `${s.stage}\nkind ${s.kind}; self ${formatMs(s.self_ms)}, blocking ${formatMs(s.blocking_self_ms)}`,
    // The bottleneck outlined.
    stroke: s.bottleneck ? '#b71c1c' : '#888',
    strokeWidth: s.bottleneck ? 3 : 1,
  }));
  // Data flows from a stage to its parent (the stage that consumes its output).
  const edges: GraphEdgeSpec[] = own.flatMap((s) => (s.parent_id === null ? [] : [{ from: s.id, to: s.parent_id }]));
  return renderGraph(nodes, edges, { direction: 'TB', name: pipeline });
}

export function renderTfDataBottleneck(ctx: PageContext): HTMLElement {
  const d = resultOf(ctx, 'tf_data_bottleneck_analysis');
  const page = el('div', { class: 'page page-tf-data', 'data-page': 'tf_data_bottleneck_analysis' });
  const pipelines = d.pipelines;
  const stages = d.stages;
  const bottleneck = d.bottleneck;
  const top = pipelines.length ? pipelines[0] : null;
  page.append(
    card(
      'Summary',
      { id: 'summary', subtitle: d.statement },
      tiles([
        // Iterator time, not the steps' input wait (the input pipeline page's input share):
        // iterator calls can overlap the step's own work. Both are shown, each named.
        { label: 'Iterator time', value: formatPercent(top?.step_time_percent), json: ['pipelines', 0, 'step_time_percent'], tone: d.iterator_bound ? 'bad' : 'good', detail: "of step time in the top pipeline's calls" },
        { label: 'Steps wait for input', value: formatPercent(d.step_input_wait_percent), json: ['step_input_wait_percent'], detail: 'of step time (input pipeline page)' },
        { label: 'Bottleneck stage', value: bottleneck?.dataset || 'none', detail: bottleneck?.stage ?? '', tone: bottleneck?.stage ? 'warn' : 'neutral' },
        { label: 'Its share', value: bottleneck?.stage ? formatPercent(bottleneck.share_percent) : '–', json: ['bottleneck', 'share_percent'], detail: 'of the blocking time in the slowest calls' },
        { label: 'Pipelines', value: formatCount(pipelines.length), detail: `${formatCount(d.counts.iterator_events)} iterator events` },
      ]),
      bottleneck?.suggestion ? el('p', { class: 'suggestion', 'data-suggestion': '' }, bottleneck.suggestion) : null,
    ),
  );
  if (!pipelines.length) {
    page.append(card('Pipelines', {}, emptyState('No input pipeline found', d.statement, 'Record your pipeline with stepscope/pipeline.h (or tf.data) at host tracer level 2.')));
  }
  for (const p of pipelines) {
    const name = p.pipeline;
    page.append(
      card(
        `Pipeline ${name}`,
        { id: `graph-${name}`, subtitle: `${p.root}: ${calls(p.calls)}, average ${formatMs(p.avg_latency_us / 1000)}; stages coloured by self time, the bottleneck outlined` },
        el('div', { class: 'graph-scroll' }, pipelineGraph(name, stages)),
      ),
    );
  }
  const table = (id: 'pipelines' | 'stages' | 'critical_path', title: string, sortColumn: string, descending: boolean, filter: string[]) =>
    card(
      title,
      { id },
      dataTable({
        name: id,
        columns: declaredColumns(ctx, id, { stage: { className: 'name' } }),
        rows: d[id] as never,
        sort: { column: sortColumn, descending },
        filterColumns: filter,
        toolbar: [csvButton(ctx, id)],
      }),
    );
  if (pipelines.length) {
    page.append(
      table('pipelines', 'Pipelines', 'avg_latency_us', true, ['pipeline', 'root']),
      table('stages', 'Stages', 'blocking_self_ms', true, ['pipeline', 'stage', 'kind']),
      table('critical_path', 'Critical path of the slowest call', 'depth', false, ['pipeline', 'stage']),
    );
  }
  const notes = diagnosticsList(d.diagnostics);
  if (notes) page.append(notes);
  return page;
}
