// Browser test of the "Memory profile" page on TensorFlow's multi-GPU demo XSpace (1,859
// MemoryAllocation and 634 MemoryDeallocation events from four BFC allocators), driven as
// a user would: pick a memory id, read the peak, filter and sort the breakdown at the peak,
// restrict to one step, drag a time range across the timeline (the summary and breakdown
// then follow the range). Every number shown is checked against /api/data. No console
// errors; a screenshot goes to $STEPSCOPE_SCREENSHOT_DIR/memory_profile.png.
//
// Run by ctest (tests/browser/CMakeLists.txt), which sets the environment below.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { browserTestEnv, closeDashboard, getJson, importTraces, loadChromium, openDashboard, openDashboardOnProfile } from './harness.mjs';

const { STEPSCOPE, UI_ROOT, SHARED, SCREENSHOTS } = browserTestEnv();
const TF_GPU_FILE = path.join(SHARED, 'testdata/xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb');
const RUN = 'tf_gpu_demo';
const HOST = '34.83.195.179_6003';

const chromium = loadChromium(UI_ROOT);

let dashboard;
let baseUrl;
let page;
let consoleErrors;

const api = (pathAndQuery) => getJson(baseUrl, pathAndQuery);

// formatBytes of ui/src/format.ts.
function formatBytes(bytes) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

const tile = (label) => page.locator('[data-card=memory-summary] .tile', { hasText: label }).locator('.tile-value').innerText();
const tableRows = () => page.locator('[data-table=memory_breakdown] tbody tr:not(.empty-row)').count();

async function waitForChart() {
  await page.waitForSelector('[data-chart=memory_timeline][data-ready=true]', { timeout: 60000 });
}

before(async () => {
  dashboard = await openDashboardOnProfile(chromium, { stepscope: STEPSCOPE, uiRoot: UI_ROOT, prefix: 'stepscope-memory-', run: RUN, host: HOST, file: TF_GPU_FILE, viewport: { width: 1500, height: 1300 } });
  ({ baseUrl, page, consoleErrors } = dashboard);
});

after(async () => {
  await closeDashboard(dashboard, dashboard?.tmp);
});

test('the memory profile page shows each memory id with the numbers of the API', async () => {
  const data = await api(`/api/data?run=${RUN}&tool=memory_profile&host=${HOST}`);
  assert.deepEqual(data.memoryIds, ['GPU_1_bfc', 'GPU_4_bfc', 'GPU_6_bfc', 'gpu_host_bfc']);
  await page.goto(`${baseUrl}#run=${RUN}&tool=memory_profile&host=${HOST}`);
  await page.waitForSelector('[data-page=memory_profile]', { timeout: 60000 });
  await waitForChart();
  assert.equal(await page.locator('#tool-select').inputValue(), 'memory_profile');
  const options = await page.locator('#memory-id-select option').allInnerTexts();
  assert.deepEqual(options, data.memoryIds);

  await page.selectOption('#memory-id-select', 'GPU_4_bfc');
  await page.waitForFunction(() => location.hash.includes('memory_id=GPU_4_bfc'));
  await waitForChart();
  const gpu4 = data.memoryProfilePerAllocator.GPU_4_bfc;
  const peak = gpu4.profileSummary.peakStats;
  assert.equal(await tile('Peak memory'), formatBytes(peak.peakBytesInUse));
  assert.equal(await tile('Heap at peak'), formatBytes(peak.heapAllocatedBytes));
  assert.equal(await tile('Fragmentation at peak'), `${(100 * peak.fragmentation).toFixed(1)}%`);
  assert.equal(await tile('Allocations'), gpu4.profileSummary.numAllocations.toLocaleString('en-US'));

  // The breakdown: this id's rows, largest total first (25 shown, then "show all").
  const rows = data.breakdown.filter((r) => r.memoryId === 'GPU_4_bfc');
  assert.ok(rows.length > 25, `${rows.length} breakdown rows`);
  assert.equal(await tableRows(), 25);
  const largest = rows.reduce((a, b) => (b.totalBytes > a.totalBytes ? b : a));
  assert.match(await page.locator('[data-table=memory_breakdown] tbody tr').first().innerText(), new RegExp(largest.tfOpName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));

  await page.screenshot({ path: path.join(SCREENSHOTS, 'memory_profile.png'), fullPage: true });

  // Filter by op name.
  await page.fill('[data-table=memory_breakdown] .table-filter', 'GatherV2');
  const matching = rows.filter((r) => /gatherv2/i.test(`${r.tfOpName} ${r.regionType} ${r.dataType} ${r.tensorShape}`)).length;
  assert.ok(matching > 0);
  assert.equal(await tableRows(), Math.min(matching, 25));
  await page.fill('[data-table=memory_breakdown] .table-filter', '');

  // Sort ascending by size: the smallest allocation first.
  await page.click('[data-table=memory_breakdown] th[data-col=allocationBytes]');
  await page.click('[data-table=memory_breakdown] th[data-col=allocationBytes]');
  const smallest = Math.min(...rows.map((r) => r.allocationBytes));
  assert.match(await page.locator('[data-table=memory_breakdown] tbody tr').first().innerText(), new RegExp(formatBytes(smallest).replace('.', '\\.')));

  // The CSV link carries the same table.
  const href = await page.locator('[data-card=memory-breakdown] a[data-csv=breakdown]').getAttribute('href');
  const csv = await (await fetch(new URL(href, baseUrl))).text();
  assert.match(csv, /^memoryId,rank,tfOpName,allocationBytes,/);
  assert.equal(csv.trim().split('\n').length - 1, data.breakdown.length);

});

