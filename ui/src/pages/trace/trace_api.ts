// The trace viewer's requests (/api/trace/*, docs/trace_viewer.md). Times are picoseconds
// since the trace's first event, as plain numbers (exact up to 2.5 hours of trace).

export interface TraceTrackInfo {
  id: number;
  name: string;
  kind: string;
  line_id: number;
  rows: number;
  events: number;
  start_ps: number;
  end_ps: number;
}

// A counter track (memory in use, a `_counters_` series): values over time.
export interface CounterInfo {
  id: number;
  name: string;
  host: string;
  unit: string; // "bytes" or ""
  samples: number;
  min: number;
  max: number;
}

// /api/trace/counters: each counter's points for a view (t ascending; a value holds until
// the next point).
export interface CounterPointsReply {
  counters: { id: number; t: number[]; v: number[] }[];
}

export interface TraceSectionInfo {
  id: number;
  name: string;
  host: string;
  kind: 'device' | 'host' | 'other';
  tracks: TraceTrackInfo[];
}

export interface TraceTracks {
  end_ps: number;
  events: number;
  hosts: string[];
  sections: TraceSectionInfo[];
  counters?: CounterInfo[];
}

// One track's primitives, columnar. count[i] === 0: an event drawn as itself; N > 0: a
// summary of N events too short to draw at this resolution.
export interface TrackTile {
  id: number;
  depth: number[];
  start: number[];
  dur: number[];
  count: number[];
  event: number[];
  name: number[];
}

export interface Tiles {
  start_ps: number;
  end_ps: number;
  width_px: number;
  resolution_ps: number;
  coarsened: boolean;
  primitives: number;
  events: number;
  names: string[];
  tracks: TrackTile[];
}

export interface TraceStat {
  name: string;
  value: string | number;
  metadata: boolean;
}

export interface EventDetails {
  track: number;
  event: number;
  name: string;
  long_name: string;
  start_ps: number;
  duration_ps: number;
  depth: number;
  track_name: string;
  section: string;
  host: string;
  stats: TraceStat[];
  correlation_id: string | null;
  flow_ids: string[];
}

export interface FlowEnd {
  track: number;
  event: number;
  start_ps: number;
  end_ps: number;
  depth: number;
  name: string;
}

export interface Flow {
  kind: 'correlation' | 'flow';
  id: string;
  from: FlowEnd;
  to: FlowEnd;
}

export interface SearchReply {
  query: string;
  total: number;
  navigable: number;
  truncated: boolean;
  index: number;
  match: FlowEnd | null;
}

// /api/trace/summary: every event of a range on some tracks, by name (server side, over
// the full index: the same at every zoom).
export interface TraceSummary {
  start_ps: number;
  end_ps: number;
  events: number;
  distinct_names: number;
  truncated: boolean;
  names: { name: string; count: number; total_ps: number; self_ps: number }[];
}

export class TraceApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface TraceSource {
  run: string;
  host: string;
}

function query(source: TraceSource, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  search.set('run', source.run);
  if (source.host) search.set('host', source.host);
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  return search.toString();
}

async function getJson<T>(text: Promise<Response>): Promise<T> {
  let response: Response;
  try {
    response = await text;
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new TraceApiError('cannot reach the stepscope server (is `stepscope serve` still running?)', 0);
  }
  const body = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new TraceApiError(`the server sent something that is not JSON (HTTP ${response.status})`, response.status);
  }
  if (!response.ok) {
    const message = parsed && typeof parsed === 'object' && 'error' in parsed ? String((parsed as { error: unknown }).error) : body;
    throw new TraceApiError(message, response.status);
  }
  return parsed as T;
}

export const traceApi = {
  tracks: (s: TraceSource) => getJson<TraceTracks>(fetch(`/api/trace/tracks?${query(s, {})}`)),
  tiles: (s: TraceSource, startPs: number, endPs: number, widthPx: number, tracks: number[], signal?: AbortSignal) =>
    getJson<Tiles>(
      fetch(`/api/trace/tiles?${query(s, { start_ps: Math.floor(startPs), end_ps: Math.ceil(endPs), width_px: Math.max(1, Math.round(widthPx)), tracks: tracks.join(',') })}`, { signal }),
    ),
  event: (s: TraceSource, track: number, event: number) => getJson<EventDetails>(fetch(`/api/trace/event?${query(s, { track, event })}`)),
  flows: (s: TraceSource, track: number, event: number) => getJson<{ flows: Flow[] }>(fetch(`/api/trace/flows?${query(s, { track, event })}`)),
  counters: (s: TraceSource, startPs: number, endPs: number, widthPx: number, signal?: AbortSignal) =>
    getJson<CounterPointsReply>(
      fetch(`/api/trace/counters?${query(s, { start_ps: Math.floor(startPs), end_ps: Math.ceil(endPs), width_px: Math.max(1, Math.min(16384, Math.round(widthPx))) })}`, { signal }),
    ),
  summary: (s: TraceSource, startPs: number, endPs: number, tracks: number[]) =>
    getJson<TraceSummary>(fetch(`/api/trace/summary?${query(s, { start_ps: Math.floor(startPs), end_ps: Math.ceil(endPs), tracks: tracks.join(',') })}`)),
  search: (s: TraceSource, q: string, cursor: { fromPs: number; track?: number; event?: number } | null, direction: 'next' | 'prev') =>
    getJson<SearchReply>(
      fetch(`/api/trace/search?${query(s, {
          q,
          from_ps: cursor ? Math.floor(cursor.fromPs) : undefined,
          track: cursor?.track,
          event: cursor?.event,
          direction: cursor ? direction : undefined,
        })}`,
      ),
    ),
};

export function exportUrl(s: TraceSource, format: 'chrome' | 'perfetto'): string {
  return `/api/trace/export?${query(s, { format, gzip: 1 })}`;
}
