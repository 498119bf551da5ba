// The one directed-graph view of the UI, laid out by dagre (@dagrejs/dagre: layered
// layout). Pages give nodes (id, label lines, colours, tooltip, an optional cluster) and
// edges; this module lays them out and draws them as SVG, so every graph page (the
// tf.data pipeline, the HLO graph viewer) draws the same way. No layout of our own:
// positions and edge routes are dagre's. Optional: clusters boxed together, clickable
// nodes, and pan (drag) / zoom (wheel) with the drawing fitted to the page width.
import dagre from '@dagrejs/dagre';

export interface GraphNodeSpec {
  id: string;
  lines: string[];  // first line bold (the name), the rest small
  fill?: string;  // CSS colour "#rrggbb" of the box; white when absent
  stroke?: string;
  strokeWidth?: number;
  dashed?: boolean;  // e.g. "has more neighbours than shown"
  cluster?: string;  // nodes with the same cluster id are boxed together
  title?: string;  // hover text
}

export interface GraphEdgeSpec {
  from: string;
  to: string;
  dashed?: boolean;
}

export interface GraphOptions {
  direction?: 'TB' | 'LR' | 'BT' | 'RL';  // dagre rankdir; top to bottom by default
  name?: string;  // data-graph attribute of the <svg>, for tests
  panZoom?: boolean;  // width 100% with drag to pan and wheel to zoom; else natural size
  onNodeClick?: (id: string) => void;
  clusterLabels?: Record<string, string>;
  height?: number;  // with panZoom: the drawing's height instead of the fitted one
}

const SVG = 'http://www.w3.org/2000/svg';
const CHAR_WIDTH = 7;  // px per character at the 12px label font, for node sizes
const LINE_HEIGHT = 15;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

function nodeSize(spec: GraphNodeSpec): { width: number; height: number } {
  const longest = Math.max(...spec.lines.map((l) => l.length), 4);
  return { width: Math.min(longest, 44) * CHAR_WIDTH + 20, height: spec.lines.length * LINE_HEIGHT + 12 };
}

function truncate(text: string): string {
  return text.length > 44 ? `${text.slice(0, 43)}…` : text;
}

// Dark fills ("#rrggbb") get white text so labels stay readable on them.
function isDark(fill: string | undefined): boolean {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(fill ?? '');
  if (!m) return false;
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h, 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 140;
}

// White -> red by `fraction` in [0, 1]: how much of the largest value a node has.
export function heatColour(fraction: number): string {
  const f = Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0));
  const channel = (from: number, to: number) => Math.round(from + (to - from) * f).toString(16).padStart(2, '0');
  return `#${channel(255, 198)}${channel(255, 40)}${channel(255, 40)}`;
}

