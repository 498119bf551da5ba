// Trace viewer: the timeline of every event of a host's profile, as TensorFlow
// Profiler's trace viewer lays it out (one section per device with Steps, framework ops,
// XLA ops and streams; a Host Threads section with a track per thread), without its
// event cap: the server sends level-of-detail tiles for the visible window at the
// canvas's pixel width, so 100 M-event profiles stay interactive (docs/trace_viewer.md).
import './trace/trace_viewer.css';
import { emptyState, errorState, loading } from '../components/cards';
import { el } from '../format';
import { type PageContext } from './page';
import { Timeline, type Tool } from './trace/timeline';
import { DetailsPane } from './trace/trace_details';
import { exportUrl, traceApi, type FlowEnd, type TraceSource, type TraceTracks } from './trace/trace_api';
import { formatPs } from './trace/trace_format';

export function renderTraceViewer(ctx: PageContext): HTMLElement {
  const source: TraceSource = { run: ctx.selection.run, host: ctx.selection.host };
  const root = el('div', { class: 'page tv-page', 'data-page': 'trace_viewer' });
  const body = el('div', { class: 'tv-body' }, loading('the trace index (the first look at a large profile takes a while)'));
  root.append(body);
  void traceApi
    .tracks(source)
    .then((tracks) => {
      if (!root.isConnected && !document.body.contains(root)) return;
      if (!tracks.sections.length) {
        body.replaceChildren(emptyState('This profile has no events to show', 'No plane of this host has timed events (only metadata or aggregated stats).'));
        return;
      }
      build(root, body, source, tracks);
    })
    .catch((error: Error) => body.replaceChildren(errorState('Cannot open the trace', error.message)));
  return root;
}

// The viewer takes the window's height below its top, less the page's padding under it, so
// the page itself never scrolls (one scrollbar: the timeline's). Kept on window resizes
// while the frame is shown.
function fitToWindow(frame: HTMLElement): void {
  const fit = () => {
    if (!frame.isConnected) {
      window.removeEventListener('resize', fit);
      return;
    }
    const rect = frame.getBoundingClientRect();
    const top = rect.top + window.scrollY;
    const below = Math.max(0, document.documentElement.scrollHeight - (rect.bottom + window.scrollY));
    frame.style.height = `${Math.max(MIN_FRAME_HEIGHT, Math.floor(window.innerHeight - top - below))}px`;
  };
  window.addEventListener('resize', fit);
  requestAnimationFrame(fit);
}

// Below this the timeline is too short to use: the page scrolls instead.
const MIN_FRAME_HEIGHT = 480;

