// Graph viewer: an XLA module's HLO graph around one op, n hops out, laid out by dagre
// (ui/src/graph). Search an op by name, pick the hop count, click a node to recentre.
// Reads only the graph_viewer tool's JSON, typed as the tool declares it (docs/tools.md).
import { csvUrl } from '../api';
import { card, emptyState } from '../components/cards';
import { dataTable } from '../components/table';
import { renderGraph, type GraphEdgeSpec, type GraphNodeSpec } from '../graph/graph';
import { el, formatCount, formatMs } from '../format';
import type { GraphNode, GraphViewerResult } from '../generated/tools';
import { moduleSelect } from './memory_viewer';
import { generatedColumns, optionParams, resultOf, type PageContext } from './page';

// Fill colours by what an op does, so the kind of work reads at a glance.
function fillFor(opcode: string): string {
  if (opcode === 'fusion') return '#fef7e0';
  if (['dot', 'convolution', 'custom-call'].includes(opcode)) return '#fce8e6';
  if (['parameter', 'constant', 'get-tuple-element', 'tuple'].includes(opcode)) return '#f1f3f4';
  if (opcode.startsWith('all-') || opcode.startsWith('reduce-scatter') || opcode.startsWith('collective')) return '#e6f4ea';
  return '#e8f0fe';
}

function graphNode(ctx: PageContext, d: GraphViewerResult): HTMLElement {
  const specs: GraphNodeSpec[] = d.nodes.map((n) => ({
    id: n.name,
    lines: [n.name, `${n.opcode}${n.fusion_kind ? ` (${n.fusion_kind})` : ''}`, n.shape, ...(n.time_ms !== null ? [`${formatMs(n.time_ms)} on device · ${formatCount(n.occurrences)} runs`] : [])],
    fill: fillFor(n.opcode),
    stroke: n.center ? '#e37400' : '#5f6368',
    strokeWidth: n.center ? 3 : 1,
    dashed: n.more,
    cluster: n.fusion || undefined,
    title: [n.op_name, n.calls ? `calls ${n.calls}` : '', n.more ? 'more neighbours: click to recentre' : ''].filter(Boolean).join('\n'),
  }));
  const edges: GraphEdgeSpec[] = d.edges.map((e) => ({ from: e.from, to: e.to, dashed: e.kind === 'fusion' }));
  const labels: Record<string, string> = {};
  for (const s of specs) if (s.cluster) labels[s.cluster] = `inside ${s.cluster}`;
  const graph = renderGraph(specs, edges, { panZoom: true, onNodeClick: (id) => ctx.setExtra('op', id), clusterLabels: labels });
  graph.dataset.graph = 'hlo';
  return graph;
}

function controls(ctx: PageContext, d: GraphViewerResult): HTMLElement {
  const search = el('input', { class: 'table-filter', id: 'graph-op-search', type: 'search', placeholder: 'Op name (or part of it)', 'aria-label': 'Op name' });
  search.value = d.op || d.center;
  const go = el('button', { class: 'button', id: 'graph-op-go', type: 'button' }, 'Show');
  const submit = () => ctx.setExtra('op', search.value.trim() || null);
  go.addEventListener('click', submit);
  search.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') submit();
  });
  const hops = el('select', { class: 'inline-select', id: 'graph-hops', 'aria-label': 'Hops' });
  for (let h = 0; h <= 6; ++h) hops.append(el('option', { value: String(h) }, String(h)));
  hops.value = String(d.hops);
  hops.addEventListener('change', () => ctx.setExtra('hops', hops.value));
  return el('div', { class: 'table-toolbar' }, moduleSelect(ctx, d.modules, d.module, false), search, go, el('label', {}, 'Hops ', hops));
}

function candidatesNode(ctx: PageContext, d: GraphViewerResult): HTMLElement {
  const list = el('ul', { class: 'graph-candidates', 'data-candidates': String(d.candidate_count) });
  for (const name of d.candidates) {
    const link = el('a', { href: '#', 'data-op': name }, name);
    link.addEventListener('click', (event) => {
      event.preventDefault();
      ctx.setExtra('op', name);
    });
    list.append(el('li', {}, link));
  }
  return list;
}

// The nodes table's column ids, checked against the declaration.
const column = (id: keyof GraphNode) => id;

export function renderGraphViewer(ctx: PageContext): HTMLElement {
  const d = resultOf(ctx, 'graph_viewer');
  const page = el('div', { class: 'page page-graph-viewer', 'data-page': 'graph_viewer' });
  page.append(card('Graph viewer', { id: 'graph-controls', subtitle: `${formatCount(d.module_instructions)} ops in ${d.module}; operands above users, fused ops boxed inside their fusion${d.timed ? '; device time of the kernels joined to each op' : ''}` }, controls(ctx, d)));
  if (!d.center) {
    const more = d.candidate_count > d.candidates.length ? ` (the first ${d.candidates.length} shown)` : '';
    page.append(card('Choose an op', { id: 'graph-candidates' }, emptyState('No op selected', d.message + more), d.candidates.length ? candidatesNode(ctx, d) : null));
    return page;
  }
  const nodes = d.nodes;
  page.append(
    card(
      `Around ${d.center}`,
      { id: 'graph-view', subtitle: `${nodes.length} ops, ${d.edges.length} edges within ${d.hops} hops${d.truncated ? ` (capped at ${d.max_nodes} ops)` : ''}. Dashed border: more neighbours; click an op to recentre. Drag to pan, scroll to zoom.` },
      graphNode(ctx, d),
    ),
  );
  const params = optionParams(ctx.selection.tool, ctx.hash.extra);
  page.append(
    card(
      'Ops shown',
      { id: 'graph-nodes' },
      dataTable({
        name: 'graph_nodes',
        columns: generatedColumns('graph_viewer', 'nodes', nodes, { [column('name')]: { className: 'name' }, [column('op_name')]: { className: 'name' } }),
        rows: nodes as never,
        sort: { column: column('hops'), descending: false },
        filterColumns: [column('name'), column('opcode'), column('op_name')],
        filterPlaceholder: 'Filter by op, opcode or framework op',
        pageSize: 25,
        toolbar: [el('a', { class: 'button', href: csvUrl(ctx.selection, 'nodes', { params }), download: '', 'data-csv': 'nodes' }, 'Export as CSV')],
      }),
    ),
  );
  const notes = d.diagnostics;
  if (notes.length) page.append(card('Notes', { id: 'graph-notes' }, el('ul', {}, ...notes.map((n) => el('li', {}, n)))));
  return page;
}
