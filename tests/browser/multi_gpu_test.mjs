// The Multi-GPU page on the PyTorch rank pair imported as one run (two hosts, one GPU
// each): the summary names the straggler the API names, the chart has one bar per device,
// the tables show the tool's rows, a link bandwidth typed on the page reaches the tool, and
// no request leaves the machine.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { browserTestEnv, closeDashboard, getJson, importTraces, loadChromium, openDashboard } from './harness.mjs';

const { STEPSCOPE, UI_ROOT, SHARED, SCREENSHOTS } = browserTestEnv();
const RANK_TRACES = ['hta_sampled_rank-0.json.gz', 'hta_sampled_rank-1.json.gz'].map((f) => path.join(SHARED, 'testdata/traces', f));
const RUN = 'ranks';

const chromium = loadChromium(UI_ROOT);

let tmp;
let dashboard;
let baseUrl;
let page;
let consoleErrors;
let externalRequests;

const api = (pathAndQuery) => getJson(baseUrl, pathAndQuery);

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stepscope-multi-gpu-'));
  const logdir = path.join(tmp, 'logdir');
  importTraces(STEPSCOPE, logdir, RUN, RANK_TRACES);
  dashboard = await openDashboard(chromium, STEPSCOPE, { logdir, uiRoot: UI_ROOT, viewport: { width: 1400, height: 1000 } });
  ({ baseUrl, page, consoleErrors, externalRequests } = dashboard);
});

after(async () => {
  await closeDashboard(dashboard, tmp);
});

test('the Multi-GPU page shows the straggler, a bar per device and the tool tables', async () => {
  const tools = await api(`/api/tools?run=${RUN}`);
  assert.ok(JSON.stringify(tools).includes('multi_gpu'), 'multi_gpu is listed for a run with two ranks');
  const data = await api(`/api/data?run=${RUN}&tool=multi_gpu`);
  assert.equal(data.summary.device_count, 2);
  assert.ok(data.summary.straggler, 'the API names a straggler');

  await page.goto(`${baseUrl}#run=${RUN}&tool=multi_gpu`);
  await page.waitForSelector('#page [data-tool="multi_gpu"]', { timeout: 120000 });
  await page.waitForFunction(() => [...document.querySelectorAll('.chart')].every((c) => c.dataset.ready === 'true'), null, { timeout: 30000 });
  const summary = await page.locator('[data-card="summary"], #summary').first().innerText();
  assert.ok(summary.includes(data.summary.straggler), `summary names ${data.summary.straggler}: ${summary}`);
  assert.equal(await page.locator('[data-table="devices"] tbody tr').count(), data.devices.length);
  assert.equal(await page.locator('[data-table="steps"] tbody tr').count(), data.steps.length);
  const header = await page.locator('[data-table="devices"] thead').innerText();
  assert.match(header, /Waits \(ms\)/, 'columns carry the labels the tool declares');
  // Collectives sized from the ranks' nccl:* scopes: one row per rank and kind, bus bandwidth in the summary.
  assert.ok(data.collectives.length > 0, 'the API sizes the rank pair\'s collectives');
  assert.equal(await page.locator('[data-table="collectives"] tbody tr').count(), data.collectives.length);
  assert.match(await page.locator('[data-table="collectives"] thead').innerText(), /Bus BW \(GB\/s\)/);
  assert.ok(summary.includes('GB/s'), `summary shows the collectives' bus bandwidth: ${summary}`);
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOTS, 'multi_gpu.png'), fullPage: true });
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(externalRequests, []);
});

// The texts of the collectives table's column `id`, found by its header.
const collectiveColumn = (id) =>
  page.evaluate((col) => {
    const table = document.querySelector('[data-table="collectives"]');
    const index = [...table.querySelectorAll('thead th')].findIndex((th) => th.dataset.col === col);
    return [...table.querySelectorAll('tbody tr')].map((tr) => tr.children[index].textContent.trim());
  }, id);

