// Browser tests of the readable charts and the step selector (issue 12, item 3): pie
// legends that list every slice with its share, kernel labels that can be told apart with
// the full name on hover, the Tensor Core and per-op pies of kernel stats, and the step
// selector - a click on the overview's step-time graph shows that step, and the pages
// then show the numbers the API gives for that step alone.
//
// Profiles: TensorFlow's GPU demo profile (Eigen kernels) and a PyTorch trace of five
// steps (shared/testdata/traces, imported as a user would) in a temporary logdir; a real
// `stepscope serve` on a free port; Debian's Chromium through playwright-core at
// 1440x900. Screenshots go to $STEPSCOPE_SCREENSHOT_DIR (<build>/screenshots).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { browserTestEnv, closeDashboard, getJson, importTraces, loadChromium, logdirWithProfile, openDashboard } from './harness.mjs';

const { STEPSCOPE, UI_ROOT, SHARED, SCREENSHOTS } = browserTestEnv();
const TF_GPU_FILE = path.join(SHARED, 'testdata/xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb');
const RUN = 'tf_gpu_demo';
const PT_TRACE = path.join(SHARED, 'testdata/traces/hta_ns_resolution_rank-0.pt.trace.json.gz');
const RUN_PT = 'pytorch_rank0';
// A PyTorch trace with the caching allocator's [memory] events: memory counter tracks.
const MEMORY_TRACE = path.join(SHARED, 'testdata/traces/tracelens_h100_bert_small.json.gz');
const RUN_MEMORY = 'pytorch_bert_memory';

const chromium = loadChromium(UI_ROOT);

let tmp;
let dashboard;
let baseUrl;
let page;
let consoleErrors;
let externalRequests;

const api = (pathAndQuery) => getJson(baseUrl, pathAndQuery);

// ui/src/format.ts formatMs, to compare what a page shows with the API's number.
function formatMs(ms) {
  const abs = Math.abs(ms);
  if (abs >= 1000) return `${(ms / 1000).toFixed(abs >= 10000 ? 1 : 2)} s`;
  if (abs >= 1) return `${ms.toFixed(abs >= 100 ? 1 : 2)} ms`;
  if (abs >= 0.001) return `${(ms * 1000).toFixed(abs >= 0.1 ? 0 : 1)} µs`;
  if (ms === 0) return '0 ms';
  return `${(ms * 1e6).toFixed(0)} ns`;
}

async function waitForCharts() {
  await page.waitForFunction(() => [...document.querySelectorAll('.chart')].every((c) => c.dataset.ready === 'true'), null, { timeout: 30000 });
}

async function openPage(tool, extra = '', run = RUN) {
  await page.goto(`${baseUrl}#run=${run}&tool=${tool}${extra}`);
  await page.waitForSelector(`#page [data-tool="${tool}"]`, { timeout: 120000 });
  await waitForCharts();
}