test('the sidebar step selector shows one step\'s memory', async () => {
  // Steps are chosen by number (the overview's step graph); the step's model holds the
  // memory events of that step's group, which memory_profile reports as its step filter.
  const steps = (await api(`/api/data?run=${RUN}&tool=overview_page&host=${HOST}`)).step_time_graph;
  assert.ok(steps.length > 0, 'the TF GPU demo has steps');
  const step = String(steps[0].step_number);
  const filtered = await api(`/api/data?run=${RUN}&tool=memory_profile&host=${HOST}&step=${step}`);
  assert.equal(typeof filtered.stepFilter, 'number');
  await page.selectOption('#step-select', step);
  await page.waitForFunction((s) => location.hash.includes(`step=${s}`), step);
  await page.waitForSelector(`[data-card=memory-summary] .card-subtitle:has-text("Step ${step} only")`);
  const current = await page.$eval('#memory-id-select', (n) => n.value);
  const allocator = filtered.memoryProfilePerAllocator[current];
  assert.ok(allocator, `the step's profile has memory id ${current}`);
  if (allocator.sampledTimelineSnapshots.length > 0) {
    await waitForChart();
    assert.equal(await tile('Peak memory'), formatBytes(allocator.profileSummary.peakStats.peakBytesInUse));
  }
  assert.deepEqual(consoleErrors, []);
});

test('dragging a time range across the timeline shows the peak and breakdown of that range', async () => {
  const id = 'GPU_4_bfc';
  const whole = (await api(`/api/data?run=${RUN}&tool=memory_profile&host=${HOST}`)).memoryProfilePerAllocator[id];
  await page.goto(`${baseUrl}#run=${RUN}&tool=memory_profile&host=${HOST}&memory_id=${id}`);
  await page.waitForSelector('[data-page=memory_profile]', { timeout: 60000 });
  await waitForChart();
  assert.equal(await tile('Peak memory'), formatBytes(whole.profileSummary.peakStats.peakBytesInUse));

  // Drag across a stretch of the plot with events but away from the whole profile's peak:
  // around the point farthest from the peak, inside the plot (the x axis spans the first
  // to the last point; the grid has 64 px margins left and right).
  const times = whole.sampledTimelineSnapshots.map((s) => s.timeOffsetPs);
  const first = Math.min(...times);
  const last = Math.max(...times);
  const fraction = (ps) => (ps - first) / (last - first);
  const peakAt = fraction(whole.profileSummary.peakStatsTimePs);
  const candidates = times.map(fraction).filter((f) => f >= 0.05 && f <= 0.95 && Math.abs(f - peakAt) > 0.03);
  assert.ok(candidates.length > 0, 'GPU_4_bfc has events away from its peak');
  const target = candidates.reduce((a, b) => (Math.abs(b - peakAt) > Math.abs(a - peakAt) ? b : a));
  const half = Math.min(0.04, Math.abs(target - peakAt) / 2);
  const [from, to] = [target - half, target + half];
  const box = await page.locator('[data-chart=memory_timeline]').boundingBox();
  const x = (f) => box.x + 64 + f * (box.width - 128);
  const y = box.y + box.height / 2;
  await page.mouse.move(x(from), y);
  await page.mouse.down();
  await page.mouse.move(x(to), y, { steps: 12 });
  await page.mouse.up();
  await page.waitForFunction(() => /range=-?\d+(,|%2C)-?\d+/.test(location.hash), null, { timeout: 30000 });
  const [startPs, endPs] = decodeURIComponent(new URL(page.url()).hash.match(/range=([^&]+)/)[1]).split(',').map(Number);
  assert.ok(startPs < endPs);
  const expectedStart = first + from * (last - first);
  assert.ok(Math.abs(startPs - expectedStart) < 0.02 * (last - first), `range starts at ${startPs}, dragged from ${expectedStart}`);

  // The page now shows the server's result for that range: a peak inside it, not the whole
  // profile's, and the breakdown live at that peak.
  const ranged = await api(`/api/data?run=${RUN}&tool=memory_profile&host=${HOST}&start_ps=${startPs}&end_ps=${endPs}`);
  assert.deepEqual(ranged.timeRangePs, { start: startPs, end: endPs });
  const inRange = ranged.memoryProfilePerAllocator[id];
  const peakTime = inRange.profileSummary.peakStatsTimePs;
  assert.ok(peakTime >= startPs && peakTime <= endPs, `peak at ${peakTime} in [${startPs}, ${endPs}]`);
  assert.notEqual(peakTime, whole.profileSummary.peakStatsTimePs);
  await page.waitForSelector('[data-card=memory-controls] [data-range]');
  await waitForChart();
  assert.equal(await tile('Peak memory'), formatBytes(inRange.profileSummary.peakStats.peakBytesInUse));
  assert.equal(await tile('Heap at peak'), formatBytes(inRange.profileSummary.peakStats.heapAllocatedBytes));
  const rows = ranged.breakdown.filter((r) => r.memoryId === id);
  const wholeRows = (await api(`/api/data?run=${RUN}&tool=memory_profile&host=${HOST}`)).breakdown.filter((r) => r.memoryId === id);
  assert.notDeepEqual(rows, wholeRows, 'the breakdown at the range\'s peak differs from the whole profile\'s');
  assert.equal(await tableRows(), Math.min(rows.length, 25));
  if (rows.length > 0) {
    const largest = rows.reduce((a, b) => (b.totalBytes > a.totalBytes ? b : a));
    assert.match(await page.locator('[data-table=memory_breakdown] tbody tr').first().innerText(), new RegExp(formatBytes(largest.totalBytes).replace('.', '\\.')));
  }
  // The CSV link carries the range too.
  const href = await page.locator('[data-card=memory-breakdown] a[data-csv=breakdown]').getAttribute('href');
  const csv = await (await fetch(new URL(href, baseUrl))).text();
  assert.equal(csv.trim().split('\n').length - 1, ranged.breakdown.length);

  // "Whole profile" drops the range.
  await page.click('[data-action=clear-range]');
  await page.waitForFunction(() => !location.hash.includes('range='));
  await page.waitForSelector('[data-card=memory-controls] [data-range]', { state: 'detached' });
  await waitForChart();
  assert.equal(await tile('Peak memory'), formatBytes(whole.profileSummary.peakStats.peakBytesInUse));
  assert.deepEqual(consoleErrors, []);
});

