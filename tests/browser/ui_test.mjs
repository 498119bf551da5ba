// Browser tests of the stepscope dashboard: a real `stepscope serve` on a free loopback
// port, real profiles (the example program's, and TensorFlow's GPU demo file), driven
// with playwright-core in Debian's Chromium (headless; no browser is downloaded).
//
// Checks: every page renders with data, tables sort and filter, CSV export downloads the
// table, empty states say why, new runs show up, no console errors, and no request leaves
// localhost. Saves a screenshot of each page to $STEPSCOPE_SCREENSHOT_DIR (<build>/screenshots;
// `./dev screenshots` copies them to docs/screenshots/) and writes the UI bundle
// size and the overview's first-load time to $STEPSCOPE_BENCH_OUT/ui.json.
//
// Run by ctest (tests/browser/CMakeLists.txt), which sets the environment below.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import zlib from 'node:zlib';
import { browserTestEnv, env, getJson, importTraces, loadChromium, openBrowser, startServe, stop } from './harness.mjs';
import { encodeHostOnlyXSpace } from './xspace_writer.mjs';

const { STEPSCOPE, UI_ROOT, SHARED, SCREENSHOTS } = browserTestEnv();
const MNIST = env('STEPSCOPE_MNIST_BIN');
const BENCH_OUT = env('STEPSCOPE_BENCH_OUT');
const TF_GPU_FILE = path.join(SHARED, 'testdata/xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb');

const chromium = loadChromium(UI_ROOT);

const RUN_EXAMPLE = 'mnist_mlp_example';
const RUN_GPU = 'tf_gpu_demo';
const RUN_NO_STEPS = 'no_steps';
const RUN_TWO_WORKERS = 'two_workers';
const RUN_PYTORCH = 'pytorch_dataloader';
// A PyTorch trace with a DataLoader, pinned-memory and host-to-device copies (none of the
// shared traces has a DataLoader), imported as a user would.
const PYTORCH_TRACE = path.join(path.dirname(UI_ROOT), 'tests', 'golden', 'traces', 'pytorch_dataloader.pt.trace.json');

let tmp;
let logdir;
let server;
let baseUrl;
let browser;
let page;
let consoleErrors;
let externalRequests;
let requestHosts;
const bench = {};

function makeProfiles() {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stepscope-browser-'));
  logdir = path.join(tmp, 'logdir');
  const profileRoot = path.join(logdir, 'plugins', 'profile');
  // The example program, profiled as `./dev demo` does (fewer examples, so it is quick).
  const trained = spawnSync(
    MNIST,
    ['--steps', '30', '--train_examples', '4096', '--log_every', '0', '--logdir', logdir, '--data_dir', path.join(tmp, 'mnist_data')],
    { encoding: 'utf8', timeout: 300000 },
  );
  assert.equal(trained.status, 0, `mnist_mlp failed: ${trained.stderr}`);
  const runs = fs.readdirSync(profileRoot);
  assert.equal(runs.length, 1, `expected one run from mnist_mlp, found ${runs}`);
  fs.renameSync(path.join(profileRoot, runs[0]), path.join(profileRoot, RUN_EXAMPLE));
  // TensorFlow's multi-GPU demo profile (kernels, device ops).
  fs.mkdirSync(path.join(profileRoot, RUN_GPU));
  fs.copyFileSync(TF_GPU_FILE, path.join(profileRoot, RUN_GPU, '34.83.195.179_6003.xplane.pb'));
  // Two workers of one job (the same host profile twice): "all hosts" and the pod viewer.
  fs.mkdirSync(path.join(profileRoot, RUN_TWO_WORKERS));
  for (const worker of ['worker0', 'worker1']) fs.copyFileSync(TF_GPU_FILE, path.join(profileRoot, RUN_TWO_WORKERS, `${worker}.xplane.pb`));
  // An imported PyTorch trace.
  importTraces(STEPSCOPE, logdir, RUN_PYTORCH, [PYTORCH_TRACE]);
  // Host events but no step markers: the empty states.
  fs.mkdirSync(path.join(profileRoot, RUN_NO_STEPS));
  const events = [];
  for (let i = 0; i < 20; i++) events.push({ name: i % 2 ? 'decode_batch' : 'forward', offsetPs: i * 2e9, durationPs: 1.5e9 });
  fs.writeFileSync(path.join(profileRoot, RUN_NO_STEPS, 'localhost.xplane.pb'), encodeHostOnlyXSpace({ hostname: 'localhost', threadName: 'main', events }));
}

