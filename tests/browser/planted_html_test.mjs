// Every name a profile carries reaches the page as text, never as markup. Two runs whose
// every name field holds an HTML payload (tests/browser/planted_profiles.mjs): a PyTorch
// trace imported with `stepscope import`, and an XSpace of two hosts with TF ops, two GPUs
// and an XLA program; the run and host names carry one too. The test opens every tool
// page the UI offers for every run and host, the Compare page, hovers every chart (echarts
// tooltips are HTML), selects trace events, expands table rows and tree nodes, and finds
// no element a payload created, no CSP violation and no console error.
//
// A payload is `<img src=x data-planted="N" onerror=...>`, N naming its field: a page that
// parses one as HTML makes an element with data-planted (caught by a MutationObserver even
// when it is gone again, as a tooltip is); its handler would bump window.__planted if the
// page's Content-Security-Policy let it run. So that the test cannot pass by showing
// nothing, each page must show the payloads its data holds as text.
//
// Run by ctest (tests/browser/CMakeLists.txt), which sets the environment below.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { browserTestEnv, closeDashboard, getJson, importTraces, loadChromium, openDashboard } from './harness.mjs';
import { kinetoTrace, Plants, xspaceNames, xspaceProfile } from './planted_profiles.mjs';

const { STEPSCOPE, UI_ROOT, SCREENSHOTS } = browserTestEnv();
const chromium = loadChromium(UI_ROOT);

// The payloads are handed out here, at load time, so the run names are known to the tests.
const plants = new Plants();
const RUN_PYTORCH = `pytorch_${plants.bare('run name (imported PyTorch trace)')}`;
const RUN_XSPACE = `xla_${plants.bare('run name (XSpace)')}`;

// Hovering a chart: real mouse moves on a coarse grid, then a sweep dispatched in the page,
// refined down to this many px while its time lasts (sweepChart).
const MOUSE_GRID = { columns: 6, rows: 2 };
const SWEEP = { finestPx: 5, budgetMs: 1500 };
// The trace viewer's timeline is hovered with real moves on this grid (its tooltip).
const TIMELINE_GRID = { columns: 18, rows: 8 };
// Rows of a table expanded, and trace events selected by search, at most per page.
const MAX_EXPANDS = 12;
const MAX_SEARCH_FIELDS = 40;

// Planted fields no page shows, and why: the importer or the tools drop them. Every other
// field must be shown as text on some page.
const NOT_SHOWN = new Map([
  ['kineto process_name (host pid)', 'the Kineto importer names host lines after threads, not processes'],
  ['kineto process_name (GPU pid)', 'device planes are named after the device, not the process'],
  ['HLO op_metadata.op_type', 'read into the HLO module but shown by no tool'],
]);

// Charts whose tooltips must have shown a planted name (as text) by the end: the proof
// that hovering reaches item tooltips (pies, the roofline's points) and axis ones.
const TOOLTIP_CHARTS = ['memory_viewer_curve', 'pie_host_op', 'pie_top_kernels', 'pod_step_chart', 'roofline'];

let tmp;
let dashboard;
let baseUrl;
let page;
let consoleErrors;
// Console errors up to here were reported by an earlier check.
let consoleErrorsChecked = 0;
let externalRequests;
// What each page showed as text, for the report and the last test: label -> { page, document },
// Sets of payload numbers shown in the page body and anywhere in the document.
const shownByPage = new Map();
// Charts whose tooltip showed a planted name as text (so hovering reached them).
const tooltipCharts = new Set();

// The two runs in a temporary logdir: the trace imported as a user would, the XSpace hosts
// written as the profiler writes them (<logdir>/plugins/profile/<run>/<host>.xplane.pb).
function makeProfiles() {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stepscope-planted-'));
  const logdir = path.join(tmp, 'logdir');
  const trace = path.join(tmp, 'planted.pt.trace.json');
  fs.writeFileSync(trace, JSON.stringify(kinetoTrace(plants)));
  importTraces(STEPSCOPE, logdir, RUN_PYTORCH, [trace]);
  const shared = xspaceNames(plants);
  const runDir = path.join(logdir, 'plugins', 'profile', RUN_XSPACE);
  fs.mkdirSync(runDir, { recursive: true });
  for (const which of ['A', 'B']) {
    const hostname = plants.bare(`XSpace host name ${which}`);
    fs.writeFileSync(path.join(runDir, `${hostname}.xplane.pb`), xspaceProfile({ hostname, shared }));
  }
  return logdir;
}