// PyTorch 1.9's [memory] events carry sizes but no addresses or totals: the page draws the
// running sum (its peak, not "0 B") and says why there is no breakdown, never an empty
// table that looks like a measurement.
test('a PyTorch 1.9 trace without addresses shows the running sum and why there is no breakdown', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stepscope-memory-19-'));
  let other;
  try {
    const memory = (ts, bytes) => ({ ph: 'i', s: 't', name: '[memory]', pid: 1, tid: 1, ts, args: { 'Device Type': 1, 'Device Id': 0, Bytes: bytes } });
    const trace = {
      traceEvents: [
        { ph: 'X', cat: 'Operator', name: 'ProfilerStep#1', pid: 1, tid: 1, ts: 100, dur: 1000, args: {} },
        { ph: 'X', cat: 'Operator', name: 'aten::empty', pid: 1, tid: 1, ts: 105, dur: 60, args: {} },
        memory(110, 4096), memory(120, 8192), memory(130, -4096), memory(140, 1024), memory(150, -8192),
      ],
    };
    const file = path.join(tmp, 'pt19.json');
    fs.writeFileSync(file, JSON.stringify(trace));
    const logdir = path.join(tmp, 'logdir');
    importTraces(STEPSCOPE, logdir, 'pt19', [file]);
    other = await openDashboard(chromium, STEPSCOPE, { logdir, uiRoot: UI_ROOT, viewport: { width: 1500, height: 1300 } });
    const data = await getJson(other.baseUrl, '/api/data?run=pt19&tool=memory_profile');
    const cuda = data.memoryProfilePerAllocator['cuda:0'];
    assert.equal(cuda.heapFromSizes, true);
    assert.equal(cuda.profileSummary.peakStats.heapAllocatedBytes, 12288);
    await other.page.goto(`${other.baseUrl}#run=pt19&tool=memory_profile`);
    await other.page.waitForSelector('[data-page=memory_profile]', { timeout: 60000 });
    await other.page.waitForSelector('[data-chart=memory_timeline][data-ready=true]', { timeout: 60000 });
    const peakTile = other.page.locator('[data-card=memory-summary] .tile', { hasText: 'Peak memory' }).locator('.tile-value');
    assert.equal(await peakTile.innerText(), formatBytes(12288));
    // What the file does not hold is absent, with the reason on hover, never a 0.
    for (const label of ['Free at peak', 'Fragmentation at peak', 'Never freed']) {
      const value = other.page.locator('[data-card=memory-summary] .tile', { hasText: label }).locator('.tile-value');
      assert.equal(await value.innerText(), '–', label);
      assert.match(await value.getAttribute('title'), /not (recorded|known)/, label);
    }
    const breakdown = await other.page.locator('[data-card=memory-breakdown]').innerText();
    assert.match(breakdown, /no addresses/);
    assert.equal(await other.page.locator('[data-table=memory_breakdown]').count(), 0);
    assert.deepEqual(other.consoleErrors, []);
  } finally {
    await closeDashboard(other);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