async function screenshot(name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

// Each legend row of pie `name`: label, full name (title), value and percent texts.
function legendRows(name) {
  return page.$$eval(`[data-legend="${name}"] li`, (rows) =>
    rows.map((li) => ({
      label: li.querySelector('.pie-legend-label').textContent,
      title: li.getAttribute('title'),
      value: li.querySelector('.pie-legend-value').textContent,
      percent: Number(li.querySelector('.pie-legend-percent').textContent.replace(' %', '')),
      other: li.classList.contains('other'),
    })),
  );
}

before(async () => {
  let logdir;
  ({ tmp, logdir } = logdirWithProfile('stepscope-charts-', { run: RUN, host: '34.83.195.179_6003', file: TF_GPU_FILE }));
  importTraces(STEPSCOPE, logdir, RUN_PT, [PT_TRACE]);
  importTraces(STEPSCOPE, logdir, RUN_MEMORY, [MEMORY_TRACE]);
  dashboard = await openDashboard(chromium, STEPSCOPE, { logdir, uiRoot: UI_ROOT, viewport: { width: 1440, height: 900 } });
  ({ baseUrl, page, consoleErrors, externalRequests } = dashboard);
});

after(async () => {
  await closeDashboard(dashboard, tmp);
});

test('kernel stats: the kernel pie legend lists every slice with its share, largest first, labels told apart', async () => {
  const data = await api(`/api/data?run=${RUN}&tool=kernel_stats`);
  await openPage('kernel_stats');
  const rows = await legendRows('pie_top_kernels');
  const kernelNames = new Set(data.kernels.map((k) => k.kernel_name));
  // Kernels of the groups past the listed 1000 are one more slice.
  const sliceCount = kernelNames.size + (data.truncated ? 1 : 0);
  assert.equal(rows.length, Math.min(sliceCount, 12), 'one legend row per slice, none paged away');
  const sum = rows.reduce((s, r) => s + r.percent, 0);
  assert.ok(Math.abs(sum - 100) < 0.1 * rows.length, `legend shares add up to 100 %: ${sum}`);
  // Largest first: the biggest kernel by total time (the API's) is the first row.
  const byName = new Map();
  for (const k of data.kernels) byName.set(k.kernel_name, (byName.get(k.kernel_name) ?? 0) + k.total_duration_us);
  const largest = [...byName.entries()].sort((a, b) => b[1] - a[1])[0][0];
  assert.equal(rows[0].title, largest, 'the largest slice is the legend\'s first row, full name on hover');
  const named = rows.filter((r) => !r.other && kernelNames.has(r.title));
  assert.equal(named.length, Math.min(kernelNames.size, rows.length - (data.truncated ? 1 : 0)));
  assert.equal(new Set(named.map((r) => r.label)).size, named.length, `distinct kernels, distinct labels: ${named.map((r) => r.label).join(' | ')}`);
  for (const r of named) {
    assert.ok(!r.label.includes('::') && !r.label.startsWith('void '), `label without namespaces or return type: ${r.label}`);
  }
  if (sliceCount > 12) {
    const other = rows[rows.length - 1];
    assert.ok(other.other, 'the last row is the "other" slice');
    assert.match(other.label, new RegExp(`^other \\(${sliceCount - 11} kernels, [0-9.]+ %\\)$`));
    assert.ok(other.title.split('\n').length > 2, 'its hover text lists the kernels it holds');
  }
  // The kernel table: labels differ where names differ; the full name on hover.
  const cells = await page.$$eval('[data-table="kernels"] tbody tr td.name span[title]', (spans) => spans.map((s) => ({ label: s.textContent, title: s.getAttribute('title') })));
  assert.ok(cells.length > 0);
  const labelOf = new Map();
  for (const c of cells) {
    assert.ok(kernelNames.has(c.title), c.title);
    for (const [title, label] of labelOf) if (title !== c.title) assert.notEqual(label, c.label, `${title} and ${c.title} read the same`);
    labelOf.set(c.title, c.label);
  }
});

// An option declared only in C++ (max_kernels) reaches the page as a generic control; set
// there, it goes to the server with the result and the CSV, and the tables shrink to it.
test('kernel stats: the declared max_kernels option as a generic control', async () => {
  const all = await api(`/api/data?run=${RUN}&tool=kernel_stats`);
  assert.ok(all.kernels.length >= 2, 'the demo profile has several kernel groups');
  await openPage('kernel_stats');
  const input = await page.waitForSelector('[data-options="kernel_stats"] [data-option="max_kernels"] input');
  await input.fill('1');
  await input.dispatchEvent('change');
  await page.waitForFunction(() => location.hash.includes('max_kernels=1'));
  await page.waitForFunction(() => document.querySelectorAll('[data-table="kernels"] tbody tr').length === 1, null, { timeout: 60000 });
  const csv = await page.$eval('[data-csv="kernels"]', (a) => a.getAttribute('href'));
  assert.match(csv, /max_kernels=1/);
  const one = await api(`/api/data?run=${RUN}&tool=kernel_stats&max_kernels=1`);
  assert.equal(one.kernels.length, 1);
  assert.equal(one.truncated, true);
  assert.equal(one.kernels[0].kernel_name, all.kernels[0].kernel_name);
});

test('kernel stats: Tensor Core and per-op pies with the tool\'s numbers', async () => {
  const data = await api(`/api/data?run=${RUN}&tool=kernel_stats`);
  await openPage('kernel_stats');
  assert.ok(data.tensor_core_time_ms, 'the demo GPU may have Tensor Cores: the three parts are given');
  const tc = await legendRows('pie_tensor_cores');
  const parts = data.tensor_core_time_ms;
  const total = parts.using_tensor_cores + parts.eligible_not_using + parts.not_eligible;
  assert.ok(Math.abs(total - data.summary.total_time_ms) < 1e-6 * Math.max(1, total), 'the parts sum to the kernel time');
  const expected = [
    ['Uses Tensor Cores', parts.using_tensor_cores],
    ['Eligible op, no Tensor Cores', parts.eligible_not_using],
    ['Not eligible', parts.not_eligible],
  ].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  assert.deepEqual(tc.map((r) => r.label), expected.map(([label]) => label));
  tc.forEach((r, i) => {
    assert.equal(r.value, formatMs(expected[i][1]));
    assert.ok(Math.abs(r.percent - (100 * expected[i][1]) / total) <= 0.05, `${r.label}: ${r.percent} %`);
  });

  const ops = await legendRows('pie_kernel_ops');
  assert.equal(ops.length, Math.min(data.kernel_ops.length, 12));
  assert.equal(ops[0].title, data.kernel_ops[0].op_name || '(no framework op)');
  assert.equal(ops[0].value, formatMs(data.kernel_ops[0].total_time_ms));
  assert.ok(Math.abs(ops[0].percent - data.kernel_ops[0].percent) <= 0.05);
  await screenshot('kernel_stats_pies');
});

test('framework op stats: each pie lists its slices and one "other" slice that says how many it holds', async () => {
  const data = await api(`/api/data?run=${RUN}&tool=framework_op_stats`);
  await openPage('framework_op_stats');
  for (const [chart, pieKey, table, noun] of [
    ['pie_host_op_type', 'host_op_type', 'host_op_types', 'op types'],
    ['pie_device_op', 'device_op', 'device_ops', 'ops'],
  ]) {
    const rows = await legendRows(chart);
    const slices = data.pie_charts[pieKey];
    assert.equal(rows.length, slices.length, `${chart}: one legend row per slice`);
    assert.equal(rows.filter((r) => r.other).length, 1, `${chart}: one "other" slice`);
    const other = rows[rows.length - 1];
    assert.ok(other.other, `${chart}: "other" comes last`);
    const rest = data[table].length - (slices.length - 1);
    assert.match(other.label, new RegExp(`^other \\(${rest} ${noun}, [0-9.]+ %\\)$`), other.label);
    assert.ok(other.title.includes('listed in the table below'));
    const sum = rows.reduce((s, r) => s + r.percent, 0);
    assert.ok(Math.abs(sum - 100) < 0.1 * rows.length, `${chart}: shares add up to 100 %: ${sum}`);
    const named = rows.slice(0, -1).map((r) => r.percent);
    assert.deepEqual(named, [...named].sort((a, b) => b - a), `${chart}: largest first`);
  }
});

test('overview: the device lag tile and the cadence sentence carry the API\'s numbers', async () => {
  const all = await api(`/api/data?run=${RUN_PT}&tool=overview_page`);
  const cadence = all.step_cadence;
  assert.ok(cadence && cadence.steps >= 2, 'the PyTorch trace has a measured cadence');
  await openPage('overview_page', '', RUN_PT);
  const tiles = await page.$$eval('[data-card="summary"] .tile', (ts) => ts.map((t) => ({ label: t.querySelector('.tile-label').textContent, value: t.querySelector('.tile-value').textContent })));
  const lag = tiles.find((t) => t.label === 'Device lag');
  assert.ok(lag, `a Device lag tile among ${tiles.map((t) => t.label)}`);
  assert.equal(lag.value, formatMs(cadence.mean_device_lag_ms));
  if (cadence.statement) {
    const sentence = await page.$eval('[data-card="summary"] [data-field="cadence"]', (p) => p.textContent);
    assert.ok(sentence.includes(cadence.statement), sentence);
  }
  // The devices by model, as the API names them.
  const models = all.run_environment.device_models.filter((m) => m.name);
  assert.ok(models.length > 0, 'the trace names its devices (deviceProperties)');
  const env = await page.$$eval('[data-card="environment"] dl.kv dt', (dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling.textContent]));
  const shown = env.find(([k]) => k === 'Device models');
  assert.ok(shown, `a Device models row among ${env.map(([k]) => k)}`);
  assert.equal(shown[1], models.map((m) => `${m.count}× ${m.name}`).join(', '));
});