// Runs in the page before its own scripts (addInitScript; the CSP does not apply to it):
// records every element carrying data-planted that is ever attached to the document, and
// every CSP violation, until the test reads and clears them.
function watchForPlantedElements() {
  window.__plantedSeen = [];
  window.__cspViolations = [];
  // Where an element is: its nearest ancestor a test can name (a chart, table, card, id).
  // The observer runs after the change, so a tooltip may have moved on by then.
  const where = (element) => {
    const names = ['data-chart', 'data-table', 'data-card', 'data-role', 'id'];
    if (!element.isConnected) return 'a node already replaced (a tooltip)';
    const holder = element.parentElement?.closest(names.map((n) => `[${n}]`).join(', '));
    if (!holder) return 'the document';
    const name = names.find((n) => holder.hasAttribute(n));
    return `${holder.tagName.toLowerCase()}[${name}="${holder.getAttribute(name)}"]`;
  };
  const record = (element) => window.__plantedSeen.push({ n: element.getAttribute('data-planted'), html: element.outerHTML.slice(0, 120), where: where(element) });
  const visit = (node) => {
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    if (node.hasAttribute('data-planted')) record(node);
    for (const child of node.querySelectorAll('[data-planted]')) record(child);
  };
  // Charts whose tooltip showed a planted name as text: proof the mouse reached them.
  window.__tooltipCharts = new Set();
  const noteTooltip = (node) => {
    const chart = (node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement)?.closest('[data-chart]');
    if (chart && node.textContent.includes('data-planted')) window.__tooltipCharts.add(chart.dataset.chart);
  };
  new MutationObserver((mutations) => {
    for (const m of mutations) {
      if (m.type === 'attributes') visit(m.target);
      for (const node of m.addedNodes) {
        visit(node);
        noteTooltip(node);
      }
    }
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-planted'] });
  document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline code'}`));
}

before(async () => {
  const logdir = makeProfiles();
  dashboard = await openDashboard(chromium, STEPSCOPE, { logdir, uiRoot: UI_ROOT, viewport: { width: 1500, height: 1000 } });
  ({ baseUrl, page, consoleErrors, externalRequests } = dashboard);
  await page.addInitScript(watchForPlantedElements);
  await page.goto(baseUrl);
});

after(async () => {
  await closeDashboard(dashboard, tmp);
});

const api = (pathAndQuery) => getJson(baseUrl, pathAndQuery);
const query = (params) => new URLSearchParams(params).toString();

// The payload numbers in `text`, quoted (html), bare, or quoted inside JSON strings.
function plantedNumbers(text) {
  return new Set([...text.matchAll(/data-planted=\\?"?(\d+)/g)].map((m) => Number(m[1])));
}
// Distinct lines, each with how often it came (" ×N" after the first).
function counted(lines) {
  const counts = new Map();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return [...counts].map(([line, n]) => (n > 1 ? `${line} (×${n})` : line));
}
const describe = (numbers) => [...numbers].sort((a, b) => a - b).map((n) => `${n} (${plants.field(n)})`);

// Opens `hash` and waits until the page for `tool` has rendered (or failed) and its charts
// are drawn. The old page's marker is dropped first, so a page of the same tool that is
// still shown cannot pass for the new one.
async function openPage(hash, tool) {
  await page.evaluate(() => {
    for (const node of document.querySelectorAll('#page [data-tool]')) node.removeAttribute('data-tool');
  });
  await page.goto(`${baseUrl}#${hash}`);
  await page.waitForSelector(`#page [data-tool="${tool}"], #page > [data-state="error"]`, { timeout: 120000 });
  await waitForCharts();
}

async function waitForCharts() {
  await page.waitForFunction(() => [...document.querySelectorAll('.chart')].every((c) => c.dataset.ready === 'true'), null, { timeout: 30000 });
}

// Moves the mouse over every chart of the page, then sweeps it finely: tooltips are HTML
// the chart library builds from series, category and item names.
async function hoverCharts() {
  const charts = await page.locator('#page .chart[data-ready="true"]').all();
  for (const chart of charts) {
    await chart.scrollIntoViewIfNeeded();
    const box = await chart.boundingBox();
    if (!box) continue;
    // A few real mouse moves (the browser's own input path)...
    for (let c = 0; c < MOUSE_GRID.columns; c++) {
      for (let r = 0; r < MOUSE_GRID.rows; r++) {
        await page.mouse.move(box.x + (box.width * (c + 0.5)) / MOUSE_GRID.columns, box.y + (box.height * (r + 0.5)) / MOUSE_GRID.rows);
      }
    }
    await page.mouse.move(0, 0);
    // ...then thousands dispatched in the page.
    await chart.evaluate(sweepChart, SWEEP);
  }
}

// Runs in the page: mouse moves dispatched to a chart's canvas on a grid that is refined
// (40, 20, 10, 5 px) until `budgetMs` is spent. The chart library handles them as it does
// the real mouse's; they reach the small scatter points of the roofline that a coarse grid
// misses (a real mouse move costs ~17 ms through the browser's input pipeline, these
// µs, or a few ms where each move redraws an axis tooltip). Returns the finest step done.
async function sweepChart(chart, { finestPx, budgetMs }) {
  const canvas = chart.querySelector('canvas');
  if (!canvas) return 0;
  const box = chart.getBoundingClientRect();
  const deadline = performance.now() + budgetMs;
  let done = 0;
  for (let step = finestPx * 8; step >= finestPx; step /= 2) {
    for (let y = box.top + step / 2; y < box.bottom; y += step) {
      for (let x = box.left + step / 2; x < box.right; x += step) {
        canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: x, clientY: y, bubbles: true, cancelable: true, view: window }));
      }
      // Let the observer see this row's tooltips.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (performance.now() > deadline) break;
    }
    if (performance.now() > deadline) break;
    done = step;
  }
  canvas.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, view: window }));
  return done;
}

