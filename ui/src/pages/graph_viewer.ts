// Graph viewer: an XLA module's HLO graph around one op, n hops out, laid out by dagre
// (ui/src/graph). Search an op by name, pick the hop count, click a node to recentre.
// Reads only the graph_viewer tool's JSON (docs/tools.md).
import { csvUrl, type Row } from '../api';
import { card, emptyState } from '../components/cards';
import { dataTable } from '../components/table';
import { renderGraph, type GraphEdgeSpec, type GraphNodeSpec } from '../graph/graph';
import { el, formatCount, formatMs, isNum, num } from '../format';
import { moduleSelect } from './memory_viewer';
import { arr, declaredColumns, optionParams, str, type PageContext } from './page';

// Fill colours by what an op does, so the kind of work reads at a glance.
function fillFor(opcode: string): string {
  if (opcode === 'fusion') return '#fef7e0';
  if (['dot', 'convolution', 'custom-call'].includes(opcode)) return '#fce8e6';
  if (['parameter', 'constant', 'get-tuple-element', 'tuple'].includes(opcode)) return '#f1f3f4';
  if (opcode.startsWith('all-') || opcode.startsWith('reduce-scatter') || opcode.startsWith('collective')) return '#e6f4ea';
  return '#e8f0fe';
}

function graphNode(ctx: PageContext): HTMLElement {
  const nodes = arr(ctx.data.nodes);
  const specs: GraphNodeSpec[] = nodes.map((n) => ({
    id: str(n.name),
    lines: [str(n.name), `${str(n.opcode)}${n.fusion_kind ? ` (${str(n.fusion_kind)})` : ''}`, str(n.shape), ...(isNum(n.time_ms) ? [`${formatMs(n.time_ms)} on device · ${formatCount(n.occurrences)} runs`] : [])],
    fill: fillFor(str(n.opcode)),
    stroke: n.center === true ? '#e37400' : '#5f6368',
    strokeWidth: n.center === true ? 3 : 1,
    dashed: n.more === true,
    cluster: n.fusion ? str(n.fusion) : undefined,
    title: [str(n.op_name), n.calls ? `calls ${str(n.calls)}` : '', n.more === true ? 'more neighbours: click to recentre' : ''].filter(Boolean).join('\n'),
  }));
  const edges: GraphEdgeSpec[] = arr(ctx.data.edges).map((e) => ({ from: str(e.from), to: str(e.to), dashed: e.kind === 'fusion' }));
  const labels: Record<string, string> = {};
  for (const s of specs) if (s.cluster) labels[s.cluster] = `inside ${s.cluster}`;
  const graph = renderGraph(specs, edges, { panZoom: true, onNodeClick: (id) => ctx.setExtra('op', id), clusterLabels: labels });
  graph.dataset.graph = 'hlo';
  return graph;
}

function controls(ctx: PageContext): HTMLElement {
  const search = el('input', { class: 'table-filter', id: 'graph-op-search', type: 'search', placeholder: 'Op name (or part of it)', 'aria-label': 'Op name' });
  search.value = str(ctx.data.op) || str(ctx.data.center);
  const go = el('button', { class: 'button', id: 'graph-op-go', type: 'button' }, 'Show');
  const submit = () => ctx.setExtra('op', search.value.trim() || null);
  go.addEventListener('click', submit);
  search.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') submit();
  });
  const hops = el('select', { class: 'inline-select', id: 'graph-hops', 'aria-label': 'Hops' });
  for (let h = 0; h <= 6; ++h) hops.append(el('option', { value: String(h) }, String(h)));
  hops.value = String(num(ctx.data.hops));
  hops.addEventListener('change', () => ctx.setExtra('hops', hops.value));
  return el('div', { class: 'table-toolbar' }, moduleSelect(ctx, false), search, go, el('label', {}, 'Hops ', hops));
}

function candidatesNode(ctx: PageContext): HTMLElement {
  const list = el('ul', { class: 'graph-candidates', 'data-candidates': String(num(ctx.data.candidate_count)) });
  for (const name of arr<string>(ctx.data.candidates).map(str)) {
    const link = el('a', { href: '#', 'data-op': name }, name);
    link.addEventListener('click', (event) => {
      event.preventDefault();
      ctx.setExtra('op', name);
    });
    list.append(el('li', {}, link));
  }
  return list;
}

export function renderGraphViewer(ctx: PageContext): HTMLElement {
  const d = ctx.data;
  const page = el('div', { class: 'page page-graph-viewer', 'data-page': 'graph_viewer' });
  page.append(card('Graph viewer', { id: 'graph-controls', subtitle: `${formatCount(d.module_instructions)} ops in ${str(d.module)}; operands above users, fused ops boxed inside their fusion${d.timed === true ? '; device time of the kernels joined to each op' : ''}` }, controls(ctx)));
  if (!str(d.center)) {
    const more = num(d.candidate_count) > arr(d.candidates).length ? ` (the first ${arr(d.candidates).length} shown)` : '';
    page.append(card('Choose an op', { id: 'graph-candidates' }, emptyState('No op selected', str(d.message) + more), arr(d.candidates).length ? candidatesNode(ctx) : null));
    return page;
  }
  const nodes = arr(d.nodes);
  page.append(
    card(
      `Around ${str(d.center)}`,
      { id: 'graph-view', subtitle: `${nodes.length} ops, ${arr(d.edges).length} edges within ${str(d.hops)} hops${d.truncated === true ? ` (capped at ${str(d.max_nodes)} ops)` : ''}. Dashed border: more neighbours; click an op to recentre. Drag to pan, scroll to zoom.` },
      graphNode(ctx),
    ),
  );
  const params = optionParams(ctx.selection.tool, ctx.hash.extra);
  page.append(
    card(
      'Ops shown',
      { id: 'graph-nodes' },
      dataTable({
        name: 'graph_nodes',
        columns: declaredColumns(ctx, 'nodes', { name: { className: 'name' }, op_name: { className: 'name' } }),
        rows: arr<Row>(d.nodes),
        sort: { column: 'hops', descending: false },
        filterColumns: ['name', 'opcode', 'op_name'],
        filterPlaceholder: 'Filter by op, opcode or framework op',
        pageSize: 25,
        toolbar: [el('a', { class: 'button', href: csvUrl(ctx.selection, 'nodes', { params }), download: '', 'data-csv': 'nodes' }, 'Export as CSV')],
      }),
    ),
  );
  const notes = arr<string>(d.diagnostics).map(str);
  if (notes.length) page.append(card('Notes', { id: 'graph-notes' }, el('ul', {}, ...notes.map((n) => el('li', {}, n)))));
  return page;
}
