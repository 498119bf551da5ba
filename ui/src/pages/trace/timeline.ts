// The trace viewer's timeline: state, tile fetching and input (mouse, wheel, keys).
//
// Controls (as in chrome://tracing and Perfetto): wheel or W/S zoom around the pointer,
// drag or A/D pan, Shift+wheel scrolls tracks; click selects an event (or a hatched
// summary), Shift+drag (or the Select tool) selects an area, dragging on the time axis
// (or the Timing tool, or M on a selection) marks an interval and shows its length; F
// fits the selection, 0 shows the whole trace, Esc clears.
import { TraceApiError, traceApi, type Flow, type Tiles, type TraceSource, type TraceTracks } from './trace_api';
import { draw, timeToX, xToTime, type DrawState, type StoredTile } from './timeline_draw';
import { AXIS_H, LABEL_W, ROW_H, SECTION_H, computeLayout, sectionHeaderAt, trackAt } from './trace_layout';
import { formatPs } from './trace_format';

// Wait this long after the last change of view before fetching tiles: one request per
// gesture, not one per wheel tick.
const FETCH_DEBOUNCE_MS = 70;
// Tiles cover this much more than the window on each side, so small pans draw at once.
const FETCH_MARGIN = 0.25;
const MIN_SPAN_PS = 1000;  // 1 ns across the screen
const DRAG_THRESHOLD_PX = 4;

export type Tool = 'pan' | 'select' | 'timing';

export type TimelineSelection =
  | { kind: 'event'; track: number; event: number }
  | { kind: 'summary'; track: number; depth: number; startPs: number; endPs: number; count: number; name: string }
  | { kind: 'area'; startPs: number; endPs: number; tracks: number[] }
  | { kind: 'mark'; startPs: number; endPs: number };

export interface TimelineCallbacks {
  onSelect(selection: TimelineSelection | null): void;
  onError(message: string): void;
}

interface Hit {
  track: number;
  index: number;  // into the stored tile
  stored: StoredTile;
}

export class Timeline {
  readonly root: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly tooltip: HTMLElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly collapsed = new Set<number>();
  private state: DrawState;
  private lastTiles: Tiles | null = null;
  private fetchTimer = 0;
  private fetchAbort: AbortController | null = null;
  private fetchGeneration = 0;
  private drawPending = false;
  private pointer: { x: number; y: number } | null = null;
  private drag: { x: number; y: number; viewStart: number; viewEnd: number; kind: 'pan' | 'area' | 'mark' } | null = null;
  private readonly resizeObserver: ResizeObserver;
  private readonly keyHandler = (e: KeyboardEvent) => this.onKey(e);
  tool: Tool = 'pan';

  constructor(
    private readonly source: TraceSource,
    private readonly tracks: TraceTracks,
    private readonly callbacks: TimelineCallbacks,
  ) {
    this.root = document.createElement('div');
    this.root.className = 'tv-timeline';
    this.scroller = document.createElement('div');
    this.scroller.className = 'tv-scroll';
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute('aria-label', 'Trace timeline');
    this.spacer = document.createElement('div');
    this.spacer.className = 'tv-spacer';
    this.scroller.append(this.spacer);
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'tv-canvas';
    this.tooltip = document.createElement('div');
    this.tooltip.className = 'tv-tooltip';
    this.tooltip.hidden = true;
    this.root.append(this.canvas, this.scroller, this.tooltip);
    const ctx = this.canvas.getContext('2d');
    if (!ctx) throw new Error('this browser cannot draw on a canvas');
    this.ctx = ctx;
    const end = Math.max(tracks.end_ps, MIN_SPAN_PS);
    this.state = {
      width: 800,
      height: 400,
      scrollTop: 0,
      viewStart: -end * 0.01,
      viewEnd: end * 1.01,
      layout: computeLayout(tracks, this.collapsed),
      tiles: new Map(),
      selected: null,
      selectedSummary: null,
      mark: null,
      dragRect: null,
      area: null,
      flows: [],
      loading: false,
      traceEnd: tracks.end_ps,
      highlight: '',
      highlighted: 0,
      counterPoints: new Map(),
      counterSteps: 0,
      counterCount: tracks.counters?.length ?? 0,
    };
    this.spacer.style.height = `${AXIS_H + this.state.layout.height}px`;
    this.scroller.addEventListener('scroll', () => {
      this.state.scrollTop = this.scroller.scrollTop;
      this.requestDraw();
      this.scheduleFetch();
    });
    this.scroller.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    this.scroller.addEventListener('pointerdown', (e) => this.onPointerDown(e));
    this.scroller.addEventListener('pointermove', (e) => this.onPointerMove(e));
    this.scroller.addEventListener('pointerup', (e) => this.onPointerUp(e));
    this.scroller.addEventListener('pointerleave', () => {
      this.pointer = null;
      this.tooltip.hidden = true;
    });
    this.scroller.addEventListener('dblclick', (e) => this.onDoubleClick(e));
    window.addEventListener('keydown', this.keyHandler);
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(this.root);
  }