const api = (pathAndQuery) => getJson(baseUrl, pathAndQuery);

function hashUrl(run, tool, extra = '') {
  return `${baseUrl}#run=${encodeURIComponent(run)}&tool=${tool}${extra}`;
}

// Navigates and waits until the tool's page has rendered and its charts are drawn.
async function openPage(run, tool, extra = '') {
  await page.goto(hashUrl(run, tool, extra));
  await page.waitForSelector(`#page [data-tool="${tool}"]`, { timeout: 120000 });
  await waitForCharts();
}

async function waitForCharts() {
  await page.waitForFunction(() => [...document.querySelectorAll('.chart')].every((c) => c.dataset.ready === 'true'), null, { timeout: 30000 });
}

async function screenshot(name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // From the top, tables scrolled to their first column: as a person first sees the page.
  await page.evaluate(() => {
    window.scrollTo(0, 0);
    for (const t of document.querySelectorAll('.table-scroll')) t.scrollLeft = 0;
  });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

// The cell texts of one column of a data table, in display order: a text cell's full text
// (its title: a long one shows its head and tail).
async function columnTexts(table, column) {
  return page.$$eval(`[data-table="${table}"] table`, ([t], col) => {
    const index = [...t.querySelectorAll('thead th')].findIndex((th) => th.dataset.col === col);
    return [...t.querySelectorAll('tbody tr:not(.detail-row):not(.empty-row):not(.spacer-row)')].map((tr) => tr.children[index].getAttribute('title') || tr.children[index].textContent.trim());
  }, column);
}
const asNumber = (text) => Number(text.replace(/[,%]/g, ''));

function assertSorted(values, descending, label) {
  for (let i = 1; i < values.length; i++) {
    const ok = descending ? values[i - 1] >= values[i] : values[i - 1] <= values[i];
    assert.ok(ok, `${label}: not ${descending ? 'descending' : 'ascending'} at ${i}: ${values[i - 1]} then ${values[i]}`);
  }
}

async function clickHeader(table, column) {
  await page.click(`[data-table="${table}"] th[data-col="${column}"]`);
}

async function downloadCsv(table) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-table="${table}"] [data-csv="${table}"]`)]);
  const file = path.join(tmp, `${table}.csv`);
  await download.saveAs(file);
  return { name: download.suggestedFilename(), text: fs.readFileSync(file, 'utf8') };
}

before(async () => {
  makeProfiles();
  ({ server, baseUrl } = await startServe(STEPSCOPE, { logdir, uiRoot: UI_ROOT }));
  // Every request is checked: anything not addressed to this machine is recorded and refused.
  ({ browser, page, consoleErrors, externalRequests, requestHosts } = await openBrowser(chromium, {
    allowedHostnames: ['127.0.0.1', 'localhost'],
    viewport: { width: 1440, height: 900 },
    acceptDownloads: true,
  }));
});

after(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    // serve's own shutdown is under test: a minute before stop() falls back to SIGKILL.
    const code = await stop(server, 60000);
    assert.equal(code, 0, 'serve must exit 0 on SIGTERM');
  }
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(BENCH_OUT, { recursive: true });
  fs.writeFileSync(path.join(BENCH_OUT, 'ui.json'), `${JSON.stringify(bench, null, 2)}\n`);
  console.log(`ui bench: ${JSON.stringify(bench)}`);
});

test('the overview page of the example profile renders with data (first load timed)', async () => {
  // The very first visit: nothing cached in the browser or the server.
  const start = performance.now();
  await page.goto(hashUrl(RUN_EXAMPLE, 'overview_page'));
  await page.waitForSelector('#page [data-tool="overview_page"] [data-chart="step_time_graph"][data-ready="true"]', { timeout: 120000 });
  bench.overview_first_load_ms = Math.round(performance.now() - start);
  const navigation = await page.evaluate(() => performance.getEntriesByType('navigation')[0].toJSON());
  bench.overview_dom_content_loaded_ms = Math.round(navigation.domContentLoadedEventEnd);
  // Again, with the server's caches warm.
  const warmStart = performance.now();
  await page.reload();
  await page.waitForSelector('#page [data-tool="overview_page"] [data-chart="step_time_graph"][data-ready="true"]');
  bench.overview_warm_load_ms = Math.round(performance.now() - warmStart);

  const data = await api(`/api/data?run=${RUN_EXAMPLE}&tool=overview_page`);
  assert.ok(data.steps >= 20, `expected the example's steps, got ${data.steps}`);
  const summary = await page.textContent('[data-card="summary"]');
  assert.match(summary, new RegExp(`over ${data.steps} steps`));
  assert.match(summary, /Average step time/);
  // Every category with time is in the breakdown, input among them.
  const categories = await page.$$eval('.breakdown-list li', (items) => items.map((li) => li.dataset.category));
  assert.ok(categories.includes('input'), categories.join());
  for (const [key, ms] of Object.entries(data.step_time_breakdown_ms)) {
    if (ms > 0) assert.ok(categories.includes(key), `category ${key} (${ms} ms) missing from the breakdown`);
  }
  // The selectors show the run, tool and host; the hash keeps them.
  assert.equal(await page.inputValue('#run-select'), RUN_EXAMPLE);
  assert.equal(await page.inputValue('#tool-select'), 'overview_page');
  assert.match(page.url(), /host=/);
  assert.ok((await page.textContent('[data-card="environment"]')).includes('Host CPU cores'));
  await screenshot('overview');
});

