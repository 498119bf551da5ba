// The Multi-GPU page on the PyTorch rank pair imported as one run (two hosts, one GPU
// each): the summary names the straggler the API names, the chart has one bar per device,
// the tables show the tool's rows, and no request leaves the machine.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { closeDashboard, env, getJson, loadChromium, openDashboard } from './harness.mjs';

const STEPSCOPE = env('STEPSCOPE_BIN');
const UI_ROOT = env('STEPSCOPE_UI_ROOT');
const SHARED = env('STEPSCOPE_SHARED_DIR');
const SCREENSHOTS = env('STEPSCOPE_SCREENSHOT_DIR');
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
  const imported = spawnSync(STEPSCOPE, ['import', '--logdir', logdir, '--run', RUN, ...RANK_TRACES], { encoding: 'utf8' });
  assert.equal(imported.status, 0, `stepscope import failed: ${imported.stderr}`);
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
