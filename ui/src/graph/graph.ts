// A small reusable directed-graph view: lay out nodes and edges with dagre
// (@dagrejs/dagre) and draw them as SVG. Pages give nodes (label, optional second line,
// fill colour, tooltip) and edges; the layout, arrows and sizing live here, so every graph
// page (the input pipeline, an HLO graph) draws the same way.
import dagre from '@dagrejs/dagre';

export interface GraphNode {
  id: string;
  label: string;
  sublabel?: string;  // a second, smaller line (e.g. "12.3 ms self")
  fill?: string;      // CSS colour of the box; white when absent
  title?: string;     // tooltip
  emphasis?: boolean; // drawn with a thick outline (e.g. the bottleneck)
}

export interface GraphEdge {
  from: string;
  to: string;
  label?: string;
}

export interface GraphOptions {
  direction?: 'TB' | 'LR' | 'BT' | 'RL';  // dagre rankdir; top to bottom by default
  name?: string;                          // data-graph attribute, for tests
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const CHAR_WIDTH_PX = 7;  // approximate width of one 12 px character
const NODE_HEIGHT_PX = 40;
const NODE_PADDING_PX = 16;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

function nodeWidth(node: GraphNode): number {
  const longest = Math.max(node.label.length, (node.sublabel ?? '').length);
  return Math.max(80, longest * CHAR_WIDTH_PX + NODE_PADDING_PX);
}

// Text colour readable on `fill` ("#rrggbb"): dark on light fills, white on dark ones.
function textColour(fill: string | undefined): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(fill ?? '');
  if (!m) return '#222';
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h, 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 140 ? '#fff' : '#222';
}

// White -> red by `fraction` in [0, 1]: how much of the largest value a node has.
export function heatColour(fraction: number): string {
  const f = Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0));
  const channel = (from: number, to: number) => Math.round(from + (to - from) * f).toString(16).padStart(2, '0');
  return `#${channel(255, 198)}${channel(255, 40)}${channel(255, 40)}`;
}

// The laid-out graph as an <svg>. Edges whose ends are not nodes are left out.
export function renderGraph(nodes: GraphNode[], edges: GraphEdge[], options: GraphOptions = {}): SVGSVGElement {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: options.direction ?? 'TB', nodesep: 30, ranksep: 40, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(nodes.map((n) => n.id));
  for (const node of nodes) g.setNode(node.id, { width: nodeWidth(node), height: NODE_HEIGHT_PX });
  const drawn = edges.filter((e) => ids.has(e.from) && ids.has(e.to) && e.from !== e.to);
  for (const edge of drawn) g.setEdge(edge.from, edge.to);
  dagre.layout(g);
  const size = g.graph();
  const width = Math.ceil(size.width ?? 0);
  const height = Math.ceil(size.height ?? 0);
  const root = svg('svg', { class: 'graph', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img' });
  if (options.name) root.setAttribute('data-graph', options.name);
  const defs = svg('defs', {});
  const marker = svg('marker', { id: 'graph-arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' });
  marker.append(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#666' }));
  defs.append(marker);
  root.append(defs);
  for (const edge of drawn) {
    const points = g.edge(edge.from, edge.to)?.points ?? [];
    if (points.length < 2) continue;
    const d = points.map((p: { x: number; y: number }, i: number) => `${i === 0 ? 'M' : 'L'} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
    root.append(svg('path', { d, fill: 'none', stroke: '#666', 'stroke-width': 1.5, 'marker-end': 'url(#graph-arrow)', class: 'graph-edge' }));
  }
  for (const node of nodes) {
    const box = g.node(node.id);
    if (!box) continue;
    const group = svg('g', { class: 'graph-node', 'data-node': node.id, transform: `translate(${box.x - box.width / 2},${box.y - box.height / 2})` });
    if (node.title) {
      const title = svg('title', {});
      title.textContent = node.title;
      group.append(title);
    }
    group.append(
      svg('rect', {
        width: box.width,
        height: box.height,
        rx: 6,
        fill: node.fill ?? '#fff',
        stroke: node.emphasis ? '#b71c1c' : '#888',
        'stroke-width': node.emphasis ? 3 : 1,
      }),
    );
    const colour = textColour(node.fill);
    const label = svg('text', { x: box.width / 2, y: node.sublabel ? 17 : 24, 'text-anchor': 'middle', 'font-size': 12, fill: colour });
    label.textContent = node.label;
    group.append(label);
    if (node.sublabel) {
      const sub = svg('text', { x: box.width / 2, y: 32, 'text-anchor': 'middle', 'font-size': 10, fill: colour });
      sub.textContent = node.sublabel;
      group.append(sub);
    }
    root.append(group);
  }
  return root;
}