  // ---- public API (the page's toolbar, search and details pane) ----

  get viewStart(): number {
    return this.state.viewStart;
  }
  get viewEnd(): number {
    return this.state.viewEnd;
  }
  get resolutionPs(): number {
    return this.lastTiles?.resolution_ps ?? 0;
  }

  setView(start: number, end: number): void {
    let span = Math.max(MIN_SPAN_PS, end - start);
    const limit = Math.max(this.state.traceEnd, MIN_SPAN_PS) * 1.2;
    span = Math.min(span, limit);
    const center = (start + end) / 2;
    const lo = -0.1 * limit;
    const hi = this.state.traceEnd + 0.1 * limit;
    let s = center - span / 2;
    s = Math.min(Math.max(s, lo), Math.max(lo, hi - span));
    this.state.viewStart = s;
    this.state.viewEnd = s + span;
    this.requestDraw();
    this.scheduleFetch();
  }

  zoom(factor: number, atPs?: number): void {
    const at = atPs ?? (this.state.viewStart + this.state.viewEnd) / 2;
    const start = at - (at - this.state.viewStart) / factor;
    const end = at + (this.state.viewEnd - at) / factor;
    this.setView(start, end);
  }

  pan(fraction: number): void {
    const d = (this.state.viewEnd - this.state.viewStart) * fraction;
    this.setView(this.state.viewStart + d, this.state.viewEnd + d);
  }

  reset(): void {
    const end = Math.max(this.state.traceEnd, MIN_SPAN_PS);
    this.setView(-end * 0.01, end * 1.01);
  }

  setFlows(flows: Flow[]): void {
    this.state.flows = flows;
    this.requestDraw();
  }

  // Selects an event and brings it into view: expands its section, scrolls to its track,
  // and zooms so it is at least a few pixels wide (keeping the zoom if it already fits).
  reveal(track: number, event: number, startPs: number, endPs: number, depth: number): void {
    const section = this.state.layout.sectionOfTrack.get(track);
    if (section && this.collapsed.delete(section.id)) this.relayout();
    const t = this.state.layout.byTrack.get(track);
    if (t) {
      const y = t.y + depth * ROW_H;
      const visible = this.state.height - AXIS_H;
      if (y < this.scroller.scrollTop || y + ROW_H > this.scroller.scrollTop + visible) {
        this.scroller.scrollTop = Math.max(0, y - visible / 3);
        this.state.scrollTop = this.scroller.scrollTop;
      }
    }
    const span = this.state.viewEnd - this.state.viewStart;
    const duration = Math.max(endPs - startPs, 1);
    const fits = startPs >= this.state.viewStart && endPs <= this.state.viewEnd;
    const pxPerPs = (this.state.width - LABEL_W) / span;
    if (fits && duration * pxPerPs >= 3) {
      this.requestDraw();
      this.scheduleFetch();
    } else {
      const newSpan = Math.min(span, Math.max(duration * 12, MIN_SPAN_PS));
      const center = (startPs + endPs) / 2;
      this.setView(center - newSpan / 2, center + newSpan / 2);
    }
    this.selectEvent(track, event);
  }

