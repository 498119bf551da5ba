// Drawing the trace viewer's canvas: time axis, section headers, track labels, the
// level-of-detail primitives (events as coloured boxes, summaries of sub-pixel events
// hatched), the selection, search match, timing mark, area selection and flow arrows.
import type { Flow, Tiles, TrackTile } from './trace_api';
import { formatPs, formatTick, nameColour, niceStep, shortName } from './trace_format';
import { AXIS_H, COUNTER_SECTION_ID, LABEL_W, ROW_H, SECTION_H, type CounterLayout, type Layout, type TrackLayout } from './trace_layout';

export interface StoredTile {
  tile: TrackTile;
  names: string[];
  resolutionPs: number;
}

export interface EventRef {
  track: number;
  event: number;
}

export interface DrawState {
  width: number;   // CSS pixels
  height: number;
  scrollTop: number;
  viewStart: number;  // ps
  viewEnd: number;
  layout: Layout;
  tiles: Map<number, StoredTile>;
  selected: EventRef | null;
  selectedSummary: { track: number; depth: number; startPs: number; endPs: number } | null;
  mark: { startPs: number; endPs: number } | null;
  dragRect: { x0: number; y0: number; x1: number; y1: number } | null;
  area: { startPs: number; endPs: number; y0: number; y1: number } | null;  // content y
  flows: Flow[];
  loading: boolean;
  traceEnd: number;
  // The search query, lower case ('' = none): every drawn event whose name holds it is
  // outlined and the others faded, not only the current match.
  highlight: string;
  highlighted: number; // events outlined by the last draw (for tests)
  // Counter tracks' points for the fetched range, by counter id.
  counterPoints: Map<number, { t: number[]; v: number[] }>;
  counterSteps: number; // counter points drawn by the last draw (for tests)
  counterCount: number; // counter tracks of the trace (shown or collapsed)
}

const COLORS = {
  background: '#ffffff',
  axis: '#f8f9fa',
  grid: '#eef0f2',
  text: '#202124',
  muted: '#5f6368',
  border: '#dadce0',
  section: '#e8eaed',
  sectionText: '#3c4043',
  labelBg: '#fafafa',
  select: '#1a73e8',
  mark: 'rgba(26,115,232,0.09)',
  markLine: 'rgba(26,115,232,0.8)',
  summary: '#9aa0a6',
  searchMatch: '#f29900',
  flow: '#d93025',
};

let hatch: CanvasPattern | null = null;

// Diagonal stripes: what "many events too short to draw" looks like.
function hatchPattern(ctx: CanvasRenderingContext2D): CanvasPattern | string {
  if (hatch) return hatch;
  const tile = document.createElement('canvas');
  tile.width = 6;
  tile.height = 6;
  const t = tile.getContext('2d');
  if (!t) return COLORS.summary;
  t.fillStyle = '#c4c7c5';
  t.fillRect(0, 0, 6, 6);
  t.strokeStyle = '#80868b';
  t.lineWidth = 1.5;
  t.beginPath();
  t.moveTo(-1, 7);
  t.lineTo(7, -1);
  t.moveTo(2, 9);
  t.lineTo(9, 2);
  t.moveTo(-4, 4);
  t.lineTo(4, -4);
  t.stroke();
  hatch = ctx.createPattern(tile, 'repeat');
  return hatch ?? COLORS.summary;
}

export function timeToX(s: DrawState, ps: number): number {
  return LABEL_W + ((ps - s.viewStart) / (s.viewEnd - s.viewStart)) * (s.width - LABEL_W);
}

export function xToTime(s: DrawState, x: number): number {
  return s.viewStart + ((x - LABEL_W) / (s.width - LABEL_W)) * (s.viewEnd - s.viewStart);
}

// Content y (layout coordinates) -> canvas y.
export function contentToCanvasY(s: DrawState, y: number): number {
  return AXIS_H + y - s.scrollTop;
}

