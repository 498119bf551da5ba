// Browser test of the trace viewer on a real profile (TensorFlow's multi-GPU demo XSpace
// in a temporary logdir), driven like a user would: zoom in with the wheel until single
// kernels are drawn, click one and read its stats in the details pane, search for an
// event outside the visible window and follow the jump, mark an interval. No console
// errors; a screenshot goes to $STEPSCOPE_SCREENSHOT_DIR/trace_viewer.png (<build>/screenshots;
// `./dev screenshots` copies it to docs/screenshots/).
//
// Run by ctest (tests/browser/CMakeLists.txt), which sets the environment below.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { browserTestEnv, closeDashboard, getJson, loadChromium, openDashboardOnProfile } from './harness.mjs';

const { STEPSCOPE, UI_ROOT, SHARED, SCREENSHOTS } = browserTestEnv();
const TF_GPU_FILE = path.join(SHARED, 'testdata/xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb');
const RUN = 'tf_gpu_demo';
const HOST = '34.83.195.179_6003';
// Layout constants of ui/src/pages/trace/trace_layout.ts.
const LABEL_W = 250;

const chromium = loadChromium(UI_ROOT);

let dashboard;
let baseUrl;
let page;
let consoleErrors;

const api = (pathAndQuery) => getJson(baseUrl, pathAndQuery);

// The timeline's state, through the page's test hook.
const view = () =>
  page.evaluate(() => {
    const root = document.querySelector('[data-page=trace_viewer]');
    const t = root.traceViewer;
    return { start: t.viewStart, end: t.viewEnd, ...t.stats() };
  });

async function waitForTiles() {
  // The fetch is debounced: wait for the request to start and finish.
  await page.waitForTimeout(150);
  await page.waitForFunction(() => {
    const root = document.querySelector('[data-page=trace_viewer]');
    return root && root.traceViewer && root.querySelector('.tv-timeline').dataset.loading === '0';
  });
  await page.waitForTimeout(50);
}

async function timelineBox() {
  return page.locator('.tv-timeline').boundingBox();
}

before(async () => {
  dashboard = await openDashboardOnProfile(chromium, { stepscope: STEPSCOPE, uiRoot: UI_ROOT, prefix: 'stepscope-trace-viewer-', run: RUN, host: HOST, file: TF_GPU_FILE, viewport: { width: 1600, height: 1100 } });
  ({ baseUrl, page, consoleErrors } = dashboard);
});

after(async () => {
  await closeDashboard(dashboard, dashboard?.tmp);
});

test('the trace viewer opens with device sections and host threads', async () => {
  await page.goto(`${baseUrl}#run=${RUN}&tool=trace_viewer&host=${HOST}`);
  await page.waitForSelector('[data-page=trace_viewer][data-ready="1"]', { timeout: 60000 });
  await waitForTiles();
  const v = await view();
  assert.ok(v.tracks > 0, 'tiles were fetched');
  assert.ok(v.summaries > 0, 'zoomed out, sub-pixel events are drawn as summaries');
  assert.match(await page.locator('.tv-summary').innerText(), /events/);
  assert.equal(await page.locator('#tool-select').inputValue(), 'trace_viewer');
});

test('host thread lanes are named with thread name and id', async () => {
  const tracks = await api(`/api/trace/tracks?run=${RUN}&host=${HOST}`);
  const lanes = await page.evaluate(() => document.querySelector('[data-page=trace_viewer]').traceViewer.laneLabels());
  const labelOf = new Map(lanes.filter((l) => l.kind !== 'counter').map((l) => [l.track, l.label]));
  const threads = tracks.sections.filter((s) => s.kind !== 'device').flatMap((s) => s.tracks);
  assert.ok(threads.length > 0);
  for (const t of threads) {
    if (!labelOf.has(t.id)) continue;  // in a collapsed section
    assert.ok(labelOf.get(t.id).includes(String(t.line_id)), `lane ${labelOf.get(t.id)} names thread id ${t.line_id}`);
    if (t.name && !t.name.startsWith('line ')) assert.ok(labelOf.get(t.id).startsWith(t.name), labelOf.get(t.id));
  }
  const streams = tracks.sections.filter((s) => s.kind === 'device').flatMap((s) => s.tracks).filter((t) => labelOf.has(t.id));
  for (const t of streams) assert.equal(labelOf.get(t.id), t.name, 'device lanes keep their names');
});

