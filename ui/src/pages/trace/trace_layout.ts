// Vertical layout of the trace viewer: section headers, then each track's rows (one per
// nesting depth), in the order the server lists them. Collapsed sections keep only
// their header. y is measured from the top of the content (below the time axis).
import type { CounterInfo, TraceSectionInfo, TraceTrackInfo, TraceTracks } from './trace_api';

export const AXIS_H = 30;
export const SECTION_H = 26;
export const ROW_H = 18;
export const TRACK_PAD = 5;
export const LABEL_W = 250;
export const COUNTER_H = 44;
// The id of the counters' section (server sections are numbered from 0).
export const COUNTER_SECTION_ID = -1;

export interface SectionLayout {
  section: TraceSectionInfo;
  y: number;
  collapsed: boolean;
}

export interface TrackLayout {
  track: TraceTrackInfo;
  section: TraceSectionInfo;
  label: string; // what the lane is called (trackLabel)
  y: number;  // top of row 0
  height: number;
}

// A counter track: a step-area graph of one counter, COUNTER_H tall.
export interface CounterLayout {
  counter: CounterInfo;
  label: string;
  y: number;
  height: number;
}

export interface Layout {
  sections: SectionLayout[];
  tracks: TrackLayout[];
  counters: CounterLayout[];
  byTrack: Map<number, TrackLayout>;
  sectionOfTrack: Map<number, TraceSectionInfo>;
  height: number;
}

// A lane's name: host thread lanes say which OS thread they are ("pt_autograd_0 (tid
// 1234)"), as two threads may share a name; device lanes keep theirs ("Stream #7(Compute)").
export function trackLabel(section: TraceSectionInfo, track: TraceTrackInfo): string {
  if (section.kind === 'device') return track.name;
  const tid = String(track.line_id);
  if (!track.name || track.name === `line ${tid}`) return `thread ${tid}`;
  return track.name.includes(tid) ? track.name : `${track.name} (tid ${tid})`;
}

export function computeLayout(data: TraceTracks, collapsed: Set<number>): Layout {
  const layout: Layout = { sections: [], tracks: [], counters: [], byTrack: new Map(), sectionOfTrack: new Map(), height: 0 };
  let y = 0;
  const severalHosts = data.hosts.length > 1;
  // Counters first, as a section of their own: memory in use over time, not slices.
  const counters = data.counters ?? [];
  if (counters.length) {
    const isCollapsed = collapsed.has(COUNTER_SECTION_ID);
    layout.sections.push({ section: { id: COUNTER_SECTION_ID, name: 'Counters', host: '', kind: 'other', tracks: [] }, y, collapsed: isCollapsed });
    y += SECTION_H;
    if (!isCollapsed) {
      for (const counter of counters) {
        const label = severalHosts ? `${counter.host} ${counter.name}` : counter.name;
        layout.counters.push({ counter, label, y: y + 2, height: COUNTER_H });
        y += COUNTER_H;
      }
    }
  }
  for (const section of data.sections) {
    const isCollapsed = collapsed.has(section.id);
    layout.sections.push({ section: severalHosts ? { ...section, name: `${section.host} ${section.name}` } : section, y, collapsed: isCollapsed });
    y += SECTION_H;
    for (const track of section.tracks) {
      layout.sectionOfTrack.set(track.id, section);
      if (isCollapsed) continue;
      const height = Math.max(1, track.rows) * ROW_H + TRACK_PAD;
      const entry: TrackLayout = { track, section, label: trackLabel(section, track), y: y + 2, height };
      layout.tracks.push(entry);
      layout.byTrack.set(track.id, entry);
      y += height;
    }
  }
  layout.height = y + 40;
  return layout;
}

// The track and depth at content y, or null.
export function trackAt(layout: Layout, y: number): { track: TrackLayout; depth: number } | null {
  let lo = 0;
  let hi = layout.tracks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = layout.tracks[mid];
    if (y < t.y) hi = mid - 1;
    else if (y >= t.y + t.height) lo = mid + 1;
    else {
      const depth = Math.floor((y - t.y) / ROW_H);
      return depth < Math.max(1, t.track.rows) ? { track: t, depth } : null;
    }
  }
  return null;
}

// The section whose header is at content y, or null.
export function sectionHeaderAt(layout: Layout, y: number): SectionLayout | null {
  for (const s of layout.sections) {
    if (y >= s.y && y < s.y + SECTION_H) return s;
  }
  return null;
}