test('step selector: a click on the step-time graph shows that step, with the API\'s numbers for it', async () => {
  const all = await api(`/api/data?run=${RUN_PT}&tool=overview_page`);
  const steps = all.step_time_graph;
  assert.ok(steps.length >= 2, 'the trace has steps');
  await openPage('overview_page', '', RUN_PT);
  const options = await page.$$eval('#step-select option', (o) => o.map((x) => x.value));
  assert.deepEqual(options, ['', ...steps.map((s) => String(s.step_number))], 'all steps, then each step');
  assert.equal(await page.$eval('#step-select', (s) => s.closest('.field').hidden), false);

  // Click the middle of the second step's column in the graph (grid: 56 px left, 24 right).
  const index = 1;
  const box = await (await page.$('[data-chart="step_time_graph"]')).boundingBox();
  const plotWidth = box.width - 56 - 24;
  await page.mouse.click(box.x + 56 + ((index + 0.5) * plotWidth) / steps.length, box.y + box.height - 60);
  const step = String(steps[index].step_number);
  await page.waitForFunction((s) => window.location.hash.includes(`step=${s}`), step, { timeout: 10000 });
  await page.waitForSelector('#page [data-tool="overview_page"] [data-control="all-steps"]', { timeout: 60000 });
  await waitForCharts();
  assert.equal(await page.$eval('#step-select', (s) => s.value), step);

  const one = await api(`/api/data?run=${RUN_PT}&tool=overview_page&step=${step}`);
  assert.equal(one.steps, 1);
  assert.ok(Math.abs(one.avg_step_time_ms - steps[index].step_time_ms) < 1e-6, 'the step\'s time is the one the graph shows');
  const tile = await page.$eval('[data-card="summary"] .tile', (t) => ({ label: t.querySelector('.tile-label').textContent, value: t.querySelector('.tile-value').textContent }));
  assert.equal(tile.label, `Step ${step} time`);
  assert.equal(tile.value, formatMs(one.avg_step_time_ms));
  const breakdown = await page.$$eval('.breakdown-list li', (lis) => lis.map((li) => [li.dataset.category, li.querySelector('.breakdown-value').textContent]));
  for (const [category, value] of breakdown) assert.equal(value, formatMs(one.step_time_breakdown_ms[category]), category);
  // The step's top device ops, not the run's.
  const opNames = await page.$$eval('[data-table="top_device_ops"] tbody tr td.name', (tds) => tds.map((td) => td.getAttribute('title') || td.textContent.trim()));
  assert.deepEqual(opNames, one.top_device_ops.slice(0, opNames.length).map((o) => o.name));
  await screenshot('step_selector');

  // Another per-step page keeps the step: framework op stats shows that step's device ops.
  await page.selectOption('#tool-select', 'framework_op_stats');
  await page.waitForSelector('#page [data-tool="framework_op_stats"]', { timeout: 60000 });
  assert.ok((await page.evaluate(() => window.location.hash)).includes(`step=${step}`));
  const opStats = await api(`/api/data?run=${RUN_PT}&tool=framework_op_stats&step=${step}`);
  const allOpStats = await api(`/api/data?run=${RUN_PT}&tool=framework_op_stats`);
  assert.ok(opStats.device_ops[0].occurrences < allOpStats.device_ops.find((o) => o.name === opStats.device_ops[0].name).occurrences, 'one step has fewer occurrences than all');

  // The input pipeline page of that step: its step table holds that step alone, and the
  // chart still shows every step.
  await page.selectOption('#tool-select', 'input_pipeline_analyzer');
  await page.waitForSelector('#page [data-tool="input_pipeline_analyzer"]', { timeout: 60000 });
  await waitForCharts();
  const input = await api(`/api/data?run=${RUN_PT}&tool=input_pipeline_analyzer&step=${step}`);
  assert.deepEqual(input.step_details.map((r) => String(r.step_number)), [step]);
  assert.ok(await page.$('[data-chart="input_step_chart"][data-ready="true"]'));

  // Kernel stats of that step: its kernel time, the API's for the step.
  await page.selectOption('#tool-select', 'kernel_stats');
  await page.waitForSelector('#page [data-tool="kernel_stats"]', { timeout: 60000 });
  await waitForCharts();
  const kernels = await api(`/api/data?run=${RUN_PT}&tool=kernel_stats&step=${step}`);
  const allKernels = await api(`/api/data?run=${RUN_PT}&tool=kernel_stats`);
  assert.ok(kernels.summary.launches < allKernels.summary.launches);
  const kernelTile = await page.$eval('[data-card="summary"] .tile .tile-value', (t) => t.textContent);
  assert.equal(kernelTile, formatMs(kernels.summary.total_time_ms));
  const opRows = await legendRows('pie_kernel_ops');
  assert.equal(opRows[0].value, formatMs(kernels.kernel_ops[0].total_time_ms), 'the per-op pie is of the step');

  // "All steps" again.
  await page.selectOption('#step-select', '');
  await page.waitForFunction(() => !window.location.hash.includes('step='), null, { timeout: 10000 });
  await page.waitForSelector('#page [data-tool="kernel_stats"]', { timeout: 60000 });
  await waitForCharts();
  assert.equal(await page.$eval('[data-card="summary"] .tile .tile-value', (t) => t.textContent), formatMs(allKernels.summary.total_time_ms));
});