// Lays out and draws the graph; the returned element holds the SVG.
export function renderGraph(nodes: GraphNodeSpec[], edges: GraphEdgeSpec[], options: GraphOptions = {}): HTMLElement {
  const g = new dagre.graphlib.Graph({ compound: true, multigraph: false });
  g.setGraph({ rankdir: options.direction ?? 'TB', nodesep: 24, ranksep: 36, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  const clusters = new Set<string>();
  for (const n of nodes) {
    g.setNode(n.id, { ...nodeSize(n) });
    if (n.cluster) clusters.add(n.cluster);
  }
  for (const c of clusters) {
    g.setNode(`cluster:${c}`, { label: options.clusterLabels?.[c] ?? c, paddingTop: 18 });
  }
  for (const n of nodes) {
    if (n.cluster) g.setParent(n.id, `cluster:${n.cluster}`);
  }
  const ids = new Set(nodes.map((n) => n.id));
  for (const e of edges) {
    if (ids.has(e.from) && ids.has(e.to)) g.setEdge(e.from, e.to, {});
  }
  dagre.layout(g);

  // The drawing's extent: every node and edge point dagre placed (its own graph size can
  // include empty margins), so the view starts fitted to what is drawn.
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const extend = (x: number, y: number) => {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  };
  for (const id of g.nodes()) {
    const box = g.node(id);
    if (box && typeof box.x === 'number') {
      extend(box.x - (box.width ?? 0) / 2, box.y - (box.height ?? 0) / 2);
      extend(box.x + (box.width ?? 0) / 2, box.y + (box.height ?? 0) / 2);
    }
  }
  if (!Number.isFinite(minX)) extend(0, 0);
  const margin = 12;
  const width = Math.max(maxX - minX + 2 * margin, 100);
  const height = Math.max(maxY - minY + 2 * margin, 60);
  // Typical page width of the drawing area: the height that shows the graph at that width.
  const fitted = height * Math.min(1.4, 1100 / width);
  const root = options.panZoom
    ? svg('svg', { class: 'graph', width: '100%', height: options.height ?? Math.round(Math.min(Math.max(fitted, 200), 720)) })
    : svg('svg', { class: 'graph', width: Math.ceil(width), height: Math.ceil(height), role: 'img' });
  if (options.name) root.setAttribute('data-graph', options.name);
  const view = { x: minX - margin, y: minY - margin, w: width, h: height };
  const applyView = () => root.setAttribute('viewBox', `${view.x} ${view.y} ${view.w} ${view.h}`);
  applyView();
  const defs = svg('defs');
  const marker = svg('marker', { id: 'graph-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
  marker.append(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#80868b' }));
  defs.append(marker);
  root.append(defs);

  for (const c of clusters) {
    const box = g.node(`cluster:${c}`);
    if (!box) continue;
    const group = svg('g', { class: 'graph-cluster', 'data-cluster': c });
    group.append(svg('rect', { x: box.x - box.width / 2, y: box.y - box.height / 2, width: box.width, height: box.height, rx: 6, fill: '#f8f9fa', stroke: '#bdc1c6', 'stroke-dasharray': '4 3' }));
    const label = svg('text', { x: box.x - box.width / 2 + 8, y: box.y - box.height / 2 + 13, 'font-size': 11, fill: '#5f6368' });
    label.textContent = truncate(options.clusterLabels?.[c] ?? c);
    group.append(label);
    root.append(group);
  }
  for (const e of g.edges()) {
    const points: { x: number; y: number }[] = g.edge(e).points ?? [];
    if (points.length < 2) continue;
    const d = points.map((p: { x: number; y: number }, i: number) => `${i ? 'L' : 'M'} ${p.x} ${p.y}`).join(' ');
    const spec = edges.find((s) => s.from === e.v && s.to === e.w);
    root.append(svg('path', { class: 'graph-edge', d, fill: 'none', stroke: '#80868b', 'stroke-width': 1.2, 'marker-end': 'url(#graph-arrow)', ...(spec?.dashed ? { 'stroke-dasharray': '4 3' } : {}) }));
  }
  for (const n of nodes) {
    const box = g.node(n.id);
    if (!box) continue;
    const group = svg('g', { class: 'graph-node', 'data-node': n.id, transform: `translate(${box.x - box.width / 2}, ${box.y - box.height / 2})` });
    group.append(
      svg('rect', {
        width: box.width,
        height: box.height,
        rx: 5,
        fill: n.fill ?? '#fff',
        stroke: n.stroke ?? '#5f6368',
        'stroke-width': n.strokeWidth ?? 1,
        ...(n.dashed ? { 'stroke-dasharray': '5 3' } : {}),
      }),
    );
    const dark = isDark(n.fill);
    n.lines.forEach((line, i) => {
      const colour = dark ? '#fff' : i === 0 ? '#202124' : '#5f6368';
      const text = svg('text', { x: 10, y: 18 + i * LINE_HEIGHT, 'font-size': i === 0 ? 12 : 11, 'font-weight': i === 0 ? 600 : 400, fill: colour });
      text.textContent = truncate(line);
      group.append(text);
    });
    if (n.title) {
      const title = svg('title');
      title.textContent = n.title;
      group.append(title);
    }
    if (options.onNodeClick) {
      group.style.cursor = 'pointer';
      group.addEventListener('click', () => options.onNodeClick?.(n.id));
    }
    root.append(group);
  }

  if (options.panZoom) addPanZoom(root, view, applyView);

  const wrapper = document.createElement('div');
  wrapper.className = 'graph-wrapper';
  wrapper.dataset.nodes = String(nodes.length);
  wrapper.dataset.edges = String(g.edges().length);
  wrapper.append(root);
  return wrapper;
}

// Pan by dragging (not on a node, which may be clickable), zoom around the pointer with
// the wheel; both move the SVG's viewBox `view`.
function addPanZoom(root: SVGSVGElement, view: { x: number; y: number; w: number; h: number }, applyView: () => void): void {
  let drag: { x: number; y: number } | null = null;
  const scale = () => view.w / Math.max(root.clientWidth, 1);
  root.addEventListener('pointerdown', (event) => {
    if ((event.target as Element).closest('.graph-node')) return;
    drag = { x: event.clientX, y: event.clientY };
  });
  root.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const s = scale();
    view.x -= (event.clientX - drag.x) * s;
    view.y -= (event.clientY - drag.y) * s;
    drag = { x: event.clientX, y: event.clientY };
    applyView();
  });
  const stop = () => (drag = null);
  root.addEventListener('pointerup', stop);
  root.addEventListener('pointerleave', stop);
  root.addEventListener(
    'wheel',
    (event) => {
      event.preventDefault();
      const factor = event.deltaY > 0 ? 1.15 : 1 / 1.15;
      const rect = root.getBoundingClientRect();
      const fx = (event.clientX - rect.left) / Math.max(rect.width, 1);
      const fy = (event.clientY - rect.top) / Math.max(rect.height, 1);
      view.x += view.w * fx * (1 - factor);
      view.y += view.h * fy * (1 - factor);
      view.w *= factor;
      view.h *= factor;
      applyView();
    },
    { passive: false },
  );
}
