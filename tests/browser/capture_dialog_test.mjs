// Browser test of the "Capture profile" dialog (ui/src/components/capture_dialog.ts, backed
// by POST /api/capture), driven like a user would: the example program trains with its
// profiler server on (`mnist_mlp --profiler_port P`), the dashboard of an empty logdir is
// opened, the dialog records the program for 500 ms, reports the worker as captured, and
// opens the new run, whose overview shows its steps. A second capture from an address
// where nothing listens reports that worker's failure, naming the address, and writes no
// run. No console errors, no request off 127.0.0.1; a screenshot of the dialog goes to
// $STEPSCOPE_SCREENSHOT_DIR/capture_dialog.png (<build>/screenshots; `./dev screenshots`
// copies it to docs/screenshots/). Every process it starts is killed in `after`.
//
// Run by ctest (tests/browser/CMakeLists.txt), which sets the environment below.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { browserTestEnv, canConnect, env, freePort, getJson, killOnExit, loadChromium, openBrowser, startServe, stop } from './harness.mjs';

const { STEPSCOPE, UI_ROOT, SCREENSHOTS } = browserTestEnv();
const MNIST = env('STEPSCOPE_MNIST_BIN');

const chromium = loadChromium(UI_ROOT);

let tmp;
let logdir;
let server;
let baseUrl;
let trainer;
let trainerOutput = '';
let profilerPort;
let browser;
let page;
let capturedRun;
let consoleErrors;
let externalRequests;
let requestHosts;

// The example program with its profiler server on `port`; resolves once the port accepts
// connections (after the dataset is generated, which takes a few seconds the first time).
async function startTrainer(port) {
  // killOnExit: if node dies before `after` runs, no training process is left behind.
  trainer = killOnExit(
    spawn(
      MNIST,
      ['--steps', '100000', '--train_examples', '4096', '--log_every', '0', '--profiler_port', String(port), '--data_dir', path.join(tmp, 'mnist_data')],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    ),
  );
  trainer.stdout.on('data', (d) => (trainerOutput += d));
  trainer.stderr.on('data', (d) => (trainerOutput += d));
  const deadline = Date.now() + 180000;
  while (Date.now() < deadline) {
    if (trainer.exitCode !== null || trainer.signalCode !== null) {
      throw new Error(`mnist_mlp exited (${trainer.exitCode ?? trainer.signalCode}) before its profiler server listened: ${trainerOutput}`);
    }
    if (await canConnect(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`mnist_mlp's profiler server did not listen on ${port} within 180 s: ${trainerOutput}`);
}

const api = (pathAndQuery) => getJson(baseUrl, pathAndQuery);

// Opens the dialog from the top bar, fills it in as a user would and submits; resolves
// when the dialog shows the outcome (the status turns `done` or `failed`).
async function captureFromDialog(addresses, durationMs) {
  await page.click('#capture-button');
  await page.waitForSelector('#capture-dialog[open]');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'capture-addresses', 'the address field has the focus');
  await page.fill('#capture-addresses', addresses);
  await page.fill('#capture-duration', String(durationMs));
  await page.click('#capture-submit');
  // While it runs, the dialog says so and the button cannot be pressed twice.
  await page.waitForSelector('#capture-dialog .capture-status.busy, #capture-dialog .capture-status.done, #capture-dialog .capture-status.failed');
  await page.waitForSelector('#capture-dialog .capture-status.done, #capture-dialog .capture-status.failed', { timeout: 120000 });
  assert.equal(await page.isDisabled('#capture-submit'), false, 'the Capture button is enabled again');
}

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stepscope-capture-dialog-'));
  logdir = path.join(tmp, 'logdir');
  fs.mkdirSync(logdir);
  profilerPort = await freePort();
  await startTrainer(profilerPort);
  ({ server, baseUrl } = await startServe(STEPSCOPE, { logdir, uiRoot: UI_ROOT }));
  // Every request is checked: anything not addressed to this machine is recorded and refused.
  ({ browser, page, consoleErrors, externalRequests, requestHosts } = await openBrowser(chromium, {
    allowedHostnames: ['127.0.0.1'],
    viewport: { width: 1440, height: 900 },
  }));
});