test('the overview of a GPU profile lists the top 10 device ops', async () => {
  await openPage(RUN_GPU, 'overview_page');
  const ranks = await columnTexts('top_device_ops', 'rank');
  assert.deepEqual(ranks, ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  const recommendation = await page.textContent('[data-card="recommendation"]');
  assert.ok(recommendation.length > 40, recommendation);
  await screenshot('overview_gpu');
});

test('the input pipeline analyzer shows the verdict, step chart, host breakdown and expandable input ops', async () => {
  await openPage(RUN_EXAMPLE, 'input_pipeline_analyzer');
  const data = await api(`/api/data?run=${RUN_EXAMPLE}&tool=input_pipeline_analyzer`);
  assert.equal(await page.getAttribute('[data-verdict]', 'data-verdict'), data.input_bound_verdict);
  assert.ok(await page.$('[data-chart="input_step_chart"][data-ready="true"]'));
  assert.ok(await page.$('[data-chart="host_breakdown"][data-ready="true"]'), 'the example instruments its pipeline: host breakdown expected');
  const names = await columnTexts('input_ops', 'name');
  assert.equal(names.length, Math.min(50, data.input_ops.length));
  assert.ok(names.some((n) => n.startsWith('Iterator::')), names.join());
  // Expand the first row: its details appear under it.
  await page.click('[data-table="input_ops"] tbody tr:first-child .expand-button');
  const details = await page.textContent('[data-table="input_ops"] tr.detail-row');
  assert.match(details, /Average per call/);
  // Sort by count, both ways.
  await clickHeader('input_ops', 'count');
  assertSorted((await columnTexts('input_ops', 'count')).map(asNumber), true, 'count');
  await clickHeader('input_ops', 'count');
  assertSorted((await columnTexts('input_ops', 'count')).map(asNumber), false, 'count');
  await clickHeader('input_ops', 'self_time_ms');
  await screenshot('input_pipeline');
});

test('framework op stats: pies, sorting, filtering, CSV export and the idle toggle', async () => {
  await openPage(RUN_EXAMPLE, 'framework_op_stats');
  assert.ok(await page.$('[data-chart="pie_host_op_type"][data-ready="true"]'));
  assert.ok(await page.$('[data-chart="pie_host_op"][data-ready="true"]'));
  const tables = (await api(`/api/tables?run=${RUN_EXAMPLE}&tool=framework_op_stats`)).tables;
  const hostOps = tables.find((t) => t.name === 'host_ops');
  assert.ok(hostOps.row_count > 5, `host ops: ${hostOps.row_count}`);
  assert.match(await page.textContent('[data-table="host_ops"] .table-count'), new RegExp(`^${hostOps.row_count} rows`));

  // Default order: self time, largest first; then by total time both ways; then by name.
  assertSorted((await columnTexts('host_ops', 'total_self_time_ms')).map(asNumber), true, 'self time');
  await clickHeader('host_ops', 'total_time_ms');
  assert.equal(await page.getAttribute('[data-table="host_ops"] th[data-col="total_time_ms"]', 'aria-sort'), 'descending');
  assertSorted((await columnTexts('host_ops', 'total_time_ms')).map(asNumber), true, 'total time');
  await clickHeader('host_ops', 'total_time_ms');
  assertSorted((await columnTexts('host_ops', 'total_time_ms')).map(asNumber), false, 'total time');
  await clickHeader('host_ops', 'name');
  const byName = await columnTexts('host_ops', 'name');
  assert.deepEqual(byName, [...byName].sort((a, b) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' })));

  // Filter by name.
  await page.fill('[data-table="host_ops"] .table-filter', 'iterator');
  const filtered = await columnTexts('host_ops', 'name');
  assert.ok(filtered.length > 0 && filtered.length < hostOps.row_count, `${filtered.length} rows after filtering`);
  for (const name of filtered) assert.match(name.toLowerCase(), /iterator/);
  await page.fill('[data-table="host_ops"] .table-filter', '');

  // CSV export: the table as the server has it, all rows.
  const csv = await downloadCsv('host_ops');
  const host = await page.inputValue('#host-select');
  assert.equal(csv.name, `${RUN_EXAMPLE}_${host}_framework_op_stats_host_ops.csv`.replace(/[^A-Za-z0-9._-]/g, '_'));
  const lines = csv.text.trimEnd().split(/\r?\n/);
  assert.equal(lines[0], hostOps.columns.map((c) => c.id).join(','));
  assert.ok(lines.length >= hostOps.row_count + 1, `${lines.length} CSV lines for ${hostOps.row_count} rows`);

  // The other tabs.
  await page.click('[data-tab="host_op_types"]');
  assert.ok((await columnTexts('host_op_types', 'type')).length > 0);
  await page.click('[data-tab="host_ops"]');
  await clickHeader('host_ops', 'total_self_time_ms');
  await page.evaluate(() => window.scrollTo(0, 0));

  // Include idle: the hash remembers it and an IDLE row appears.
  await page.check('[data-control="include-idle"]');
  await page.waitForFunction(() => location.hash.includes('include_idle=1'));
  await page.waitForFunction(
    () => [...document.querySelectorAll('[data-table="host_ops"] td.name')].some((td) => td.textContent === 'IDLE'),
    null,
    { timeout: 60000 },
  );
  await waitForCharts();
  assert.ok(await page.isChecked('[data-control="include-idle"]'));
  await page.uncheck('[data-control="include-idle"]');
  await page.waitForFunction(() => !location.hash.includes('include_idle=1'));

  // A GPU profile has all four pies; that is the screenshot.
  await openPage(RUN_GPU, 'framework_op_stats');
  for (const chart of ['pie_host_op_type', 'pie_host_op', 'pie_device_op_type', 'pie_device_op']) {
    assert.ok(await page.$(`[data-chart="${chart}"][data-ready="true"]`), chart);
  }
  await screenshot('framework_op_stats');
});

test('kernel stats: top-kernel pie, sortable kernel table, CSV', async () => {
  await openPage(RUN_GPU, 'kernel_stats');
  assert.ok(await page.$('[data-chart="pie_top_kernels"][data-ready="true"]'));
  const data = await api(`/api/data?run=${RUN_GPU}&tool=kernel_stats`);
  assert.ok(data.kernels.length > 10);
  assertSorted((await columnTexts('kernels', 'total_duration_us')).map(asNumber), true, 'kernel time');
  await clickHeader('kernels', 'registers_per_thread');
  assertSorted((await columnTexts('kernels', 'registers_per_thread')).map(asNumber), true, 'registers');
  await clickHeader('kernels', 'total_duration_us');
  const csv = await downloadCsv('kernels');
  assert.match(csv.text.split(/\r?\n/)[0], /kernel_name/);
  assert.equal(csv.text.trimEnd().split(/\r?\n/).length - 1, data.kernels.length);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot('kernel_stats');
  // On a CPU-only profile the tool is listed but not selectable.
  await openPage(RUN_EXAMPLE, 'overview_page');
  const label = await page.$eval('#tool-select option[value="kernel_stats"]', (o) => ({ text: o.textContent, disabled: o.disabled }));
  assert.deepEqual(label, { text: 'Kernel stats (n/a)', disabled: true });
});

test('advisor: findings with evidence and links to the pages that show them', async () => {
  await openPage(RUN_GPU, 'advisor');
  const data = await api(`/api/data?run=${RUN_GPU}&tool=advisor`);
  assert.ok(data.findings.length > 0);
  const shown = await page.$$eval('[data-finding]', (nodes) => nodes.map((n) => n.dataset.finding));
  assert.deepEqual(shown, data.findings.map((f) => f.id));
  assert.match(await page.textContent('[data-finding]'), /Evidence:/);
  assert.equal((await columnTexts('checks', 'id')).length, data.checks.length);
  await screenshot('advisor');
  // Follow the input finding's link.
  const withLink = data.findings.find((f) => f.tool && f.tool !== 'advisor');
  await page.click(`[data-finding="${withLink.id}"] a[data-link-tool]`);
  await page.waitForSelector(`#page [data-tool="${withLink.tool}"]`);
  await waitForCharts();
  assert.equal(await page.inputValue('#tool-select'), withLink.tool);
});

test('pod viewer: all hosts combined, one bar per worker, step selector', async () => {
  await openPage(RUN_TWO_WORKERS, 'pod_viewer');
  assert.equal(await page.inputValue('#host-select'), 'all');
  const hosts = await page.$$eval('#host-select option', (options) => options.map((o) => o.value));
  assert.deepEqual(hosts, ['all', 'worker0', 'worker1']);
  // Worker names are the ones the profiles carry (XSpace hostnames), both files here name the same host.
  const pod = await api(`/api/data?run=${RUN_TWO_WORKERS}&tool=pod_viewer`);
  assert.equal(pod.host_count, 2);
  assert.deepEqual(await columnTexts('workers', 'host'), pod.workers.map((w) => w.host));
  const steps = pod.steps;
  await page.selectOption('[data-control="pod-step"]', String(steps[0].step_number));
  await waitForCharts();
  await screenshot('pod_viewer');
  // One host of the run: the model of that host alone.
  await page.selectOption('#host-select', 'worker1');
  await page.waitForFunction(() => location.hash.includes('host=worker1'));
  await page.waitForFunction(() => document.querySelectorAll('[data-table="workers"] tbody tr').length === 1);
});

test('the input pipeline page of an imported PyTorch trace lists the DataLoader and the copies, in PyTorch words', async () => {
  await openPage(RUN_PYTORCH, 'input_pipeline_analyzer');
  const data = await api(`/api/data?run=${RUN_PYTORCH}&tool=input_pipeline_analyzer`);
  assert.equal(data.framework, 'pytorch');
  assert.equal(await page.getAttribute('[data-framework]', 'data-framework'), 'pytorch');
  // The input ops: the DataLoader's iteration and the pinning on the host, the copies to
  // the GPU on the device, by the op that issued them.
  const names = await columnTexts('input_ops', 'name');
  const where = await columnTexts('input_ops', 'host_or_device');
  const categories = await columnTexts('input_ops', 'category');
  const rows = names.map((name, i) => ({ name, where: where[i], category: categories[i] }));
  assert.ok(rows.some((r) => r.name.startsWith('enumerate(DataLoader)#') && r.where === 'host' && r.category === 'data_loader'), JSON.stringify(rows));
  assert.ok(rows.some((r) => r.name === 'aten::pin_memory' && r.category === 'pin_memory'), JSON.stringify(rows));
  const copies = await columnTexts('input_ops', 'type');
  const deviceCopies = rows.map((r, i) => ({ ...r, type: copies[i] })).filter((r) => r.name === 'aten::copy_' && r.where === 'device');
  assert.deepEqual(deviceCopies.map((r) => r.type).sort(), ['MemcpyHtoD (from pageable memory)', 'MemcpyHtoD (from pinned memory)']);
  // Its columns are labelled as the tool declares them.
  const tables = await api(`/api/tables?run=${RUN_PYTORCH}&tool=input_pipeline_analyzer`);
  const declared = tables.tables.find((t) => t.name === 'input_ops');
  const headers = await page.$$eval('[data-table="input_ops"] thead th[data-col]', (ths) => Object.fromEntries(ths.map((th) => [th.dataset.col, th.textContent.trim()])));
  for (const column of declared.columns) {
    assert.ok((headers[column.id] ?? '').startsWith(column.label), `${column.id}: page shows '${headers[column.id]}', the tool declares '${column.label}'`);
  }
  // The input share, split into what the step waited for, adds up to the verdict's number.
  const share = await page.textContent('[data-card="input-share"]');
  assert.match(share, /DataLoader/);
  assert.match(share, /aten::copy_/);
  const parts = data.input_share.reduce((sum, r) => sum + r.percent, 0);
  assert.ok(Math.abs(parts - data.input_bound_percent) < 1e-6, `${parts} vs ${data.input_bound_percent}`);
  // The host breakdown shows PyTorch's classes only: no tf.data file reads shown as 0.
  const classes = await page.$$eval('[data-card="host-side"] .legend-list li', (items) => items.map((li) => li.dataset.category));
  assert.deepEqual(classes, ['data_loader', 'pin_memory']);
  // The advice names the DataLoader's own knobs.
  const verdict = await page.textContent('[data-card="verdict"]');
  for (const knob of ['num_workers', 'persistent_workers', 'prefetch_factor', 'pin_memory=True', 'non_blocking=True']) {
    assert.ok(verdict.includes(knob), `${knob} missing from: ${verdict}`);
  }
  assert.ok(!verdict.includes('ScopedIterator') && !verdict.includes('tf.data'), verdict);
  await screenshot('input_pipeline_pytorch');
});

test('empty states say why there is nothing to show', async () => {
  await openPage(RUN_NO_STEPS, 'overview_page');
  const empty = await page.textContent('[data-card="step-graph"] [data-state="empty"]');
  assert.match(empty, /No step markers found/);
  assert.match(empty, /stepscope::Step/);
  await screenshot('empty_state');
  await openPage(RUN_NO_STEPS, 'input_pipeline_analyzer');
  assert.match(await page.textContent('[data-card="device-side"]'), /No step markers found/);
});

test('a run written while the page is open shows up after a refresh', async () => {
  await openPage(RUN_GPU, 'overview_page');
  const dir = path.join(logdir, 'plugins', 'profile', 'written_later');
  fs.mkdirSync(dir);
  fs.copyFileSync(TF_GPU_FILE, path.join(dir, 'worker.xplane.pb'));
  await page.click('#refresh');
  await page.waitForSelector('#run-select option[value="written_later"]', { state: 'attached' });
  await page.selectOption('#run-select', 'written_later');
  await page.waitForSelector('#page [data-tool="overview_page"]');
  await waitForCharts();
  assert.match(page.url(), /run=written_later/);
});

test('no console errors and no request outside localhost', async () => {
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(externalRequests, []);
  for (const host of requestHosts) assert.match(host, /^(127\.0\.0\.1|localhost)(:\d+)?$/);
});

test('UI bundle size', () => {
  let bytes = 0;
  let gzipBytes = 0;
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else {
        const content = fs.readFileSync(file);
        bytes += content.length;
        gzipBytes += zlib.gzipSync(content, { level: 9 }).length;
      }
    }
  };
  walk(path.join(UI_ROOT, 'dist'));
  bench.ui_bundle_bytes = bytes;
  bench.ui_bundle_gzip_bytes = gzipBytes;
  // A budget: the dashboard must stay a quick load on any machine.
  assert.ok(gzipBytes < 400 * 1024, `UI bundle ${gzipBytes} bytes gzipped`);
});
