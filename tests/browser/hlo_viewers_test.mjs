// The Memory viewer and Graph viewer pages on a real JAX profile (MI300, fused attention):
// the pages show what the API computes (peak, buffers at the peak, the graph's nodes and
// edges), the module selector, op search, hop count and click-to-recentre work, and no
// request leaves the machine.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import fs from 'node:fs';
import { browserTestEnv, closeDashboard, getJson, loadChromium, openDashboardOnProfile } from './harness.mjs';

const { STEPSCOPE, UI_ROOT, SHARED, SCREENSHOTS } = browserTestEnv();
const PROFILE = path.join(SHARED, 'testdata/xplane/tracelens_jax_mi300_te_fused_attn.xplane.pb');
const RUN = 'jax';

const chromium = loadChromium(UI_ROOT);

let dashboard;
let baseUrl;
let page;
let consoleErrors;
let externalRequests;
before(async () => {
  dashboard = await openDashboardOnProfile(chromium, { stepscope: STEPSCOPE, uiRoot: UI_ROOT, prefix: 'stepscope-hlo-viewers-', run: RUN, host: 'mi300', file: PROFILE, viewport: { width: 1400, height: 1000 } });
  ({ baseUrl, page, consoleErrors, externalRequests } = dashboard);
});
after(() => closeDashboard(dashboard, dashboard?.tmp));

const api = (pathAndQuery) => getJson(baseUrl, pathAndQuery);

async function openTool(hash, tool) {
  await page.goto(`${baseUrl}#${hash}`);
  await page.waitForSelector(`#page [data-tool="${tool}"]`, { timeout: 120000 });
}

test('the Memory viewer shows the peak and the buffers live there, per module', async () => {
  const tools = await api(`/api/tools?run=${RUN}`);
  for (const id of ['memory_viewer', 'graph_viewer']) {
    assert.equal(tools.tools.find((t) => t.id === id)?.available, true, `${id} applies to a JAX profile`);
  }
  const data = await api(`/api/data?run=${RUN}&tool=memory_viewer`);
  assert.equal(data.has_buffer_assignment, true);
  assert.ok(data.peak_bytes > 0 && data.peak_buffers.length > 0);

  await openTool(`run=${RUN}&tool=memory_viewer`, 'memory_viewer');
  await page.waitForFunction(() => document.querySelector('[data-chart="memory_viewer_curve"]')?.dataset.ready === 'true', null, { timeout: 30000 });
  const summary = await page.locator('[data-card="memory-viewer-summary"]').innerText();
  assert.ok(summary.includes(String(data.peak_instruction)), `summary names the peak's instruction: ${summary}`);
  const rows = page.locator('[data-table="peak_buffers"] tbody tr');
  assert.equal(await rows.count(), Math.min(25, data.peak_buffers.length));
  assert.ok((await rows.first().innerText()).includes(data.peak_buffers[0].instruction), 'the largest buffer comes first');
  assert.match(await page.locator('[data-table="peak_buffers"] thead').innerText(), /Defined by/, 'columns carry the declared labels');
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'memory_viewer.png'), fullPage: true });

  // Another module: the page asks for it and shows its numbers.
  const other = data.modules.find((m) => m.name !== data.module);
  if (other) {
    await page.selectOption('#module-select', other.name);
    await page.waitForFunction((name) => new URLSearchParams(window.location.hash.slice(1)).get('module') === name, other.name);
    await page.waitForSelector('#page [data-tool="memory_viewer"]');
    const otherData = await api(`/api/data?run=${RUN}&tool=memory_viewer&module=${encodeURIComponent(other.name)}`);
    await page.waitForFunction((name) => document.querySelector('#module-select')?.value === name, other.name);
    if (otherData.has_buffer_assignment) {
      assert.equal(await page.locator('[data-table="peak_buffers"] tbody tr').count(), Math.min(25, otherData.peak_buffers.length));
    }
  }
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(externalRequests, []);
});

test('the Graph viewer draws the op neighbourhood, searches ops and recentres on click', async () => {
  // The op whose kernels took the most device time, in the default module (the one with
  // the most device time): its whole neighbourhood first, to find it.
  const whole = await api(`/api/data?run=${RUN}&tool=graph_viewer&hops=10&max_nodes=2000`);
  assert.equal(whole.timed, true, 'kernels are joined to the ops of the default module');
  const timed = whole.nodes.filter((n) => n.time_ms !== null).sort((a, b) => b.time_ms - a.time_ms);
  assert.ok(timed.length > 0);
  const op = timed[0].name;
  const largest = { name: whole.module };
  const search = await api(`/api/data?run=${RUN}&tool=graph_viewer&module=${encodeURIComponent(largest.name)}&op=usion`);
  assert.ok(search.candidate_count > 1, 'several ops of the module contain "usion"');
  const query = `module=${encodeURIComponent(largest.name)}&op=${encodeURIComponent(op)}&hops=2`;
  const data = await api(`/api/data?run=${RUN}&tool=graph_viewer&${query}`);
  assert.equal(data.center, op);
  assert.ok(data.nodes.find((n) => n.center).time_ms > 0, 'the centre carries its device time');

  await openTool(`run=${RUN}&tool=graph_viewer&${query}`, 'graph_viewer');
  await page.waitForSelector('[data-graph="hlo"] svg');
  assert.equal(await page.locator('[data-graph="hlo"] .graph-node').count(), data.nodes.length);
  assert.equal(await page.locator('[data-graph="hlo"] .graph-edge').count(), data.edges.length);
  assert.equal(await page.locator('[data-table="graph_nodes"] tbody tr').count(), Math.min(25, data.nodes.length));
  assert.match(await page.locator(`[data-graph="hlo"] .graph-node[data-node="${op}"]`).textContent(), /on device/, 'the centre shows its device time');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOTS, 'graph_viewer.png'), fullPage: true });

  // Click a neighbour: it becomes the centre.
  const neighbour = data.nodes.find((n) => !n.center);
  assert.ok(neighbour, 'the op has a neighbour');
  await page.locator(`[data-graph="hlo"] .graph-node[data-node="${neighbour.name}"]`).click();
  await page.waitForFunction((name) => new URLSearchParams(window.location.hash.slice(1)).get('op') === name, neighbour.name);
  await page.waitForFunction((name) => document.querySelector('[data-card="graph-view"] .card-title')?.textContent?.includes(name), neighbour.name, { timeout: 60000 });

  // Hop count 0: only the centre.
  await page.selectOption('#graph-hops', '0');
  await page.waitForFunction(() => document.querySelectorAll('[data-graph="hlo"] .graph-node').length === 1, null, { timeout: 60000 });

  // Search by part of a name: several matches are listed, one click shows it.
  await page.fill('#graph-op-search', 'usion');
  await page.click('#graph-op-go');
  await page.waitForSelector('[data-candidates] a[data-op]', { timeout: 60000 });
  const first = await page.locator('[data-candidates] a[data-op]').first().getAttribute('data-op');
  await page.locator('[data-candidates] a[data-op]').first().click();
  await page.waitForFunction((name) => document.querySelector('[data-card="graph-view"] .card-title')?.textContent?.includes(name), first, { timeout: 60000 });
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(externalRequests, []);
});
