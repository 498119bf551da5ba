// The plumbing the browser tests (tests/browser/*_test.mjs) share: the environment ctest
// sets, playwright-core and Debian's Chromium, logdirs holding a profile or imported
// traces, a real `stepscope serve` on a free loopback port, a page that refuses every
// request off this machine and collects console errors, and starting/stopping child
// processes. What each test checks, and every assertion on what is collected here, stays
// in the test file.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// A variable the test cannot run without. The tests run through ctest
// (tests/browser/CMakeLists.txt), which sets them all; saying so beats a confusing
// spawn error later.
export function env(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (run this test through ctest)`);
  return value;
}

// Debian's Chromium: playwright-core downloads no browser here, it drives the system one.
export const CHROMIUM = process.env.STEPSCOPE_CHROMIUM || '/usr/bin/chromium';

// The flags Chromium needs on this closed network (no background connections at all).
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

// playwright-core's `chromium`, resolved from ui/node_modules (tests/browser has no
// package.json of its own). Checks the built UI and the browser are there too, so a
// missing setup step is named at load time instead of showing up as a timeout.
export function loadChromium(uiRoot) {
  const require = createRequire(path.join(uiRoot, 'package.json'));
  let chromium;
  try {
    ({ chromium } = require('playwright-core'));
  } catch {
    throw new Error(`playwright-core is not installed in ${uiRoot}/node_modules: run ./dev setup (npm ci in ui/)`);
  }
  if (!fs.existsSync(path.join(uiRoot, 'dist', 'index.html'))) {
    throw new Error(`the UI is not built (${uiRoot}/dist/index.html missing): run ./dev build`);
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: run ./dev setup (installs Debian's chromium)`);
  return chromium;
}

// Whether a child process is still alive (neither exited nor ended by a signal).
export const isRunning = (child) => child.exitCode === null && child.signalCode === null;

// Last resort if node dies before a test's `after` runs: every child registered here is
// SIGKILLed on exit, so a failed run leaves no server or training process behind.
const children = new Set();
export function killOnExit(child) {
  if (children.size === 0) {
    process.on('exit', () => {
      for (const c of children) if (isRunning(c)) c.kill('SIGKILL');
    });
  }
  children.add(child);
  return child;
}

// `stepscope serve` of `logdir` with the built UI, on a port the OS picks (--port 0, so
// parallel runs never collide). Resolves with the child and the URL of its
// "stepscope: serving <url> (Ctrl-C to stop)" line, which it prints once it listens;
// rejects with serve's stderr if it exits or prints no URL within 30 s.
export async function startServe(stepscope, { logdir, uiRoot }) {
  const server = killOnExit(
    spawn(stepscope, ['serve', '--logdir', logdir, '--port', '0', '--ui_dir', path.join(uiRoot, 'dist')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let stderr = '';
  server.stderr.on('data', (d) => (stderr += d));
  const baseUrl = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      server.kill('SIGKILL');
      reject(new Error(`serve printed no URL in 30 s; stderr: ${stderr}`));
    }, 30000);
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
  return { server, baseUrl };
}

// GET `pathAndQuery` from the server as JSON, asserting HTTP 200 first so a failing
// endpoint is reported by its path rather than as a JSON parse error.
export async function getJson(baseUrl, pathAndQuery) {
  const response = await fetch(new URL(pathAndQuery, baseUrl));
  assert.equal(response.status, 200, `${pathAndQuery}: HTTP ${response.status}`);
  return response.json();
}

// A headless Chromium page (`contextOptions` as for browser.newContext) in which every
// request is checked: the dashboard must work offline, so a request to a host other than
// `allowedHostnames` is refused and recorded in `externalRequests`; every host asked for
// goes to `requestHosts`; console errors and uncaught page errors go to `consoleErrors`.
// The tests assert on these at their end.
export async function openBrowser(chromium, { allowedHostnames, ...contextOptions }) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const consoleErrors = [];
  const externalRequests = [];
  const requestHosts = new Set();
  try {
    const context = await browser.newContext(contextOptions);
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      requestHosts.add(url.host);
      if (allowedHostnames.includes(url.hostname)) return route.continue();
      externalRequests.push(url.href);
      return route.abort();
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`page error: ${error.message}`));
    return { browser, context, page, consoleErrors, externalRequests, requestHosts };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

