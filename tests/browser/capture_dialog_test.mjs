// Browser test of the "Capture profile" dialog (ui/src/components/capture_dialog.ts, backed
// by POST /api/capture), driven like a user would: the example program trains with its
// profiler server on (`mnist_mlp --profiler_port P`), the dashboard of an empty logdir is
// opened, the dialog records the program for 500 ms, reports the worker as captured, and
// opens the new run, whose overview shows its steps. A second capture from an address
// where nothing listens reports that worker's failure, naming the address, and writes no
// run. No console errors, no request off 127.0.0.1; a screenshot of the dialog goes to
// docs/screenshots/capture_dialog.png. Every process it starts is killed in `after`.
//
// Run by ctest (tests/browser/CMakeLists.txt), which sets the environment below.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (run this test through ctest)`);
  return value;
};
const STEPSCOPE = env('STEPSCOPE_BIN');
const MNIST = env('STEPSCOPE_MNIST_BIN');
const UI_ROOT = env('STEPSCOPE_UI_ROOT');
const SCREENSHOTS = env('STEPSCOPE_SCREENSHOT_DIR');
const CHROMIUM = process.env.STEPSCOPE_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const require = createRequire(path.join(UI_ROOT, 'package.json'));
const { chromium } = require('playwright-core');
if (!fs.existsSync(path.join(UI_ROOT, 'dist', 'index.html'))) throw new Error(`the UI is not built: run ./dev build`);
if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: run ./dev setup (installs Debian's chromium)`);

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
const consoleErrors = [];
const externalRequests = [];
const requestHosts = new Set();

// Last resort if node dies before `after` runs: no training process is left behind.
process.on('exit', () => {
  for (const child of [trainer, server]) if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

// A port nothing listens on right now (the OS picks it; the listener is closed again).
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function canConnect(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

// The example program with its profiler server on `port`; resolves once the port accepts
// connections (after the dataset is generated, which takes a few seconds the first time).
async function startTrainer(port) {
  trainer = spawn(
    MNIST,
    ['--steps', '100000', '--train_examples', '4096', '--log_every', '0', '--profiler_port', String(port), '--data_dir', path.join(tmp, 'mnist_data')],
    { stdio: ['ignore', 'pipe', 'pipe'] },
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

async function startServer() {
  server = spawn(STEPSCOPE, ['serve', '--logdir', logdir, '--port', '0', '--ui_dir', path.join(UI_ROOT, 'dist')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  server.stderr.on('data', (d) => (stderr += d));
  baseUrl = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in 30 s; stderr: ${stderr}`)), 30000);
    server.stdout.on('data', (d) => {
      out += d;
      const match = /stepscope: serving (http:\/\/127\.0\.0\.1:\d+\/) \(Ctrl-C to stop\)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    server.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

async function api(pathAndQuery) {
  const response = await fetch(new URL(pathAndQuery, baseUrl));
  assert.equal(response.status, 200, `${pathAndQuery}: HTTP ${response.status}`);
  return response.json();
}

// Stops a child: SIGTERM, then SIGKILL if it has not exited within `ms`.
async function stop(child, ms = 10000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  await exited;
  clearTimeout(timer);
}

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
  await startServer();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  // Every request is checked: anything not addressed to this machine is recorded and refused.
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    requestHosts.add(url.host);
    if (url.hostname === '127.0.0.1') return route.continue();
    externalRequests.push(url.href);
    return route.abort();
  });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`page error: ${error.message}`));
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
