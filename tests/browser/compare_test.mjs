// Browser test of the Compare page: the example program profiled with a slow input
// pipeline (everything on the training thread) and a fast one (threads, prefetch, cache),
// and the two PyTorch rank traces of shared/testdata imported as runs; a real
// `stepscope serve`, Debian's Chromium through playwright-core.
//
// Checks: every number the page shows (before/after table, step-time categories, input
// verdicts, the ops that changed most) equals /api/compare's to the digits shown; changes
// are coloured (the faster run's step time and input share green, red when A and B are
// swapped); the run pickers, the swap button and the top bar's Compare link work; added and
// removed ops are listed; no console errors and no request off this machine. Screenshots:
// $STEPSCOPE_SCREENSHOT_DIR/compare.png and compare_pytorch_ranks.png.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { browserTestEnv, closeDashboard, env, getJson, importTraces, loadChromium, openDashboard } from './harness.mjs';

const { STEPSCOPE, UI_ROOT, SHARED, SCREENSHOTS } = browserTestEnv();
const MNIST = env('STEPSCOPE_MNIST_BIN');
const RANK_TRACES = ['hta_sampled_rank-0.json.gz', 'hta_sampled_rank-1.json.gz'].map((f) => path.join(SHARED, 'testdata/traces', f));

const chromium = loadChromium(UI_ROOT);

const RUN_SLOW = 'slow_input';
const RUN_FAST = 'fast_input';
const RUN_RANK0 = 'rank0';
const RUN_RANK1 = 'rank1';

let tmp;
let dashboard;
let baseUrl;
let page;
let consoleErrors;
let externalRequests;

// Runs the example into its own logdir and moves its run into `logdir` as `name`.
function profileExample(logdir, name, flags) {
  const own = path.join(tmp, name);
  const trained = spawnSync(
    MNIST,
    ['--log_every', '0', '--train_examples', '1024', '--logdir', own, '--data_dir', path.join(tmp, 'mnist_data'), ...flags],
    { encoding: 'utf8', timeout: 300000 },
  );
  assert.equal(trained.status, 0, `mnist_mlp ${flags.join(' ')} failed: ${trained.stderr}`);
  const root = path.join(own, 'plugins', 'profile');
  const [run] = fs.readdirSync(root);
  fs.renameSync(path.join(root, run), path.join(logdir, 'plugins', 'profile', name));
}

function makeProfiles() {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stepscope-compare-'));
  const logdir = path.join(tmp, 'logdir');
  fs.mkdirSync(path.join(logdir, 'plugins', 'profile'), { recursive: true });
  // The slow run also waits on its reads (a sleep, 64 x 100 us a step): slower than the fast
  // one even when other work takes the cores its input threads need (ctest -j, CI).
  profileExample(logdir, RUN_SLOW, ['--steps', '20', '--input_threads', '0', '--prefetch', '0', '--read_delay_us', '100']);
  profileExample(logdir, RUN_FAST, ['--steps', '40', '--profile_steps', '16,39', '--input_threads', '2', '--prefetch', '16', '--cache']);
  RANK_TRACES.forEach((trace, i) => importTraces(STEPSCOPE, logdir, i === 0 ? RUN_RANK0 : RUN_RANK1, [trace]));
  return logdir;
}

const api = (pathAndQuery) => getJson(baseUrl, pathAndQuery);

// Decimals the page shows for a unit (pages/compare.ts): the tolerance of a shown number.
const decimalsFor = (unit) => (unit === '%' ? 1 : unit === 'count' ? 0 : 3);
// "+1,234.500 ms" -> 1234.5; "–" -> null.
function shownNumber(text) {
  const digits = text.replace(/[^0-9.+-]/g, '');
  return digits === '' ? null : Number(digits);
}

function assertShown(text, expected, decimals, what) {
  if (expected === null || expected === undefined) {
    assert.equal(shownNumber(text), null, `${what}: shows "${text}" for a value the API leaves out`);
    return;
  }
  const shown = shownNumber(text);
  assert.notEqual(shown, null, `${what}: shows "${text}", the API has ${expected}`);
  assert.ok(Math.abs(shown - expected) <= 0.5 * 10 ** -decimals + 1e-9, `${what}: shows ${text}, the API has ${expected}`);
}

async function cellText(table, rowAttr, key, col) {
  return page.$eval(`[data-compare-table="${table}"] tr[${rowAttr}="${key}"] td[data-col="${col}"]`, (td) => td.textContent.trim());
}