function fitText(ctx: CanvasRenderingContext2D, text: string, maxWidth: number): string {
  if (maxWidth < 8) return '';
  if (ctx.measureText(text).width <= maxWidth) return text;
  // Binary search the longest prefix that fits with an ellipsis.
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(text.slice(0, mid) + '…').width <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : text.slice(0, lo) + '…';
}

function drawAxis(ctx: CanvasRenderingContext2D, s: DrawState): void {
  ctx.fillStyle = COLORS.axis;
  ctx.fillRect(0, 0, s.width, AXIS_H);
  ctx.strokeStyle = COLORS.border;
  ctx.beginPath();
  ctx.moveTo(0, AXIS_H - 0.5);
  ctx.lineTo(s.width, AXIS_H - 0.5);
  ctx.stroke();
  const span = s.viewEnd - s.viewStart;
  const step = niceStep((span / (s.width - LABEL_W)) * 110);
  ctx.fillStyle = COLORS.muted;
  ctx.font = '11px Roboto, "Segoe UI", Arial, sans-serif';
  ctx.textBaseline = 'middle';
  for (let t = Math.ceil(s.viewStart / step) * step; t <= s.viewEnd; t += step) {
    const x = Math.round(timeToX(s, t)) + 0.5;
    if (x < LABEL_W) continue;
    ctx.strokeStyle = COLORS.border;
    ctx.beginPath();
    ctx.moveTo(x, AXIS_H - 8);
    ctx.lineTo(x, AXIS_H);
    ctx.stroke();
    ctx.strokeStyle = COLORS.grid;
    ctx.beginPath();
    ctx.moveTo(x, AXIS_H);
    ctx.lineTo(x, s.height);
    ctx.stroke();
    ctx.fillText(formatTick(t, step), x + 4, AXIS_H / 2 - 2);
  }
  ctx.fillStyle = COLORS.text;
  ctx.font = '500 11px Roboto, "Segoe UI", Arial, sans-serif';
  ctx.fillText(`${formatPs(span)} shown`, 10, AXIS_H / 2);
}

function drawTrackPrimitives(ctx: CanvasRenderingContext2D, s: DrawState, t: TrackLayout, stored: StoredTile): void {
  const { tile, names } = stored;
  const top = contentToCanvasY(s, t.y);
  const scale = (s.width - LABEL_W) / (s.viewEnd - s.viewStart);
  const left = LABEL_W;
  const right = s.width;
  const labels: [string, number, number, number][] = [];
  const n = tile.start.length;
  // Events first, grouped by colour to save state changes; summaries after.
  const byColour = new Map<string, number[]>();
  const summaries: number[] = [];
  const matches = s.highlight ? names.map((name) => name.toLowerCase().includes(s.highlight)) : null;
  const outlined: number[] = [];
  for (let i = 0; i < n; i++) {
    const x0 = left + (tile.start[i] - s.viewStart) * scale;
    const x1 = x0 + tile.dur[i] * scale;
    if (x1 < left || x0 > right) continue;
    if (tile.count[i] > 0) {
      summaries.push(i);
      continue;
    }
    const colour = nameColour(names[tile.name[i]] ?? '');
    let list = byColour.get(colour);
    if (!list) byColour.set(colour, (list = []));
    list.push(i);
  }
  for (const [colour, list] of byColour) {
    ctx.fillStyle = colour;
    for (const i of list) {
      const x0 = Math.max(left, left + (tile.start[i] - s.viewStart) * scale);
      const x1 = Math.min(right, left + (tile.start[i] + tile.dur[i] - s.viewStart) * scale);
      const w = Math.max(1, x1 - x0);
      const y = top + tile.depth[i] * ROW_H;
      const match = matches ? matches[tile.name[i]] === true : true;
      ctx.globalAlpha = match ? 1 : 0.25;
      ctx.fillRect(x0, y + 1, w, ROW_H - 2);
      if (matches && match) outlined.push(i);
      if (w > 36) labels.push([names[tile.name[i]] ?? '', x0, y, w]);
    }
  }
  ctx.globalAlpha = 1;
  if (outlined.length) {
    ctx.strokeStyle = COLORS.searchMatch;
    ctx.lineWidth = 2;
    for (const i of outlined) {
      const x0 = Math.max(left, left + (tile.start[i] - s.viewStart) * scale);
      const x1 = Math.min(right, left + (tile.start[i] + tile.dur[i] - s.viewStart) * scale);
      ctx.strokeRect(x0 - 1, top + tile.depth[i] * ROW_H, Math.max(2, x1 - x0 + 2), ROW_H);
    }
    ctx.lineWidth = 1;
    s.highlighted += outlined.length;
  }
  if (summaries.length) {
    ctx.fillStyle = hatchPattern(ctx);
    for (const i of summaries) {
      const x0 = Math.max(left, left + (tile.start[i] - s.viewStart) * scale);
      const x1 = Math.min(right, left + (tile.start[i] + tile.dur[i] - s.viewStart) * scale);
      const w = Math.max(1.5, x1 - x0);
      ctx.fillRect(x0, top + tile.depth[i] * ROW_H + 3, w, ROW_H - 6);
    }
  }
  if (labels.length) {
    ctx.fillStyle = COLORS.text;
    ctx.font = '11px Roboto, "Segoe UI", Arial, sans-serif';
    ctx.textBaseline = 'middle';
    for (const [text, x, y, w] of labels) {
      const fitted = fitText(ctx, ctx.measureText(text).width <= w - 6 ? text : shortName(text), w - 6);
      if (fitted) ctx.fillText(fitted, x + 3, y + ROW_H / 2);
    }
  }
}