// Opens what a page hides behind a click: every tab, "Show all N rows", row details,
// tree nodes ("Expand all"). Each click re-renders, so elements are looked up anew.
async function openDetails() {
  const tabs = await page.locator('#page [role="tab"]').all();
  for (const tab of tabs) {
    await tab.click();
    await showAllRows();
    await expandRows();
  }
  await showAllRows();
  await expandRows();
  const expandAll = page.locator('#page button', { hasText: /^Expand all$/ });
  if (await expandAll.count()) await expandAll.first().click();
}

async function showAllRows() {
  for (const button of await page.locator('#page button.link-button', { hasText: /^Show all/ }).all()) await button.click();
}

async function expandRows() {
  for (let i = 0; i < MAX_EXPANDS; i++) {
    const closed = page.locator('#page .expand-button[aria-expanded="false"], #page .tree-toggle[aria-expanded="false"]');
    if ((await closed.count()) === 0) return;
    await closed.first().click();
  }
}

// The payloads the document shows as text now (text and title attributes), in the page
// body (`#page`) and in the whole document.
function shownText() {
  const titles = (root) => [...root.querySelectorAll('[title]')].map((e) => e.getAttribute('title')).join('\n');
  const pageRoot = document.querySelector('#page');
  return {
    pageText: `${pageRoot?.textContent ?? ''}\n${pageRoot ? titles(pageRoot) : ''}`,
    documentText: `${document.body.textContent}\n${titles(document)}\n${document.title}`,
  };
}

// Adds what the page shows now to what `label` showed (a page that shows different names
// as it is used, e.g. the trace viewer's details of each selected event). Returns the
// payloads shown in the page body so far.
async function noteShown(label) {
  const { pageText, documentText } = await page.evaluate(shownText);
  const shown = shownByPage.get(label) ?? { page: new Set(), document: new Set() };
  for (const n of plantedNumbers(pageText)) shown.page.add(n);
  for (const n of plantedNumbers(documentText)) shown.document.add(n);
  shownByPage.set(label, shown);
  return shown.page;
}

// What the page holds now: elements a payload made (now or since the last look), CSP
// violations and the counter its handler would bump.
async function inspect() {
  return page.evaluate(() => ({
    live: [...document.querySelectorAll('[data-planted]')].length,
    seen: window.__plantedSeen.splice(0),
    csp: window.__cspViolations.splice(0),
    planted: window.__planted,
    tooltips: (() => {
      const charts = [...window.__tooltipCharts];
      window.__tooltipCharts.clear();
      return charts;
    })(),
  }));
}