function build(root: HTMLElement, body: HTMLElement, source: TraceSource, tracks: TraceTracks): void {
  let timeline: Timeline | null = null;
  const details = new DetailsPane(source, tracks, () => timeline);
  const status = el('div', { class: 'tv-status', id: 'tv-status' });
  timeline = new Timeline(source, tracks, {
    onSelect: (selection) => void details.show(selection),
    onError: (message) => {
      status.textContent = message;
      status.classList.add('tv-error');
    },
  });

  // Search: whole trace, next / previous in time order.
  const search = el('input', { class: 'tv-search', id: 'tv-search', type: 'search', placeholder: 'Search events by name', 'aria-label': 'Search events', spellcheck: 'false' });
  const searchStatus = el('span', { class: 'tv-search-status', id: 'tv-search-status' });
  const prev = el('button', { class: 'tv-icon', title: 'Previous match (Shift+Enter)', 'aria-label': 'Previous match', id: 'tv-search-prev' }, '▲');
  const next = el('button', { class: 'tv-icon', title: 'Next match (Enter)', 'aria-label': 'Next match', id: 'tv-search-next' }, '▼');
  let current: { query: string; match: FlowEnd | null } = { query: '', match: null };
  let searching = 0;
  const step = async (direction: 'next' | 'prev') => {
    const q = search.value.trim();
    if (!q || !timeline) return;
    const generation = ++searching;
    const cursor = current.query === q && current.match
      ? { fromPs: current.match.start_ps, track: current.match.track, event: current.match.event }
      : { fromPs: direction === 'next' ? timeline.viewStart - 1 : timeline.viewEnd };
    searchStatus.textContent = 'searching…';
    try {
      const reply = await traceApi.search(source, q, cursor, direction);
      if (generation !== searching) return;
      current = { query: q, match: reply.match };
      if (!reply.match) {
        searchStatus.textContent = 'no matches';
        return;
      }
      searchStatus.textContent = `${(reply.index + 1).toLocaleString('en-US')} of ${reply.total.toLocaleString('en-US')}${reply.truncated ? ` (first ${reply.navigable.toLocaleString('en-US')} in order)` : ''}`;
      timeline.reveal(reply.match.track, reply.match.event, reply.match.start_ps, reply.match.end_ps, reply.match.depth);
    } catch (error) {
      if (generation === searching) searchStatus.textContent = (error as Error).message;
    }
  };
  // Every match in view is outlined as the query is typed, not only the current one.
  search.addEventListener('input', () => timeline?.setHighlight(search.value));
  search.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void step(e.shiftKey ? 'prev' : 'next');
    } else if (e.key === 'Escape') {
      search.blur();
    }
  });
  search.addEventListener('input', () => {
    current = { query: '', match: null };
    searchStatus.textContent = '';
  });
  prev.addEventListener('click', () => void step('prev'));
  next.addEventListener('click', () => void step('next'));

  // Mouse tools (chrome://tracing's modes); Shift+drag selects and the axis marks anyway.
  const tools: [Tool, string, string][] = [
    ['pan', '⇆ Pan', 'Drag pans the timeline'],
    ['select', '⬚ Select', 'Drag selects an area (also Shift+drag)'],
    ['timing', '↔ Timing', 'Drag marks an interval and shows its length (also drag on the time axis)'],
  ];
  const toolButtons = tools.map(([tool, label, title]) => {
    const b = el('button', { class: `tv-tool${tool === 'pan' ? ' active' : ''}`, title, 'data-tool': tool, 'aria-pressed': String(tool === 'pan') }, label);
    b.addEventListener('click', () => {
      if (!timeline) return;
      timeline.tool = tool;
      for (const other of toolButtons) {
        const active = other === b;
        other.classList.toggle('active', active);
        other.setAttribute('aria-pressed', String(active));
      }
    });
    return b;
  });
  const zoomIn = el('button', { class: 'tv-icon', title: 'Zoom in (W)', 'aria-label': 'Zoom in', id: 'tv-zoom-in' }, '+');
  const zoomOut = el('button', { class: 'tv-icon', title: 'Zoom out (S)', 'aria-label': 'Zoom out', id: 'tv-zoom-out' }, '−');
  const fit = el('button', { class: 'tv-icon', title: 'Whole trace (0)', 'aria-label': 'Whole trace', id: 'tv-reset' }, '⤢');
  zoomIn.addEventListener('click', () => timeline?.zoom(2));
  zoomOut.addEventListener('click', () => timeline?.zoom(0.5));
  fit.addEventListener('click', () => timeline?.reset());

  const exports = el('div', { class: 'tv-exports' },
    el('span', { class: 'tv-muted' }, 'Export'),
    el('a', { class: 'button', href: exportUrl(source, 'chrome'), download: '', title: 'Chrome trace-event JSON for chrome://tracing (.json.gz)' }, 'Chrome'),
    el('a', { class: 'button', href: exportUrl(source, 'perfetto'), download: '', title: 'Perfetto-flavoured JSON for ui.perfetto.dev (.json.gz)' }, 'Perfetto'),
  );
  const summary = el('div', { class: 'tv-summary', title: `${tracks.sections.length} sections` },
    `${tracks.events.toLocaleString('en-US')} events · ${formatPs(tracks.end_ps)}`);

  const toolbar = el('div', { class: 'tv-toolbar' },
    el('div', { class: 'tv-search-box' }, search, prev, next, searchStatus),
    el('div', { class: 'tv-tools' }, ...toolButtons),
    el('div', { class: 'tv-tools' }, zoomIn, zoomOut, fit),
    el('div', { class: 'tv-spacer-flex' }),
    summary,
    exports,
  );
  const frame = el('div', { class: 'tv-frame' }, toolbar, timeline.root, details.root, status);
  body.replaceChildren(frame);
  fitToWindow(frame);
  root.dataset.ready = '1';
  // Test hook: the timeline's state without reaching into the canvas.
  (root as HTMLElement & { traceViewer?: Timeline }).traceViewer = timeline;
}