const COUNTER_FILL = 'rgba(26,115,232,0.18)';
const COUNTER_LINE = '#1a73e8';

function formatCounterValue(value: number, unit: string): string {
  if (unit !== 'bytes') return Math.abs(value) >= 1e4 ? value.toExponential(2) : String(Math.round(value * 100) / 100);
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = value;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

// A counter as a step-area graph: each value holds until the next point; 0 at the lane's
// bottom, the counter's maximum at its top.
function drawCounter(ctx: CanvasRenderingContext2D, s: DrawState, c: CounterLayout): void {
  const top = contentToCanvasY(s, c.y);
  const bottom = top + c.height - 6;
  const scale = (s.width - LABEL_W) / (s.viewEnd - s.viewStart);
  const max = Math.max(c.counter.max, 0);
  const min = Math.min(c.counter.min, 0);
  const yOf = (v: number) => bottom - ((v - min) / (max - min || 1)) * (c.height - 10);
  const xOf = (t: number) => LABEL_W + (t - s.viewStart) * scale;
  const points = s.counterPoints.get(c.counter.id);
  if (points && points.t.length) {
    ctx.save();
    ctx.beginPath();
    ctx.rect(LABEL_W, top, s.width - LABEL_W, c.height);
    ctx.clip();
    const path = new Path2D();
    let x = Math.max(LABEL_W - 1, xOf(points.t[0]));
    path.moveTo(x, bottom);
    path.lineTo(x, yOf(points.v[0]));
    for (let i = 1; i < points.t.length; i++) {
      const nx = Math.min(s.width + 1, Math.max(LABEL_W - 1, xOf(points.t[i])));
      path.lineTo(nx, yOf(points.v[i - 1]));
      path.lineTo(nx, yOf(points.v[i]));
      x = nx;
    }
    const last = points.v[points.v.length - 1];
    const end = Math.min(s.width + 1, xOf(s.traceEnd));
    path.lineTo(Math.max(x, end), yOf(last));
    const area = new Path2D(path);
    area.lineTo(Math.max(x, end), bottom);
    area.closePath();
    ctx.fillStyle = COUNTER_FILL;
    ctx.fill(area);
    ctx.strokeStyle = COUNTER_LINE;
    ctx.lineWidth = 1.25;
    ctx.stroke(path);
    ctx.lineWidth = 1;
    ctx.restore();
    s.counterSteps += points.t.length;
  }
  // Label column: the counter's name and its range.
  ctx.fillStyle = COLORS.labelBg;
  ctx.fillRect(0, top - 2, LABEL_W, c.height);
  ctx.fillStyle = COLORS.text;
  ctx.font = '12px Roboto, "Segoe UI", Arial, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.fillText(fitText(ctx, c.label, LABEL_W - 28), 18, top + ROW_H / 2);
  ctx.fillStyle = COLORS.muted;
  ctx.font = '11px Roboto, "Segoe UI", Arial, sans-serif';
  ctx.fillText(fitText(ctx, `max ${formatCounterValue(c.counter.max, c.counter.unit)}`, LABEL_W - 28), 18, top + ROW_H / 2 + 16);
  ctx.strokeStyle = COLORS.grid;
  ctx.beginPath();
  ctx.moveTo(0, top + c.height - 2.5);
  ctx.lineTo(s.width, top + c.height - 2.5);
  ctx.stroke();
}

function findPrimitive(s: DrawState, ref: EventRef): { x0: number; x1: number; y: number } | null {
  const stored = s.tiles.get(ref.track);
  const t = s.layout.byTrack.get(ref.track);
  if (!stored || !t) return null;
  const tile = stored.tile;
  for (let i = 0; i < tile.event.length; i++) {
    if (tile.event[i] === ref.event && tile.count[i] === 0) {
      const x0 = timeToX(s, tile.start[i]);
      const x1 = timeToX(s, tile.start[i] + tile.dur[i]);
      return { x0, x1: Math.max(x1, x0 + 1), y: contentToCanvasY(s, t.y) + tile.depth[i] * ROW_H };
    }
  }
  return null;
}

function drawArrow(ctx: CanvasRenderingContext2D, x1: number, y1: number, x2: number, y2: number): void {
  const dx = Math.max(30, Math.abs(x2 - x1) / 2);
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.bezierCurveTo(x1 + dx, y1, x2 - dx, y2, x2, y2);
  ctx.stroke();
  // The curve ends horizontally (its last control point is level with the end), so the
  // head points right.
  ctx.beginPath();
  ctx.moveTo(x2, y2);
  ctx.lineTo(x2 - 8 * Math.cos(0.45), y2 - 8 * Math.sin(0.45));
  ctx.lineTo(x2 - 8 * Math.cos(0.45), y2 + 8 * Math.sin(0.45));
  ctx.closePath();
  ctx.fill();
}

// Where a flow end is drawn: its row when the track is shown, else its section header.
function flowPoint(s: DrawState, track: number, depth: number, ps: number): { x: number; y: number } {
  const t = s.layout.byTrack.get(track);
  const x = Math.min(Math.max(timeToX(s, ps), LABEL_W), s.width);
  if (t) return { x, y: contentToCanvasY(s, t.y) + depth * ROW_H + ROW_H / 2 };
  const section = s.layout.sectionOfTrack.get(track);
  const header = s.layout.sections.find((h) => h.section.id === section?.id);
  return { x, y: contentToCanvasY(s, header ? header.y + SECTION_H / 2 : 0) };
}

export function draw(ctx: CanvasRenderingContext2D, s: DrawState, tilesInfo: Tiles | null): void {
  s.highlighted = 0;
  s.counterSteps = 0;
  ctx.fillStyle = COLORS.background;
  ctx.fillRect(0, 0, s.width, s.height);
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, AXIS_H, s.width, s.height - AXIS_H);
  ctx.clip();
  // Tracks.
  const visibleTop = s.scrollTop - ROW_H;
  const visibleBottom = s.scrollTop + s.height;
  for (const t of s.layout.tracks) {
    if (t.y + t.height < visibleTop || t.y > visibleBottom) continue;
    const y = contentToCanvasY(s, t.y);
    const stored = s.tiles.get(t.track.id);
    if (stored) drawTrackPrimitives(ctx, s, t, stored);
    // Label column.
    ctx.fillStyle = COLORS.labelBg;
    ctx.fillRect(0, y - 2, LABEL_W, t.height);
    ctx.fillStyle = COLORS.text;
    ctx.font = '12px Roboto, "Segoe UI", Arial, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.fillText(fitText(ctx, t.label, LABEL_W - 28), 18, y + ROW_H / 2);
    ctx.strokeStyle = COLORS.grid;
    ctx.beginPath();
    ctx.moveTo(0, y + t.height - 2.5);
    ctx.lineTo(s.width, y + t.height - 2.5);
    ctx.stroke();
  }
  // Counter tracks.
  for (const c of s.layout.counters) {
    if (c.y + c.height < visibleTop || c.y > visibleBottom) continue;
    drawCounter(ctx, s, c);
  }
  // Section headers.
  for (const h of s.layout.sections) {
    if (h.y + SECTION_H < visibleTop || h.y > visibleBottom) continue;
    const y = contentToCanvasY(s, h.y);
    ctx.fillStyle = COLORS.section;
    ctx.fillRect(0, y, s.width, SECTION_H);
    ctx.fillStyle = COLORS.sectionText;
    ctx.font = '500 12.5px Roboto, "Segoe UI", Arial, sans-serif';
    ctx.textBaseline = 'middle';
    const events = h.section.tracks.reduce((sum, t) => sum + t.events, 0);
    ctx.fillText(`${h.collapsed ? '▸' : '▾'}  ${h.section.name}`, 8, y + SECTION_H / 2);
    ctx.fillStyle = COLORS.muted;
    ctx.font = '11px Roboto, "Segoe UI", Arial, sans-serif';
    const counters = s.counterCount;
    const label =
      h.section.id === COUNTER_SECTION_ID
        ? `${counters} counter${counters === 1 ? '' : 's'} · values over time`
        : `${h.section.tracks.length} track${h.section.tracks.length === 1 ? '' : 's'} · ${events.toLocaleString('en-US')} events`;
    ctx.fillText(label, Math.min(LABEL_W + 8, 8 + ctx.measureText(`▾  ${h.section.name}`).width + 90), y + SECTION_H / 2);
  }
  ctx.strokeStyle = COLORS.border;
  ctx.beginPath();
  ctx.moveTo(LABEL_W - 0.5, AXIS_H);
  ctx.lineTo(LABEL_W - 0.5, s.height);
  ctx.stroke();
  // Outside the trace: shaded.
  ctx.fillStyle = 'rgba(60,64,67,0.06)';
  const x0 = timeToX(s, 0);
  if (x0 > LABEL_W) ctx.fillRect(LABEL_W, AXIS_H, x0 - LABEL_W, s.height);
  const x1 = timeToX(s, s.traceEnd);
  if (x1 < s.width) ctx.fillRect(Math.max(x1, LABEL_W), AXIS_H, s.width - Math.max(x1, LABEL_W), s.height);
  // Selection outline.
  if (s.selected) {
    const p = findPrimitive(s, s.selected);
    if (p) {
      ctx.strokeStyle = COLORS.select;
      ctx.lineWidth = 2;
      ctx.strokeRect(Math.max(p.x0, LABEL_W) - 1, p.y, Math.min(p.x1, s.width) - Math.max(p.x0, LABEL_W) + 2, ROW_H);
      ctx.lineWidth = 1;
    }
  }
  if (s.selectedSummary) {
    const t = s.layout.byTrack.get(s.selectedSummary.track);
    if (t) {
      const a = timeToX(s, s.selectedSummary.startPs);
      const b = Math.max(a + 2, timeToX(s, s.selectedSummary.endPs));
      ctx.strokeStyle = COLORS.select;
      ctx.lineWidth = 2;
      ctx.setLineDash([3, 2]);
      ctx.strokeRect(Math.max(a, LABEL_W) - 1, contentToCanvasY(s, t.y) + s.selectedSummary.depth * ROW_H, Math.min(b, s.width) - Math.max(a, LABEL_W) + 2, ROW_H);
      ctx.setLineDash([]);
      ctx.lineWidth = 1;
    }
  }
  // Area selection.
  if (s.area) {
    const a = Math.max(LABEL_W, timeToX(s, s.area.startPs));
    const b = Math.min(s.width, timeToX(s, s.area.endPs));
    const ya = contentToCanvasY(s, s.area.y0);
    const yb = contentToCanvasY(s, s.area.y1);
    ctx.fillStyle = 'rgba(26,115,232,0.10)';
    ctx.fillRect(a, ya, b - a, yb - ya);
    ctx.strokeStyle = COLORS.select;
    ctx.strokeRect(a + 0.5, ya + 0.5, b - a - 1, yb - ya - 1);
  }
  // Flow arrows.
  if (s.flows.length) {
    ctx.strokeStyle = COLORS.flow;
    ctx.fillStyle = COLORS.flow;
    ctx.lineWidth = 1.5;
    for (const f of s.flows) {
      const from = flowPoint(s, f.from.track, f.from.depth, f.from.start_ps);
      const to = flowPoint(s, f.to.track, f.to.depth, f.to.start_ps);
      drawArrow(ctx, from.x, from.y, to.x, to.y);
    }
    ctx.lineWidth = 1;
  }
  ctx.restore();
  // Timing mark: a band over everything, its length on the axis.
  if (s.mark) {
    const a = timeToX(s, s.mark.startPs);
    const b = timeToX(s, s.mark.endPs);
    ctx.fillStyle = COLORS.mark;
    ctx.fillRect(Math.max(a, LABEL_W), AXIS_H, Math.max(0, Math.min(b, s.width) - Math.max(a, LABEL_W)), s.height - AXIS_H);
    ctx.strokeStyle = COLORS.markLine;
    for (const x of [a, b]) {
      if (x < LABEL_W || x > s.width) continue;
      ctx.beginPath();
      ctx.moveTo(Math.round(x) + 0.5, 0);
      ctx.lineTo(Math.round(x) + 0.5, s.height);
      ctx.stroke();
    }
  }
  drawAxis(ctx, s);
  if (s.mark) {
    const a = Math.max(LABEL_W, timeToX(s, s.mark.startPs));
    const b = Math.min(s.width, timeToX(s, s.mark.endPs));
    const text = `Δ ${formatPs(s.mark.endPs - s.mark.startPs, 4)}`;
    ctx.font = '500 11.5px Roboto, "Segoe UI", Arial, sans-serif';
    const w = ctx.measureText(text).width + 12;
    const cx = Math.min(Math.max((a + b) / 2 - w / 2, LABEL_W + 2), s.width - w - 2);
    ctx.fillStyle = COLORS.select;
    ctx.fillRect(cx, 4, w, AXIS_H - 8);
    ctx.fillStyle = '#fff';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, cx + 6, AXIS_H / 2);
  }
  if (s.dragRect) {
    const r = s.dragRect;
    ctx.strokeStyle = COLORS.select;
    ctx.setLineDash([4, 3]);
    ctx.strokeRect(Math.min(r.x0, r.x1) + 0.5, Math.min(r.y0, r.y1) + 0.5, Math.abs(r.x1 - r.x0), Math.abs(r.y1 - r.y0));
    ctx.setLineDash([]);
  }
  if (s.loading || tilesInfo?.coarsened) {
    ctx.fillStyle = COLORS.muted;
    ctx.font = '11px Roboto, "Segoe UI", Arial, sans-serif';
    ctx.textBaseline = 'middle';
    const text = s.loading ? 'loading…' : 'coarser detail (many tracks)';
    ctx.fillText(text, s.width - ctx.measureText(text).width - 10, AXIS_H / 2);
  }
}