test('zooming in on a stream shows single kernels; clicking one shows its stats and flows', async () => {
  const tracks = await api(`/api/trace/tracks?run=${RUN}&host=${HOST}`);
  // The busiest compute stream (GPU 4's in this file: 665 kernels in ~20 ms).
  const streams = tracks.sections.filter((s) => s.kind === 'device').flatMap((s) => s.tracks).filter((t) => t.kind === 'stream');
  const stream = streams.reduce((a, b) => (b.events > a.events ? b : a));
  assert.match(stream.name, /Compute/);
  // A kernel past the middle of the stream, found through the API (as a user would by eye).
  const probe = await api(`/api/trace/tiles?run=${RUN}&host=${HOST}&start_ps=${stream.start_ps}&end_ps=${stream.end_ps + 1}&width_px=16000&tracks=${stream.id}`);
  const tile = probe.tracks[0];
  const mid = (stream.start_ps + stream.end_ps) / 2;
  const k = tile.count.findIndex((c, i) => c === 0 && tile.depth[i] === 0 && tile.dur[i] > 5e6 && tile.start[i] > mid);
  assert.ok(k >= 0, 'a kernel of at least 5 µs in the second half of the stream');
  const kernel = { start: tile.start[k], dur: tile.dur[k], event: tile.event[k], name: probe.names[tile.name[k]] };

  await page.evaluate((id) => document.querySelector('[data-page=trace_viewer]').traceViewer.scrollToTrack(id), stream.id);
  await waitForTiles();
  const box = await timelineBox();
  // Wheel-zoom around the kernel until it is at least 40 px wide.
  for (let i = 0; i < 80; i++) {
    const v = await view();
    const pxPerPs = (box.width - LABEL_W - 15) / (v.end - v.start);
    if (kernel.dur * pxPerPs >= 40) break;
    const x = await page.evaluate((t) => document.querySelector('[data-page=trace_viewer]').traceViewer.timeX(t), kernel.start + kernel.dur / 2);
    const y = await page.evaluate((id) => document.querySelector('[data-page=trace_viewer]').traceViewer.rowCenterY(id, 0), stream.id);
    await page.mouse.move(box.x + Math.min(Math.max(x, LABEL_W + 5), box.width - 20), box.y + y);
    await page.mouse.wheel(0, -400);
    await page.waitForTimeout(30);
  }
  await waitForTiles();
  const zoomed = await view();
  assert.ok(zoomed.events > 0, 'single events are drawn');
  assert.ok(zoomed.end - zoomed.start < kernel.dur * 60, `zoomed in (${zoomed.end - zoomed.start} ps for a ${kernel.dur} ps kernel)`);
  // Click the kernel.
  const x = await page.evaluate((t) => document.querySelector('[data-page=trace_viewer]').traceViewer.timeX(t), kernel.start + kernel.dur / 2);
  const y = await page.evaluate((id) => document.querySelector('[data-page=trace_viewer]').traceViewer.rowCenterY(id, 0), stream.id);
  await page.mouse.click(box.x + x, box.y + y);
  await page.waitForSelector('#tv-details[data-kind=event] [data-role=stats]', { timeout: 20000 });
  const name = await page.locator('#tv-details [data-role=name]').innerText();
  assert.equal(name, kernel.name);
  const stats = await page.locator('#tv-details [data-role=stats]').innerText();
  assert.match(stats, /correlation_id/);
  assert.match(stats, /kernel_details/);
  // The kernel's launch is found on a host thread: a flow arrow and a link to it.
  await page.waitForSelector('#tv-details .tv-flow-link', { timeout: 20000 });
  assert.match(await page.locator('#tv-details .tv-flows').innerText(), /correlation/);
  // Timing: M marks the kernel's interval and the axis shows its length.
  await page.keyboard.press('m');
  await page.waitForSelector('#tv-details[data-kind=mark]');
  assert.match(await page.locator('#tv-details').innerText(), /Timing/);
  await page.keyboard.press('Escape');
  // The screenshot: GPU 4's section (other devices collapsed) over ~1.5 ms around the
  // kernel, the kernel selected with its launch arrow and details.
  const gpuSection = tracks.sections.find((sec) => sec.tracks.some((t) => t.id === stream.id));
  await page.evaluate(
    ({ others, first, from, to }) => {
      const t = document.querySelector('[data-page=trace_viewer]').traceViewer;
      for (const id of others) t.toggleSection(id);
      t.setView(from, to);
      t.scrollToTrack(first);
    },
    {
      others: tracks.sections.filter((sec) => sec.kind === 'device' && sec.id !== gpuSection.id).map((sec) => sec.id),
      first: gpuSection.tracks[0].id,
      from: kernel.start - 700e6,
      to: kernel.start + kernel.dur + 700e6,
    },
  );
  await waitForTiles();
  const sx = await page.evaluate((t) => document.querySelector('[data-page=trace_viewer]').traceViewer.timeX(t), kernel.start + kernel.dur / 2);
  const sy = await page.evaluate((id) => document.querySelector('[data-page=trace_viewer]').traceViewer.rowCenterY(id, 0), stream.id);
  await page.mouse.click(box.x + sx, box.y + sy);
  await page.waitForSelector('#tv-details .tv-flow-link', { timeout: 20000 });
  await page.mouse.move(box.x + 40, box.y + 10);
  await waitForTiles();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'trace_viewer.png') });
  // Restore the sections for the next tests.
  await page.evaluate(
    (others) => {
      const t = document.querySelector('[data-page=trace_viewer]').traceViewer;
      for (const id of others) t.toggleSection(id);
    },
    tracks.sections.filter((sec) => sec.kind === 'device' && sec.id !== gpuSection.id).map((sec) => sec.id),
  );
});