after(async () => {
  await browser?.close();
  await stop(trainer);
  await stop(server);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('the dialog captures the running example program and opens the new run', async () => {
  await page.goto(baseUrl);
  await page.waitForSelector('#capture-button');
  assert.deepEqual((await api('/api/runs')).runs, [], 'the logdir starts empty');

  await captureFromDialog(`grpc://127.0.0.1:${profilerPort}`, 500);
  const status = page.locator('#capture-dialog .capture-status');
  assert.match(await status.getAttribute('class'), /\bdone\b/, `capture failed: ${await status.innerText()}; mnist_mlp: ${trainerOutput}`);
  // One line per worker, this one captured with its size and events.
  const worker = page.locator(`#capture-dialog li[data-address="127.0.0.1:${profilerPort}"]`);
  assert.equal(await worker.count(), 1);
  assert.match(await worker.getAttribute('class'), /capture-ok/);
  const workerText = await worker.innerText();
  assert.match(workerText, new RegExp(`127\\.0\\.0\\.1:${profilerPort}`));
  assert.match(workerText, /captured — [\d.]+ (B|KiB|MiB), [\d,]+ events/);
  const summary = await status.locator(':scope > div').first().innerText();
  const match = /^1 of 1 captured into run (\S+)\.$/.exec(summary);
  assert.ok(match, summary);
  capturedRun = match[1];
  // The run is on disk, with this worker's profile.
  const runs = (await api('/api/runs')).runs;
  assert.deepEqual(runs.map((r) => r.name), [capturedRun]);
  assert.ok(runs[0].hosts.includes(`127.0.0.1_${profilerPort}`), runs[0].hosts.join());

  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'capture_dialog.png') });

  // "Open <run>": the dialog closes, the run selector lists and shows the new run, and its
  // overview renders the captured steps.
  assert.equal(await page.innerText('#capture-open'), `Open ${capturedRun}`);
  await page.click('#capture-open');
  await page.waitForSelector('#capture-dialog', { state: 'detached' });
  await page.waitForSelector('#page [data-tool="overview_page"] [data-chart="step_time_graph"][data-ready="true"]', { timeout: 120000 });
  assert.equal(await page.inputValue('#run-select'), capturedRun);
  assert.equal(await page.inputValue('#tool-select'), 'overview_page');
  assert.match(page.url(), new RegExp(`run=${encodeURIComponent(capturedRun)}`));
  const data = await api(`/api/data?run=${encodeURIComponent(capturedRun)}&tool=overview_page`);
  assert.ok(data.steps > 0, `the capture holds steps (got ${data.steps})`);
  assert.match(await page.textContent('[data-card="summary"]'), new RegExp(`over ${data.steps} steps`));
});

test('a capture from an address where nothing listens reports that worker as failed', async () => {
  const dead = `127.0.0.1:${await freePort()}`;
  await captureFromDialog(`grpc://${dead}`, 500);
  const status = page.locator('#capture-dialog .capture-status');
  assert.match(await status.getAttribute('class'), /\bfailed\b/);
  assert.match(await status.innerText(), /no worker was captured/i);
  const worker = page.locator(`#capture-dialog li[data-address="${dead}"]`);
  assert.equal(await worker.count(), 1);
  assert.match(await worker.getAttribute('class'), /capture-failed/);
  const text = await worker.innerText();
  // The address, how often it was tried (the dialog's default: 3 retries) and gRPC's reason.
  assert.ok(text.startsWith(dead), text);
  assert.match(text, /failed after 4 attempts: UNAVAILABLE/);
  assert.match(text, /Connection refused|failed to connect/i);
  assert.equal(await page.locator('#capture-open').count(), 0, 'nothing to open');
  // Nothing was written: the run list still holds only the first capture.
  assert.deepEqual((await api('/api/runs')).runs.map((r) => r.name), [capturedRun]);
  // Close leaves the page as it was.
  await page.click('#capture-close');
  await page.waitForSelector('#capture-dialog', { state: 'detached' });
  assert.equal(await page.inputValue('#run-select'), capturedRun);
});

test('no console errors and no request outside 127.0.0.1', () => {
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(externalRequests, []);
  for (const host of requestHosts) assert.match(host, /^127\.0\.0\.1(:\d+)?$/);
});
