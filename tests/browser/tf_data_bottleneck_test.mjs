// Browser test of the "tf.data bottleneck analysis" page on TensorFlow's multi-GPU demo
// XSpace (two per-device pipelines, each a Prefetch over a Generator, linked across threads
// by PrefetchProduce/PrefetchConsume): every pipeline is drawn as a graph whose nodes are
// its stages (as /api/data lists them), the bottleneck outlined and coloured hottest; the
// summary names the stage the API names; the tables carry the labels /api/tables declares.
// The input pipeline analyzer's page names the stage and links here. No console errors; a
// screenshot goes to $STEPSCOPE_SCREENSHOT_DIR/tf_data_bottleneck.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { browserTestEnv, closeDashboard, getJson, loadChromium, openDashboardOnProfile } from './harness.mjs';

const { STEPSCOPE, UI_ROOT, SHARED, SCREENSHOTS } = browserTestEnv();
const TF_GPU_FILE = path.join(SHARED, 'testdata/xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb');
const RUN = 'tf_gpu_demo';
const HOST = '34.83.195.179_6003';
const TOOL = 'tf_data_bottleneck_analysis';

const chromium = loadChromium(UI_ROOT);
let dashboard;
let baseUrl;
let page;
let consoleErrors;
before(async () => {
  dashboard = await openDashboardOnProfile(chromium, { stepscope: STEPSCOPE, uiRoot: UI_ROOT, prefix: 'stepscope-tf-data-', run: RUN, host: HOST, file: TF_GPU_FILE, viewport: { width: 1500, height: 1300 } });
  ({ baseUrl, page, consoleErrors } = dashboard);
});
after(() => closeDashboard(dashboard, dashboard?.tmp));

test('the pipeline graph and tables show what the API says', async () => {
  const data = await getJson(baseUrl, `/api/data?run=${RUN}&tool=${TOOL}&host=${HOST}`);
  const declared = await getJson(baseUrl, `/api/tables?run=${RUN}&tool=${TOOL}&host=${HOST}`);
  assert.ok(data.pipelines.length >= 1, 'the file has pipelines');
  assert.ok(data.bottleneck, 'and a bottleneck');
  await page.goto(`${baseUrl}#run=${RUN}&tool=${TOOL}&host=${HOST}`);
  await page.waitForSelector(`[data-page=${TOOL}]`, { timeout: 60000 });
  await page.waitForSelector('svg.graph', { timeout: 60000 });

  // One graph per pipeline; its nodes are that pipeline's stages, by iterator id.
  for (const pipeline of data.pipelines) {
    const graph = page.locator(`svg.graph[data-graph="${pipeline.pipeline}"]`);
    assert.equal(await graph.count(), 1, pipeline.pipeline);
    const ids = data.stages.filter((s) => s.pipeline === pipeline.pipeline).map((s) => String(s.id)).sort();
    const drawn = (await graph.locator('g.graph-node').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-node')))).sort();
    assert.deepEqual(drawn, ids, pipeline.pipeline);
    // Edges: one per stage whose parent is known.
    const parents = data.stages.filter((s) => s.pipeline === pipeline.pipeline && s.parent_id !== null).length;
    assert.equal(await graph.locator('path.graph-edge').count(), parents);
    // The bottleneck is outlined and the hottest node.
    const bottleneck = data.stages.find((s) => s.pipeline === pipeline.pipeline && s.bottleneck);
    if (bottleneck) {
      const rect = graph.locator(`g.graph-node[data-node="${bottleneck.id}"] rect`);
      assert.equal(await rect.getAttribute('stroke-width'), '3');
      const maxSelf = Math.max(...data.stages.filter((s) => s.pipeline === pipeline.pipeline).map((s) => s.self_ms));
      if (bottleneck.self_ms === maxSelf) assert.equal(await rect.getAttribute('fill'), '#c62828');
    }
  }

  // Summary: the stage the API names, and its suggestion.
  const tileValue = (label) => page.locator('[data-card=summary] .tile', { hasText: label }).locator('.tile-value').innerText();
  assert.equal(await tileValue('Bottleneck stage'), data.bottleneck.dataset);
  // Two measures, each named: the top pipeline's iterator time and the steps' input wait.
  assert.match(await tileValue('Iterator time'), new RegExp(`^${data.pipelines[0].step_time_percent.toFixed(1)}`));
  assert.equal(data.iterator_bound, data.pipelines[0].iterator_bound);
  assert.ok(await tileValue('Steps wait for input'));
  assert.equal(await page.locator('[data-suggestion]').innerText(), data.bottleneck.suggestion);

  // Tables: labelled as declared, one row per API row.
  for (const name of ['pipelines', 'stages', 'critical_path']) {
    const table = declared.tables.find((t) => t.name === name);
    assert.ok(table, name);
    const headers = await page.locator(`[data-table=${name}] thead th`).allInnerTexts();
    for (const column of table.columns) {
      assert.ok(headers.some((h) => h.includes(column.label)), `${name}: ${column.label} in ${headers.join(' | ')}`);
    }
    assert.equal(await page.locator(`[data-table=${name}] tbody tr:not(.empty-row)`).count(), data[name].length, name);
  }
  await page.screenshot({ path: path.join(SCREENSHOTS, 'tf_data_bottleneck.png'), fullPage: true });
  assert.deepEqual(consoleErrors, []);
});

test('the input pipeline analyzer names the stage and links to the pipeline page', async () => {
  const input = await getJson(baseUrl, `/api/data?run=${RUN}&tool=input_pipeline_analyzer&host=${HOST}`);
  assert.ok(input.pipeline_bottleneck, 'the analyzer carries the link');
  await page.goto(`${baseUrl}#run=${RUN}&tool=input_pipeline_analyzer&host=${HOST}`);
  const line = page.locator('[data-pipeline-bottleneck]');
  await line.waitFor({ timeout: 60000 });
  assert.equal(await line.getAttribute('data-pipeline-bottleneck'), input.pipeline_bottleneck.stage);
  assert.ok((await line.innerText()).includes(input.pipeline_bottleneck.statement));
  await line.locator('a[data-link-tool]').click();
  await page.waitForSelector(`[data-page=${TOOL}]`, { timeout: 60000 });
  assert.deepEqual(consoleErrors, []);
});