// A loopback port nothing listens on right now (the OS picks it; the listener is closed
// again): for a server the test starts itself, or an address that must refuse.
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// Whether 127.0.0.1:`port` accepts a TCP connection: how a test waits for a server it
// started to listen.
export function canConnect(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

// Stops a child: SIGTERM, then SIGKILL if it has not exited within `ms`, so `after`
// never hangs on it. Resolves with its exit code (null if a signal ended it; its last
// exit code if it had already stopped).
export async function stop(child, ms = 10000) {
  if (!child) return undefined;
  if (!isRunning(child)) return child.exitCode;
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

// A temporary logdir (under the OS's temp dir, named after `prefix`) whose run `run` holds
// `file` as host `host`'s profile. Returns { tmp, logdir }; remove `tmp` when done.
export function logdirWithProfile(prefix, { run, host, file }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const logdir = path.join(tmp, 'logdir');
  const runDir = path.join(logdir, 'plugins', 'profile', run);
  fs.mkdirSync(runDir, { recursive: true });
  fs.copyFileSync(file, path.join(runDir, `${host}.xplane.pb`));
  return { tmp, logdir };
}

// `stepscope import` of the trace files `traces` into `logdir` as run `run` (one host per
// file); fails the test with stepscope's stderr if the import fails.
export function importTraces(stepscope, logdir, run, traces) {
  const imported = spawnSync(stepscope, ['import', '--logdir', logdir, '--run', run, ...traces], { encoding: 'utf8' });
  assert.equal(imported.status, 0, `stepscope import ${traces.join(' ')} failed: ${imported.stderr}`);
}

// `stepscope serve` of `logdir` and a browser page that may reach only this machine
// (`allowedHostnames`): { server, baseUrl, browser, page, consoleErrors, externalRequests,
// requestHosts }.
export async function openDashboard(
  chromium,
  stepscope,
  { logdir, uiRoot, viewport, allowedHostnames = ['127.0.0.1', 'localhost'] },
) {
  const { server, baseUrl } = await startServe(stepscope, { logdir, uiRoot });
  const opened = await openBrowser(chromium, { allowedHostnames, viewport });
  return { server, baseUrl, ...opened };
}

// Closes what openDashboard opened and removes `tmp` (if given).
export async function closeDashboard(dashboard, tmp) {
  await dashboard?.browser?.close();
  await stop(dashboard?.server);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
}

// The variables ctest sets for every browser test (tests/browser/CMakeLists.txt).
export function browserTestEnv() {
  return {
    STEPSCOPE: env('STEPSCOPE_BIN'),
    UI_ROOT: env('STEPSCOPE_UI_ROOT'),
    SHARED: env('STEPSCOPE_SHARED_DIR'),
    SCREENSHOTS: env('STEPSCOPE_SCREENSHOT_DIR'),
  };
}

// A test file's dashboard on one profile: `file` in a temporary logdir
// (logdirWithProfile) and openDashboard on it. Returns what openDashboard gives plus
// `tmp`, for closeDashboard(dashboard, dashboard.tmp); removes `tmp` itself if opening fails.
export async function openDashboardOnProfile(chromium, { stepscope, uiRoot, prefix, run, host, file, viewport }) {
  const { tmp, logdir } = logdirWithProfile(prefix, { run, host, file });
  try {
    return { tmp, ...(await openDashboard(chromium, stepscope, { logdir, uiRoot, viewport })) };
  } catch (error) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}