  selectEvent(track: number, event: number): void {
    this.state.selected = { track, event };
    this.state.selectedSummary = null;
    this.state.area = null;
    this.state.flows = [];
    this.requestDraw();
    this.callbacks.onSelect({ kind: 'event', track, event });
  }

  clearSelection(): void {
    this.state.selected = null;
    this.state.selectedSummary = null;
    this.state.area = null;
    this.state.flows = [];
    this.requestDraw();
    this.callbacks.onSelect(null);
  }

  setMark(startPs: number, endPs: number): void {
    this.state.mark = { startPs: Math.min(startPs, endPs), endPs: Math.max(startPs, endPs) };
    this.requestDraw();
    this.callbacks.onSelect({ kind: 'mark', ...this.state.mark });
  }

  // The selected event's interval, for M (mark) and F (fit).
  private selectionInterval(): { startPs: number; endPs: number } | null {
    if (this.state.area) return this.state.area;
    if (this.state.selectedSummary) return this.state.selectedSummary;
    if (this.state.mark) return this.state.mark;
    const sel = this.state.selected;
    const stored = sel ? this.state.tiles.get(sel.track) : undefined;
    if (!sel || !stored) return null;
    const i = stored.tile.event.findIndex((e, k) => e === sel.event && stored.tile.count[k] === 0);
    return i < 0 ? null : { startPs: stored.tile.start[i], endPs: stored.tile.start[i] + stored.tile.dur[i] };
  }

  fitSelection(): void {
    const range = this.selectionInterval();
    if (!range) return;
    const pad = Math.max((range.endPs - range.startPs) * 0.15, MIN_SPAN_PS / 2);
    this.setView(range.startPs - pad, range.endPs + pad);
  }

  toggleSection(id: number): void {
    if (!this.collapsed.delete(id)) this.collapsed.add(id);
    this.relayout();
  }

  destroy(): void {
    window.removeEventListener('keydown', this.keyHandler);
    this.resizeObserver.disconnect();
    this.fetchAbort?.abort();
    window.clearTimeout(this.fetchTimer);
  }

  // Test hook: each shown lane's id and label, top to bottom.
  laneLabels(): { track: number; label: string; kind: string }[] {
    return [
      ...this.state.layout.counters.map((c) => ({ track: c.counter.id, label: c.label, kind: 'counter' })),
      ...this.state.layout.tracks.map((t) => ({ track: t.track.id, label: t.label, kind: t.track.kind })),
    ];
  }

  // Test hooks: where a row is drawn (CSS px from the top of the timeline; null when its
  // section is collapsed), scrolling a track into view, and the x of a time.
  rowCenterY(track: number, depth: number): number | null {
    const t = this.state.layout.byTrack.get(track);
    return t ? AXIS_H + t.y - this.state.scrollTop + depth * ROW_H + ROW_H / 2 : null;
  }
  scrollToTrack(track: number): void {
    const t = this.state.layout.byTrack.get(track);
    if (!t) return;
    // Show the section header too when the track is its first.
    const first = t.section.tracks[0]?.id === track;
    this.scroller.scrollTop = Math.max(0, t.y - (first ? SECTION_H + 4 : 40));
    this.state.scrollTop = this.scroller.scrollTop;
    this.requestDraw();
    this.scheduleFetch();
  }
  timeX(ps: number): number {
    return timeToX(this.state, ps);
  }

  // Test and screenshot hook: how many primitives of each kind are drawn now.
  stats(): { events: number; summaries: number; tracks: number; resolutionPs: number; highlighted: number; counterSteps: number } {
    let events = 0;
    let summaries = 0;
    for (const stored of this.state.tiles.values()) {
      for (const c of stored.tile.count) c > 0 ? summaries++ : events++;
    }
    return { events, summaries, tracks: this.state.tiles.size, resolutionPs: this.resolutionPs, highlighted: this.state.highlighted, counterSteps: this.state.counterSteps };
  }

