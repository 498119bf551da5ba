// The XLA pages - HLO stats, op profile and roofline model - on a real JAX profile
// (tracelens_jax_mi300_te_fused_attn): each page shows what the API returns for it, with
// the labels its tool declares (/api/tables), the op profile's tree expands and takes the
// include-idle toggle, the roofline draws its chart, and no request leaves the machine.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { browserTestEnv, closeDashboard, getJson, loadChromium, openDashboardOnProfile } from './harness.mjs';

const { STEPSCOPE, UI_ROOT, SHARED, SCREENSHOTS } = browserTestEnv();
const JAX_FILE = path.join(SHARED, 'testdata/xplane/tracelens_jax_mi300_te_fused_attn.xplane.pb');
const RUN = 'jax';
const HOST = 'mi300';

const chromium = loadChromium(UI_ROOT);

let dashboard;
let baseUrl;
let page;
let consoleErrors;
let externalRequests;
before(async () => {
  dashboard = await openDashboardOnProfile(chromium, { stepscope: STEPSCOPE, uiRoot: UI_ROOT, prefix: 'stepscope-hlo-', run: RUN, host: HOST, file: JAX_FILE, viewport: { width: 1500, height: 1000 } });
  ({ baseUrl, page, consoleErrors, externalRequests } = dashboard);
});
after(() => closeDashboard(dashboard, dashboard?.tmp));

const api = (pathAndQuery) => getJson(baseUrl, pathAndQuery);

async function openTool(tool, extra = '') {
  await page.goto(`${baseUrl}#run=${RUN}&tool=${tool}${extra}`);
  await page.waitForSelector(`#page [data-tool="${tool}"]`, { timeout: 120000 });
  await page.waitForFunction(() => [...document.querySelectorAll('.chart')].every((c) => c.dataset.ready === 'true'), null, { timeout: 30000 });
}

async function screenshot(name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true });
}

test('the three XLA tools are listed for a JAX profile', async () => {
  const tools = JSON.stringify(await api(`/api/tools?run=${RUN}`));
  for (const tool of ['hlo_stats', 'op_profile', 'roofline_model']) assert.ok(tools.includes(tool), `${tool} listed: ${tools}`);
});

test('HLO stats shows every HLO op with the declared labels', async () => {
  const data = await api(`/api/data?run=${RUN}&tool=hlo_stats`);
  const tables = await api(`/api/tables?run=${RUN}&tool=hlo_stats`);
  assert.ok(data.hlo_ops.length > 0);
  await openTool('hlo_stats');
  const summary = await page.locator('[data-card="summary"]').innerText();
  assert.match(summary, /Kernels joined to HLO/);
  assert.ok(summary.includes(`${data.summary.kernels_joined} of ${data.summary.kernels}`), summary);
  await page.locator('[data-table="hlo_ops"] button', { hasText: /show all/i }).first().click().catch(() => {});
  const shown = await page.locator('[data-table="hlo_ops"] tbody tr').count();
  assert.ok(shown >= Math.min(25, data.hlo_ops.length), `rows shown: ${shown}`);
  const header = await page.locator('[data-table="hlo_ops"] thead').innerText();
  const declared = tables.tables.find((t) => t.name === 'hlo_ops');
  const bound = declared.columns.find((c) => c.id === 'bound_by');
  assert.ok(header.includes(bound.label), `header carries the declared label "${bound.label}": ${header}`);
  const top = data.hlo_ops[0].op_name;
  assert.ok((await page.locator('[data-table="hlo_ops"] tbody').innerText()).includes(top), `top op ${top} shown`);
  await screenshot('hlo_stats.png');
});

test('the op profile nests programs, categories and ops and takes the idle toggle', async () => {
  const data = await api(`/api/data?run=${RUN}&tool=op_profile`);
  const program = data.root.children[0];
  await openTool('op_profile');
  const rows = page.locator('[data-table="op_profile"] tbody tr');
  assert.equal(await page.locator('[data-table="op_profile"] tr[data-level="program"]').count(), data.root.children.length);
  assert.equal(await page.locator('[data-table="op_profile"] tr[data-level="category"]').count(), program.children.length);
  // The first category (most wasted time) opens to its ops, in the tool's order.
  const category = program.children[0];
  await page.locator(`[data-table="op_profile"] tr[data-level="category"][data-name="${category.name}"] .tree-toggle`).click();
  const firstOp = page.locator('[data-table="op_profile"] tr[data-level="op"]').first();
  assert.equal(await firstOp.getAttribute('data-name'), category.children[0].name);
  assert.ok((await rows.count()) > data.root.children.length + program.children.length);
  await screenshot('op_profile.png');

  await page.locator('[data-control="include-idle"]').check();
  await page.waitForSelector('[data-table="op_profile"] tr[data-level="idle"]', { timeout: 60000 });
  const idle = await api(`/api/data?run=${RUN}&tool=op_profile&include_idle=1`);
  assert.equal(idle.include_idle, true);
  assert.ok(idle.root.children.some((c) => c.level === 'idle'));
});

test('the roofline places ops under the device roofs', async () => {
  const data = await api(`/api/data?run=${RUN}&tool=roofline_model`);
  assert.ok(data.summary.device.peak_tflops > 0);
  await openTool('roofline_model');
  assert.equal(await page.locator('[data-chart="roofline"]').count(), 1);
  const text = await page.locator('[data-card="roofline-chart"]').innerText();
  assert.match(text, /Ridge point/);
  assert.equal(await page.locator('[data-table="roofline"] tbody tr').count(), Math.min(25, data.roofline.length));
  await screenshot('roofline_model.png');
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(externalRequests, []);
});