test('search finds an event outside the visible window and jumps to it', async () => {
  // Show only the first 1 % of the trace, then search for an event that happens later.
  const tracks = await api(`/api/trace/tracks?run=${RUN}&host=${HOST}`);
  const end = tracks.end_ps;
  await page.evaluate((e) => document.querySelector('[data-page=trace_viewer]').traceViewer.setView(0, e / 100), end);
  await waitForTiles();
  const host = tracks.sections.find((s) => s.kind === 'host');
  const late = host.tracks.reduce((a, b) => (b.start_ps > a.start_ps ? b : a));
  const probe = await api(`/api/trace/tiles?run=${RUN}&host=${HOST}&start_ps=${late.end_ps - 1e6}&end_ps=${late.end_ps + 1}&width_px=100&tracks=${late.id}`);
  const name = probe.names[probe.tracks[0].name.at(-1)];
  const search = await api(`/api/trace/search?run=${RUN}&host=${HOST}&q=${encodeURIComponent(name)}`);
  assert.ok(search.match.start_ps > end / 100, `every "${name}" is after the visible window`);
  await page.fill('#tv-search', name);
  await page.press('#tv-search', 'Enter');
  await page.waitForFunction(() => /of/.test(document.querySelector('#tv-search-status').textContent));
  await page.waitForSelector('#tv-details[data-kind=event] [data-role=name]', { timeout: 20000 });
  const v = await view();
  assert.ok(v.start <= search.match.start_ps && search.match.start_ps <= v.end, 'the view moved to the match');
  assert.ok(v.start > end / 100 - (v.end - v.start), 'the view left the first 1 %');
  assert.equal((await page.locator('#tv-details [data-role=name]').innerText()).trim(), name);
  assert.match(await page.locator('#tv-search-status').innerText(), new RegExp(`of ${search.total.toLocaleString('en-US')}`));
});