// Checks the page as it is and adds what is wrong to `problems` (and saves a screenshot
// of it); records the payloads shown. `expected`: payload numbers the page's data holds,
// of which it must show at least one as text (a page that showed nothing would pass the
// other checks). Elements, CSP violations and console errors since the last check count.
async function checkPage(label, problems, expected = undefined) {
  const problemsBefore = problems.length;
  const found = await inspect();
  // The same hole makes the same element at every mouse position: one line per field and place.
  const made = counted(found.seen.map((e) => `field ${e.n} (${plants.field(e.n)}) became an element in ${e.where}: ${e.html}`));
  for (const line of made) problems.push(`${label}: ${line}`);
  if (found.live && !made.length) problems.push(`${label}: ${found.live} elements with data-planted in the document`);
  for (const line of counted(found.csp)) problems.push(`${label}: CSP violation: ${line}`);
  if (found.planted !== undefined) problems.push(`${label}: a payload's onerror ran (window.__planted = ${found.planted})`);
  for (const line of counted(consoleErrors.slice(consoleErrorsChecked))) problems.push(`${label}: console error: ${line}`);
  consoleErrorsChecked = consoleErrors.length;
  const onPage = await noteShown(label);
  if (expected && expected.size > 0 && ![...expected].some((n) => onPage.has(n))) {
    problems.push(`${label}: shows none of the names its data holds (${describe(expected).join('; ')}) as text`);
  }
  const error = await page.locator('#page [data-state="error"]').allInnerTexts();
  if (error.length) problems.push(`${label}: the page shows an error: ${error.join(' / ')}`);
  for (const chart of found.tooltips) tooltipCharts.add(chart);
  if (problems.length > problemsBefore) await screenshot(label);
  console.log(`checked ${label}: shows ${describe(onPage).join('; ') || 'no planted name'}${found.tooltips.length ? `; tooltips of ${found.tooltips.join(', ')} named them` : ''}`);
}