async function openCompare(runA, runB) {
  await page.goto(`${baseUrl}#view=compare&run_a=${runA}&run_b=${runB}`);
  await page.waitForSelector('#page [data-tool="compare"] [data-compare-table="summary"]', { timeout: 120000 });
  await page.waitForFunction(() => [...document.querySelectorAll('.chart')].every((c) => c.dataset.ready === 'true'), null, { timeout: 30000 });
}

async function screenshot(name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

before(async () => {
  const logdir = makeProfiles();
  dashboard = await openDashboard(chromium, STEPSCOPE, {
    logdir,
    uiRoot: UI_ROOT,
    viewport: { width: 1440, height: 900 },
    allowedHostnames: ['127.0.0.1'],
  });
  ({ baseUrl, page, consoleErrors, externalRequests } = dashboard);
});

after(async () => {
  await closeDashboard(dashboard, tmp);
});

test('every number of the slow vs fast comparison is the API\'s', async () => {
  await openCompare(RUN_SLOW, RUN_FAST);
  const d = await api(`/api/compare?run_a=${RUN_SLOW}&run_b=${RUN_FAST}`);
  assert.equal(d.tool, 'diff');
  const shownLabels = await page.$$eval('.compare-sides [data-side]', (nodes) => nodes.map((n) => n.textContent));
  assert.ok(shownLabels[0].includes(d.a.label) && shownLabels[1].includes(d.b.label), `sides: ${shownLabels}`);
  assert.equal(await page.$eval('[data-statement]', (n) => n.textContent), d.statement);

  for (const m of d.summary) {
    const decimals = decimalsFor(m.unit);
    for (const col of ['a', 'b', 'delta']) assertShown(await cellText('summary', 'data-metric', m.metric, col), m[col], decimals, `${m.metric} ${col}`);
    assertShown(await cellText('summary', 'data-metric', m.metric, 'delta_percent'), m.delta_percent, 1, `${m.metric} delta_percent`);
    assert.equal(await cellText('summary', 'data-metric', m.metric, 'label'), m.label);
  }
  assert.ok(d.step_time_breakdown.length >= 3, 'the example has input, host compute and other time');
  for (const c of d.step_time_breakdown) {
    for (const col of ['a_ms', 'b_ms', 'delta_ms']) assertShown(await cellText('step_time_breakdown', 'data-category', c.category, col), c[col], 3, `${c.category} ${col}`);
    for (const col of ['delta_percent', 'a_percent', 'b_percent']) assertShown(await cellText('step_time_breakdown', 'data-category', c.category, col), c[col], 1, `${c.category} ${col}`);
  }
  // The table's headers are the declared labels (/api/compare/tables).
  const tables = (await api(`/api/compare/tables?run_a=${RUN_SLOW}&run_b=${RUN_FAST}`)).tables;
  const declared = tables.find((t) => t.name === 'step_time_breakdown').columns.map((c) => c.label).filter((l) => l !== 'Category key');
  assert.deepEqual(await page.$$eval('[data-compare-table="step_time_breakdown"] th', (ths) => ths.map((th) => th.textContent)), declared);

  // Both input verdicts, as the API gives them: slow is highly input bound by construction.
  for (const v of d.input_verdicts) {
    const box = `.compare-verdict[data-side="${v.side}"]`;
    assert.equal(await page.$eval(box, (n) => n.dataset.verdict), v.verdict);
    assertShown(await page.$eval(`${box} [data-col="input_bound_percent"]`, (n) => n.textContent), v.input_bound_percent, 1, `input ${v.side}`);
  }
  assert.equal(d.input_verdicts[0].verdict, 'highly');

  // Faster steps and less input: both changes green.
  const tone = (metric) => page.$eval(`tr[data-metric="${metric}"] td[data-col="delta"] .delta`, (n) => n.dataset.tone);
  const mean = d.summary.find((m) => m.metric === 'step_time_mean_ms');
  assert.ok(mean.delta < 0, `the fast pipeline is faster: ${JSON.stringify(mean)}`);
  assert.equal(await tone('step_time_mean_ms'), 'good');
  assert.equal(await tone('input_bound_percent'), 'good');

  // The ops that changed most: the API's order, its numbers.
  const matched = d.ops.filter((o) => o.change === 'matched');
  assert.ok(matched.length > 0);
  // Text cells as their full text (on hover where a long one shows its head and tail).
  const firstRow = await page.$$eval('[data-table="ops-matched"] tbody tr', (trs) => [...trs[0].children].map((td) => td.getAttribute('title') || td.textContent.trim()));
  const opColumns = tables.find((t) => t.name === 'ops').columns.filter((c) => c.id !== 'change');
  const at = (id) => firstRow[opColumns.findIndex((c) => c.id === id)];
  assert.equal(at('name'), matched[0].name);
  assertShown(at('delta_ms'), matched[0].delta_ms, 3, 'top op delta_ms');
  assertShown(at('a_self_time_ms'), matched[0].a_self_time_ms, 3, 'top op a');
  assertShown(at('b_self_time_ms'), matched[0].b_self_time_ms, 3, 'top op b');
  // The tab counts are the API's.
  const tabTexts = await page.$$eval('[data-card="ops"] .tab', (tabs) => tabs.map((t) => t.textContent));
  for (const [i, change] of ['matched', 'added', 'removed'].entries()) {
    assert.ok(tabTexts[i].endsWith(`(${d.ops.filter((o) => o.change === change).length})`), `${change}: ${tabTexts[i]}`);
  }
  await screenshot('compare');
});

test('swapping A and B turns the changes red; the pickers choose the runs', async () => {
  await openCompare(RUN_SLOW, RUN_FAST);
  await page.click('#compare-swap');
  await page.waitForFunction((fast) => window.location.hash.includes(`run_a=${fast}`), RUN_FAST);
  await page.waitForSelector('[data-compare-table="summary"]');
  await page.waitForFunction(() => document.querySelector('#compare-run-a')?.value === 'fast_input');
  const tone = await page.$eval('tr[data-metric="step_time_mean_ms"] td[data-col="delta"] .delta', (n) => n.dataset.tone);
  assert.equal(tone, 'bad');
  await page.selectOption('#compare-run-b', RUN_RANK1);
  await page.waitForFunction((r) => window.location.hash.includes(`run_b=${r}`), RUN_RANK1);
  await page.waitForFunction(() => document.querySelector('[data-side="b"]')?.textContent.includes('rank1'));
});

test('the two PyTorch rank traces: ops and kernels matched by name, added and removed listed', async () => {
  await openCompare(RUN_RANK0, RUN_RANK1);
  const d = await api(`/api/compare?run_a=${RUN_RANK0}&run_b=${RUN_RANK1}`);
  assert.ok(d.kernels.length > 0, 'GPU traces: kernels are compared');
  await page.waitForSelector('[data-card="kernels"] [data-table="kernels-matched"]');
  // The full name is on hover (a kernel's label tells template instances apart).
  const kernelNames = await page.$$eval('[data-table="kernels-matched"] tbody tr', (trs) => trs.map((tr) => tr.children[0].querySelector('[title]')?.getAttribute('title') ?? tr.children[0].textContent.trim()));
  const matched = d.kernels.filter((k) => k.change === 'matched').slice(0, 10).map((k) => k.kernel_name);
  assert.deepEqual(kernelNames, matched);
  for (const m of d.summary) {
    assertShown(await cellText('summary', 'data-metric', m.metric, 'b'), m.b, decimalsFor(m.unit), `${m.metric} b`);
  }
  // The "added" tab lists what only B has.
  await page.click('[data-card="ops"] .tab[data-tab="added"]');
  const added = d.ops.filter((o) => o.change === 'added');
  const rows = await page.$$eval('[data-table="ops-added"] tbody tr:not(.empty-row)', (trs) => trs.length);
  assert.equal(rows, Math.min(10, added.length));
  await page.click('[data-card="ops"] .tab[data-tab="matched"]');
  await screenshot('compare_pytorch_ranks');
});

test('the top bar leads to Compare and back; nothing fails and nothing leaves localhost', async () => {
  await page.goto(`${baseUrl}#run=${RUN_SLOW}&tool=overview_page`);
  await page.waitForSelector('#page [data-tool="overview_page"]', { timeout: 120000 });
  await page.click('#nav-compare');
  await page.waitForSelector('#page [data-tool="compare"] [data-compare-table="summary"]', { timeout: 120000 });
  assert.ok(await page.$eval('#nav-compare', (n) => n.classList.contains('active')));
  assert.ok(await page.$eval('#tool-select', (n) => n.parentElement.hidden), 'no tool to choose while comparing');
  // Changes that round to zero are not coloured and carry no sign.
  const zeros = await page.$$eval('.delta', (spans) => spans.filter((s) => /^[+-]0(\.0+)?( |$)/.test(s.textContent)).map((s) => s.textContent));
  assert.deepEqual(zeros, []);
  await page.click('#nav-profile');
  await page.waitForSelector('#page [data-tool="overview_page"]', { timeout: 120000 });
  assert.ok(!(await page.$eval('#tool-select', (n) => n.parentElement.hidden)));
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(externalRequests, []);
});