test('a link bandwidth typed on the page reaches the tool and changes the collectives table', async () => {
  const given = await api(`/api/data?run=${RUN}&tool=multi_gpu&link_gbps=50`);
  assert.ok(given.collectives.every((r) => r.link_gbps === 50 && r.link === 'option'), 'the API takes link_gbps');
  assert.ok(given.summary.link_percent > 0, 'the sized collectives are compared with the given link');
  const tables = await api(`/api/tables?run=${RUN}&tool=multi_gpu`);
  const label = tables.tables.find((t) => t.name === 'collectives').columns.find((c) => c.id === 'link_gbps').label;

  await page.goto(`${baseUrl}#run=${RUN}&tool=multi_gpu`);
  await page.waitForSelector('[data-table="collectives"] tbody tr', { timeout: 120000 });
  const before = await collectiveColumn('link_gbps');
  assert.ok(before.every((text) => parseFloat(text) !== 50), `no link of 50 GB/s before: ${before}`);
  const input = page.locator('#multi-gpu-link-gbps');
  assert.equal(await input.getAttribute('aria-label'), label, 'the input is labelled as the tool labels the column');
  // Out of the input's range: nothing is fetched, the page stays.
  await input.fill('-3');
  await input.press('Enter');
  assert.ok(!(await page.evaluate(() => location.hash)).includes('link_gbps'), 'a negative link is not sent');
  await input.fill('50');
  await input.press('Enter');
  await page.waitForFunction(() => location.hash.includes('link_gbps=50'), null, { timeout: 10000 });
  await page.waitForFunction(
    () => document.querySelector('[data-table="collectives"] tbody')?.textContent.includes('option'),
    null,
    { timeout: 120000 },
  );
  const after = await collectiveColumn('link_gbps');
  assert.equal(after.length, given.collectives.length);
  assert.ok(after.every((text) => parseFloat(text) === 50), `every row compares with 50 GB/s: ${after}`);
  assert.deepEqual(await collectiveColumn('link'), given.collectives.map(() => 'option'));
  assert.equal(await page.locator('#multi-gpu-link-gbps').inputValue(), '50', 'the input keeps the value after the reload');
  const summary = await page.locator('[data-card="summary"]').innerText();
  assert.ok(summary.includes('50 GB/s link (option)'), `the summary compares with the given link: ${summary}`);
  const csv = await page.locator('[data-csv="collectives"]').getAttribute('href');
  assert.ok(csv.includes('link_gbps=50'), `the CSV download carries the link: ${csv}`);
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(externalRequests, []);
});

test('a parameter count typed on the page reaches the tool and sets the all-reduce estimate', async () => {
  // 10^9 fp32 gradients over a 50 GB/s link: 4 GB / 50 GB/s = 80 ms, the guide's estimate.
  const given = await api(`/api/data?run=${RUN}&tool=multi_gpu&link_gbps=50&parameters=1000000000`);
  assert.equal(given.summary.estimate_basis, 'parameters');
  assert.equal(given.summary.parameter_count, 1e9);
  assert.ok(Math.abs(given.summary.estimated_all_reduce_ms - 80) < 1e-6, `estimate ${given.summary.estimated_all_reduce_ms}`);

  await page.goto(`${baseUrl}#run=${RUN}&tool=multi_gpu&link_gbps=50`);
  await page.waitForSelector('[data-card="summary"]', { timeout: 120000 });
  const before = await page.locator('[data-card="summary"]').innerText();
  assert.ok(before.includes('from the measured all-reduce bytes'), `without a count the estimate uses the bytes: ${before}`);
  const input = page.locator('#multi-gpu-parameters');
  // Not a whole positive number: nothing is fetched.
  await input.fill('0');
  await input.press('Enter');
  assert.ok(!(await page.evaluate(() => location.hash)).includes('parameters'), 'a zero count is not sent');
  await input.fill('1000000000');
  await input.press('Enter');
  await page.waitForFunction(() => location.hash.includes('parameters=1000000000'), null, { timeout: 10000 });
  await page.waitForFunction(
    () => document.querySelector('[data-card="summary"]')?.textContent.includes('1,000,000,000 parameters'),
    null,
    { timeout: 120000 },
  );
  const summary = await page.locator('[data-card="summary"]').innerText();
  assert.ok(summary.includes('80.00 ms'), `the tile shows the tool's estimate: ${summary}`);
  assert.ok(summary.includes('the count given'), summary);
  assert.equal(await page.locator('#multi-gpu-parameters').inputValue(), '1000000000', 'the input keeps the value');
  const csv = await page.locator('[data-csv="devices"]').getAttribute('href');
  assert.ok(csv.includes('parameters=1000000000'), `the CSV download carries the count: ${csv}`);
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(externalRequests, []);
});