// The trace viewer: hover the timeline (its tooltip), find every planted name the server
// knows with the search box (each match is selected and its details shown: name, track,
// stats, flows), and select the whole visible area (its events listed by name).
async function exerciseTraceViewer(run, host, label) {
  await page.waitForSelector('[data-page=trace_viewer][data-ready="1"]', { timeout: 60000 });
  await waitForTraceTiles();
  const timeline = await page.locator('.tv-timeline').boundingBox();
  for (let c = 0; c < TIMELINE_GRID.columns; c++) {
    for (let r = 0; r < TIMELINE_GRID.rows; r++) {
      await page.mouse.move(timeline.x + (timeline.width * (c + 0.5)) / TIMELINE_GRID.columns, timeline.y + (timeline.height * (r + 0.5)) / TIMELINE_GRID.rows);
    }
  }
  const searched = [];
  for (let n = 1; n <= plants.fields.length && searched.length < MAX_SEARCH_FIELDS; n++) {
    const q = `data-planted="${n}"`;
    const hit = await api(`/api/trace/search?${query({ run, host, q })}`);
    if (!hit.match) continue;
    searched.push(n);
    await page.fill('#tv-search', q);
    await page.press('#tv-search', 'Enter');
    await page.waitForFunction((text) => document.querySelector('#tv-details[data-kind=event] [data-role=name]')?.textContent.includes(text), q, { timeout: 20000 });
    await noteShown(label);
  }
  await page.keyboard.press('Escape');
  await page.evaluate(() => document.querySelector('[data-page=trace_viewer]').traceViewer.reset());
  await waitForTraceTiles();
  await page.keyboard.down('Shift');
  await page.mouse.move(timeline.x + 260, timeline.y + 30);
  await page.mouse.down();
  await page.mouse.move(timeline.x + timeline.width - 20, timeline.y + timeline.height - 20, { steps: 6 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await page.waitForSelector('#tv-details[data-kind=area] [data-role=area-summary]', { timeout: 20000 });
  return searched;
}

async function waitForTraceTiles() {
  await page.waitForTimeout(150);
  await page.waitForFunction(() => document.querySelector('[data-page=trace_viewer] .tv-timeline')?.dataset.loading === '0', null, { timeout: 30000 });
}

// The graph viewer beyond its default view: the ops a search for the payloads finds (a
// list of candidates)...
async function searchGraphOps() {
  await page.fill('#graph-op-search', 'data-planted');
  await page.click('#graph-op-go');
  await page.waitForSelector('#page [data-tool="graph_viewer"] [data-candidates] a[data-op]', { timeout: 60000 });
}

// ...and the first of them with every op of the module around it.
async function showWholeGraph() {
  await page.locator('[data-candidates] a[data-op]').first().click();
  await page.waitForSelector('#page [data-tool="graph_viewer"] [data-graph="hlo"] svg', { timeout: 60000 });
  await page.selectOption('#graph-hops', '6');
  await page.waitForFunction(() => new URLSearchParams(window.location.hash.slice(1)).get('hops') === '6');
  await page.waitForSelector('#page [data-tool="graph_viewer"] [data-graph="hlo"] svg', { timeout: 60000 });
}

// The payload numbers in the JSON the page is drawn from.
async function expectedFor(run, host, tool) {
  if (tool === 'trace_viewer') return undefined;
  const response = await fetch(new URL(`/api/data?${query({ run, host, tool })}`, baseUrl));
  return plantedNumbers(await response.text());
}

// A page with problems, as it looked: in a folder of its own, which `./dev screenshots`
// does not copy into docs/.
async function screenshot(label) {
  const dir = path.join(SCREENSHOTS, 'planted_html');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${label.replace(/[^A-Za-z0-9]+/g, '_')}.png`), fullPage: true });
}

// Every tool the UI offers for `run` (its tool selector), on every host its host selector
// offers for that tool. `name` stands for the run in labels.
async function checkRun(run, name) {
  const problems = [];
  await openPage(query({ run }), 'overview_page');
  const offered = await page.$$eval('#tool-select option', (options) => options.filter((o) => !o.disabled).map((o) => o.value));
  const { tools } = await api(`/api/tools?${query({ run })}`);
  assert.deepEqual(offered, tools.filter((t) => t.available).map((t) => t.id), 'the tool selector offers the tools that apply');
  for (const tool of offered) {
    await openPage(query({ run, tool }), tool);
    const hosts = await page.$$eval('#host-select option', (options) => options.map((o) => o.value));
    for (const host of hosts) {
      const label = `${name} ${host === 'all' ? 'all hosts' : `host <field ${[...plantedNumbers(host)]}>`} ${tool}`;
      await openPage(query({ run, tool, host }), tool);
      assert.equal(await page.inputValue('#host-select'), host);
      let searched = [];
      if (tool === 'trace_viewer') searched = await exerciseTraceViewer(run, host, label);
      await hoverCharts();
      await openDetails();
      await checkPage(label, problems, await expectedFor(run, host, tool));
      if (tool === 'trace_viewer') console.log(`  trace search selected fields ${searched.join(', ')}`);
      if (tool === 'graph_viewer') {
        await searchGraphOps();
        await checkPage(`${label} (op search)`, problems);
        await showWholeGraph();
        await checkPage(`${label} (all ops)`, problems);
      }
    }
  }
  return problems;
}

test('PyTorch trace: every tool page shows the planted names as text', { timeout: 300000 }, async () => {
  const problems = await checkRun(RUN_PYTORCH, 'pytorch');
  assert.equal(problems.length, 0, problems.join('\n'));
});

test('XSpace with an XLA program: every tool page of every host shows the planted names as text', { timeout: 400000 }, async () => {
  const problems = await checkRun(RUN_XSPACE, 'xspace');
  assert.equal(problems.length, 0, problems.join('\n'));
});

test('Compare: the two runs, and the two hosts of the XSpace run, side by side', { timeout: 120000 }, async () => {
  const problems = [];
  const { runs } = await api('/api/runs');
  const xspaceHosts = runs.find((r) => r.name === RUN_XSPACE).hosts.filter((h) => h !== 'all');
  const pairs = [
    ['compare pytorch vs xspace', { run_a: RUN_PYTORCH, run_b: RUN_XSPACE }],
    ['compare xspace host A vs host B', { run_a: RUN_XSPACE, run_b: RUN_XSPACE, host_a: xspaceHosts[0], host_b: xspaceHosts[1] }],
  ];
  for (const [label, pair] of pairs) {
    await openPage(query({ view: 'compare', ...pair }), 'compare');
    await hoverCharts();
    await openDetails();
    const expected = plantedNumbers(await (await fetch(new URL(`/api/compare?${query(pair)}`, baseUrl))).text());
    await checkPage(label, problems, expected);
  }
  assert.equal(problems.length, 0, problems.join('\n'));
});

test('every planted field was shown as text somewhere, tooltips too; no request left the machine', () => {
  const shown = new Set([...shownByPage.values()].flatMap((s) => [...s.document]));
  const never = plants.fields.map((_, i) => i + 1).filter((n) => !shown.has(n));
  console.log(`${shownByPage.size} pages checked, ${shown.size} of ${plants.fields.length} planted fields shown as text`);
  console.log(`charts whose tooltips showed planted names: ${[...tooltipCharts].sort().join(', ')}`);
  for (const n of never.filter((n) => NOT_SHOWN.has(plants.field(n)))) console.log(`not shown by design: ${n} (${plants.field(n)}): ${NOT_SHOWN.get(plants.field(n))}`);
  assert.deepEqual(describe(never.filter((n) => !NOT_SHOWN.has(plants.field(n)))), [], 'fields no page showed');
  assert.deepEqual(TOOLTIP_CHARTS.filter((chart) => !tooltipCharts.has(chart)), [], 'charts whose tooltips never showed a planted name');
  assert.deepEqual(externalRequests, []);
});