  // Outlines every drawn event whose name holds `query` (case-insensitive; '' clears).
  setHighlight(query: string): void {
    this.state.highlight = query.trim().toLowerCase();
    this.requestDraw();
  }

  // ---- layout, drawing, fetching ----

  private relayout(): void {
    this.state.layout = computeLayout(this.tracks, this.collapsed);
    this.spacer.style.height = `${AXIS_H + this.state.layout.height}px`;
    this.requestDraw();
    this.scheduleFetch();
  }

  private resize(): void {
    const rect = this.root.getBoundingClientRect();
    const width = Math.max(LABEL_W + 100, this.scroller.clientWidth || rect.width);
    const height = Math.max(AXIS_H + 50, rect.height);
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(height * dpr);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.state.width = width;
    this.state.height = height;
    this.requestDraw();
    this.scheduleFetch();
  }

  requestDraw(): void {
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      draw(this.ctx, this.state, this.lastTiles);
      this.root.dataset.viewStart = String(Math.round(this.state.viewStart));
      this.root.dataset.viewEnd = String(Math.round(this.state.viewEnd));
    });
  }

  private visibleTrackIds(): number[] {
    const top = this.state.scrollTop - 300;
    const bottom = this.state.scrollTop + this.state.height + 300;
    return this.state.layout.tracks.filter((t) => t.y + t.height >= top && t.y <= bottom).map((t) => t.track.id);
  }

  private scheduleFetch(): void {
    window.clearTimeout(this.fetchTimer);
    this.fetchTimer = window.setTimeout(() => void this.fetchTiles(), this.state.tiles.size ? FETCH_DEBOUNCE_MS : 0);
  }

  private async fetchTiles(): Promise<void> {
    const tracks = this.visibleTrackIds();
    if (!tracks.length) return;
    const span = this.state.viewEnd - this.state.viewStart;
    const start = Math.max(0, this.state.viewStart - span * FETCH_MARGIN);
    const end = Math.min(this.state.traceEnd + 1, this.state.viewEnd + span * FETCH_MARGIN);
    if (end <= start) return;
    const width = ((end - start) / span) * (this.state.width - LABEL_W);
    this.fetchAbort?.abort();
    const abort = new AbortController();
    this.fetchAbort = abort;
    const generation = ++this.fetchGeneration;
    this.state.loading = true;
    this.requestDraw();
    try {
      const [tiles, counters] = await Promise.all([
        traceApi.tiles(this.source, start, end, width, tracks, abort.signal),
        this.tracks.counters?.length ? traceApi.counters(this.source, start, end, width, abort.signal) : Promise.resolve(null),
      ]);
      if (generation !== this.fetchGeneration) return;
      for (const c of counters?.counters ?? []) this.state.counterPoints.set(c.id, { t: c.t, v: c.v });
      this.lastTiles = tiles;
      for (const tile of tiles.tracks) this.state.tiles.set(tile.id, { tile, names: tiles.names, resolutionPs: tiles.resolution_ps });
      this.root.dataset.resolutionPs = String(tiles.resolution_ps);
      this.root.dataset.primitives = String(tiles.primitives);
    } catch (error) {
      if ((error as Error).name === 'AbortError') return;
      this.callbacks.onError(error instanceof TraceApiError ? error.message : String(error));
    } finally {
      if (generation === this.fetchGeneration) {
        this.state.loading = false;
        this.root.dataset.loading = '0';
        this.requestDraw();
      }
    }
    this.root.dataset.loaded = String(generation);
  }

  // ---- input ----

  private local(e: MouseEvent): { x: number; y: number } {
    const rect = this.scroller.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  }

  private hitTest(x: number, y: number): Hit | null {
    if (x < LABEL_W || y < AXIS_H) return null;
    const at = trackAt(this.state.layout, y - AXIS_H + this.state.scrollTop);
    if (!at) return null;
    const stored = this.state.tiles.get(at.track.track.id);
    if (!stored) return null;
    const tile = stored.tile;
    let best: Hit | null = null;
    let bestDistance = 4;  // px of slack for 1-px primitives
    for (let i = 0; i < tile.start.length; i++) {
      if (tile.depth[i] !== at.depth) continue;
      const x0 = timeToX(this.state, tile.start[i]);
      const x1 = Math.max(timeToX(this.state, tile.start[i] + tile.dur[i]), x0 + 1);
      const distance = x < x0 ? x0 - x : x > x1 ? x - x1 : 0;
      if (distance < bestDistance || (distance === 0 && best && tile.count[best.index] > 0 && tile.count[i] === 0)) {
        best = { track: at.track.track.id, index: i, stored };
        bestDistance = distance;
      }
    }
    return best;
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const { x } = this.local(e);
    if (e.shiftKey) {
      this.scroller.scrollTop += e.deltaY || e.deltaX;
      return;
    }
    if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      this.pan(e.deltaX / (this.state.width - LABEL_W));
      return;
    }
    const scale = e.deltaMode === 1 ? 30 : e.deltaMode === 2 ? 300 : 1;
    const factor = Math.exp(-e.deltaY * scale * 0.0018);
    this.zoom(factor, x >= LABEL_W ? xToTime(this.state, x) : undefined);
  }

  private onPointerDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    const { x, y } = this.local(e);
    if (x >= this.scroller.clientWidth) return;  // the scrollbar
    this.scroller.focus({ preventScroll: true });
    let kind: 'pan' | 'area' | 'mark' = 'pan';
    if (y < AXIS_H || this.tool === 'timing') kind = 'mark';
    else if (e.shiftKey || this.tool === 'select') kind = 'area';
    this.drag = { x, y, viewStart: this.state.viewStart, viewEnd: this.state.viewEnd, kind };
    this.scroller.setPointerCapture(e.pointerId);
  }

  private onPointerMove(e: PointerEvent): void {
    const { x, y } = this.local(e);
    this.pointer = { x, y };
    const d = this.drag;
    if (d && (Math.abs(x - d.x) > DRAG_THRESHOLD_PX || Math.abs(y - d.y) > DRAG_THRESHOLD_PX || this.state.dragRect)) {
      this.tooltip.hidden = true;
      if (d.kind === 'pan') {
        const dt = ((x - d.x) / (this.state.width - LABEL_W)) * (d.viewEnd - d.viewStart);
        this.setView(d.viewStart - dt, d.viewEnd - dt);
        this.scroller.scrollTop -= e.movementY;
      } else {
        this.state.dragRect = { x0: Math.max(d.x, LABEL_W), y0: d.kind === 'mark' ? AXIS_H : d.y, x1: Math.max(x, LABEL_W), y1: d.kind === 'mark' ? this.state.height : y };
        this.requestDraw();
      }
      return;
    }
    if (!d) this.updateTooltip(x, y);
  }

  private onPointerUp(e: PointerEvent): void {
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    const { x, y } = this.local(e);
    const rect = this.state.dragRect;
    this.state.dragRect = null;
    if (!rect) {
      this.onClick(x, y);
      return;
    }
    const t0 = xToTime(this.state, Math.min(rect.x0, rect.x1));
    const t1 = xToTime(this.state, Math.max(rect.x0, rect.x1));
    if (d.kind === 'mark') {
      this.setMark(t0, t1);
      return;
    }
    if (d.kind === 'area') {
      const y0 = Math.min(rect.y0, rect.y1) - AXIS_H + this.state.scrollTop;
      const y1 = Math.max(rect.y0, rect.y1) - AXIS_H + this.state.scrollTop;
      const tracks = this.state.layout.tracks.filter((t) => t.y + t.height > y0 && t.y < y1).map((t) => t.track.id);
      this.state.selected = null;
      this.state.selectedSummary = null;
      this.state.flows = [];
      this.state.area = { startPs: t0, endPs: t1, y0, y1 };
      this.requestDraw();
      this.callbacks.onSelect({ kind: 'area', startPs: t0, endPs: t1, tracks });
    }
  }

  private onClick(x: number, y: number): void {
    if (y >= AXIS_H && x < LABEL_W) {
      const header = sectionHeaderAt(this.state.layout, y - AXIS_H + this.state.scrollTop);
      if (header) this.toggleSection(header.section.id);
      return;
    }
    if (y >= AXIS_H) {
      const header = sectionHeaderAt(this.state.layout, y - AXIS_H + this.state.scrollTop);
      if (header) {
        this.toggleSection(header.section.id);
        return;
      }
    }
    const hit = this.hitTest(x, y);
    if (!hit) {
      this.clearSelection();
      return;
    }
    const tile = hit.stored.tile;
    if (tile.count[hit.index] === 0) {
      this.selectEvent(hit.track, tile.event[hit.index]);
      return;
    }
    const summary = {
      track: hit.track,
      depth: tile.depth[hit.index],
      startPs: tile.start[hit.index],
      endPs: tile.start[hit.index] + tile.dur[hit.index],
    };
    this.state.selected = null;
    this.state.area = null;
    this.state.flows = [];
    this.state.selectedSummary = summary;
    this.requestDraw();
    this.callbacks.onSelect({ kind: 'summary', ...summary, count: tile.count[hit.index], name: hit.stored.names[tile.name[hit.index]] ?? '' });
  }

  private onDoubleClick(e: MouseEvent): void {
    const { x, y } = this.local(e);
    const hit = this.hitTest(x, y);
    if (!hit) return;
    const tile = hit.stored.tile;
    const start = tile.start[hit.index];
    const end = start + Math.max(tile.dur[hit.index], 1);
    const pad = Math.max((end - start) * 0.2, MIN_SPAN_PS / 2);
    this.setView(start - pad, end + pad);
  }

  private updateTooltip(x: number, y: number): void {
    const hit = this.hitTest(x, y);
    if (!hit) {
      this.tooltip.hidden = true;
      return;
    }
    const tile = hit.stored.tile;
    const i = hit.index;
    const name = hit.stored.names[tile.name[i]] ?? '';
    if (tile.count[i] > 0) {
      this.tooltip.textContent = '';
      const title = document.createElement('b');
      title.textContent = `${tile.count[i].toLocaleString('en-US')} event${tile.count[i] === 1 ? '' : 's'} too short to draw`;
      const span = document.createElement('div');
      span.textContent = `${formatPs(tile.dur[i])} span${tile.count[i] === 1 ? ` · ${name}` : ''} · zoom in (W or double-click)`;
      this.tooltip.append(title, span);
    } else {
      this.tooltip.textContent = '';
      const title = document.createElement('b');
      title.textContent = name;
      const span = document.createElement('div');
      span.textContent = formatPs(tile.dur[i]);
      this.tooltip.append(title, span);
    }
    this.tooltip.hidden = false;
    const w = this.tooltip.offsetWidth;
    this.tooltip.style.left = `${Math.min(x + 14, this.state.width - w - 6)}px`;
    this.tooltip.style.top = `${y + 16}px`;
  }

  private onKey(e: KeyboardEvent): void {
    if (!this.root.isConnected) {
      this.destroy();
      return;
    }
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const at = this.pointer && this.pointer.x >= LABEL_W ? xToTime(this.state, this.pointer.x) : undefined;
    switch (e.key.toLowerCase()) {
      case 'w': this.zoom(1.3, at); break;
      case 's': this.zoom(1 / 1.3, at); break;
      case 'a': this.pan(-0.15); break;
      case 'd': this.pan(0.15); break;
      case 'f': this.fitSelection(); break;
      case '0': this.reset(); break;
      case 'm': {
        const range = this.selectionInterval();
        if (range) this.setMark(range.startPs, range.endPs);
        break;
      }
      case 'escape':
        this.state.mark = null;
        this.clearSelection();
        break;
      default: return;
    }
    e.preventDefault();
  }
}