test('typing a search outlines every drawn match, not only the current one', async () => {
  await page.evaluate(() => document.querySelector('[data-page=trace_viewer]').traceViewer.reset());
  await waitForTiles();
  // The name drawn most often right now, and how many of its events are on screen.
  const visibleMatches = (query) =>
    page.evaluate((q) => {
      const t = document.querySelector('[data-page=trace_viewer]').traceViewer;
      const s = t.state;
      const counts = new Map();
      for (const lane of s.layout.tracks) {
        if (lane.y + lane.height < s.scrollTop - 18 || lane.y > s.scrollTop + s.height) continue;
        const stored = s.tiles.get(lane.track.id);
        if (!stored) continue;
        const tile = stored.tile;
        for (let i = 0; i < tile.start.length; i++) {
          if (tile.count[i] > 0 || tile.start[i] + tile.dur[i] < s.viewStart || tile.start[i] > s.viewEnd) continue;
          const name = stored.names[tile.name[i]] ?? '';
          if (q && !name.toLowerCase().includes(q.toLowerCase())) continue;
          counts.set(name, (counts.get(name) ?? 0) + 1);
        }
      }
      return [...counts.entries()].sort((a, b) => b[1] - a[1]);
    }, query);
  const [[name, count]] = await visibleMatches('');
  assert.ok(count > 1, `"${name}" is drawn ${count} times`);
  await page.fill('#tv-search', name);
  const expected = (await visibleMatches(name)).reduce((sum, [, n]) => sum + n, 0);
  // Outlined on the next frame.
  const highlighted = () => page.evaluate(() => document.querySelector('[data-page=trace_viewer]').traceViewer.stats().highlighted);
  await page.waitForFunction((n) => document.querySelector('[data-page=trace_viewer]').traceViewer.stats().highlighted === n, expected, { timeout: 5000 }).catch(() => {});
  assert.equal(await highlighted(), expected, 'every drawn event whose name matches is outlined');
  await page.fill('#tv-search', '');
  await page.waitForFunction(() => document.querySelector('[data-page=trace_viewer]').traceViewer.stats().highlighted === 0, null, { timeout: 5000 }).catch(() => {});
  assert.equal(await highlighted(), 0);
});

test('collapsing a section hides its tracks and the keyboard zooms and pans', async () => {
  await page.evaluate(() => document.querySelector('[data-page=trace_viewer]').traceViewer.reset());
  await waitForTiles();
  const before = await view();
  await page.locator('.tv-scroll').focus();
  await page.keyboard.press('w');
  await page.keyboard.press('w');
  const zoomed = await view();
  assert.ok(zoomed.end - zoomed.start < (before.end - before.start) * 0.7, 'W zooms in');
  await page.keyboard.press('d');
  const panned = await view();
  assert.ok(panned.start > zoomed.start, 'D pans right');
});

test('an area selection is summarised on the server over every event, not only the drawn ones', async () => {
  await page.evaluate(() => document.querySelector('[data-page=trace_viewer]').traceViewer.reset());
  await waitForTiles();
  const drawn = await view();
  assert.ok(drawn.summaries > 0, 'zoomed out: many events are only in hatched summaries');
  const box = await timelineBox();
  // Shift+drag across the whole visible width and height of the timeline.
  const summaryReply = page.waitForResponse((r) => r.url().includes('/api/trace/summary'));
  await page.keyboard.down('Shift');
  await page.mouse.move(box.x + LABEL_W + 2, box.y + 40);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 20, box.y + box.height - 20, { steps: 8 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  const reply = await summaryReply;
  await page.waitForSelector('#tv-details[data-kind=area] [data-role=area-count]', { timeout: 20000 });
  // The pane shows what the server counted for that range and those tracks...
  const url = new URL(reply.url());
  const summary = await api(`/api/trace/summary?${url.searchParams.toString()}`);
  const shown = Number((await page.locator('#tv-details [data-role=area-count]').innerText()).replace(/[^0-9]/g, ''));
  assert.equal(shown, summary.events);
  // ...which covers every event of the range, far more than are drawn one by one.
  assert.ok(summary.events > drawn.events, `${summary.events} events counted, ${drawn.events} drawn individually`);
  const tiles = await api(`/api/trace/tiles?run=${RUN}&host=${HOST}&start_ps=${url.searchParams.get('start_ps')}&end_ps=${url.searchParams.get('end_ps')}&width_px=16000&tracks=${url.searchParams.get('tracks')}`);
  assert.ok(summary.events >= tiles.events, 'at least every event a fine tile of the range represents');
  const rows = await page.locator('#tv-details [data-role=area-summary] tbody tr').count();
  assert.equal(rows, Math.min(50, summary.names.length));
  await page.keyboard.press('Escape');
});

test('no console errors', () => {
  assert.deepEqual(consoleErrors, []);
});