test('trace viewer at 1440x900: fills the window without a page scrollbar, lanes named with thread ids, memory as a counter track', async () => {
  await page.goto(`${baseUrl}#run=${RUN_MEMORY}&tool=trace_viewer`);
  await page.waitForSelector('[data-page=trace_viewer][data-ready="1"]', { timeout: 60000 });
  await page.waitForFunction(() => document.querySelector('.tv-timeline')?.dataset.loading === '0', null, { timeout: 30000 });
  const geometry = await page.evaluate(() => ({
    scrollHeight: document.scrollingElement.scrollHeight,
    innerHeight: window.innerHeight,
    frameBottom: document.querySelector('.tv-frame').getBoundingClientRect().bottom,
  }));
  assert.ok(geometry.scrollHeight <= geometry.innerHeight + 1, `no page scrollbar: ${JSON.stringify(geometry)}`);
  assert.ok(geometry.frameBottom >= geometry.innerHeight - 64, `the viewer reaches down to the window's bottom: ${JSON.stringify(geometry)}`);
  const lanes = await page.evaluate(() => document.querySelector('[data-page=trace_viewer]').traceViewer.laneLabels());
  assert.ok(lanes.some((l) => /\(tid \d+\)$/.test(l.label)), lanes.map((l) => l.label).join(' | '));
  // Memory in use is a counter track drawn as a graph, with the API's points.
  const tracks = await api(`/api/trace/tracks?run=${RUN_MEMORY}`);
  const memory = tracks.counters.find((c) => c.unit === 'bytes');
  assert.ok(memory, `a memory counter: ${JSON.stringify(tracks.counters)}`);
  assert.ok(memory.samples > 10 && memory.max > 0);
  assert.ok(lanes.some((l) => l.kind === 'counter' && l.label === memory.name), 'the counter has its own lane');
  // Drawn on the frame after the counters' points arrive.
  await page.waitForFunction(() => document.querySelector('[data-page=trace_viewer]').traceViewer.stats().counterSteps > 0, null, { timeout: 10000 });
  const drawn = await page.evaluate(() => document.querySelector('[data-page=trace_viewer]').traceViewer.stats().counterSteps);
  assert.ok(drawn > 1, `the counter's steps are drawn (${drawn} points)`);
  const points = await api(`/api/trace/counters?run=${RUN_MEMORY}&start_ps=0&end_ps=${tracks.end_ps + 1}&width_px=100`);
  const mine = points.counters.find((c) => c.id === memory.id);
  assert.ok(mine.t.length <= 2 * 100 + 1, 'at most two points per pixel');
  assert.equal(Math.max(...mine.v), memory.max, 'the peak survives the sampling');
  await page.waitForTimeout(200);
  await screenshot('trace_viewer_1440');
});

test('no console errors and no request left this machine', () => {
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(externalRequests, []);
});
