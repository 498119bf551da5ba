// Every page on every shared profile: a sweep that finds what a new user would hit. Every
// trace under $STEPSCOPE_SHARED_DIR/testdata/traces (imported, one run per file), every
// XSpace under testdata/xplane (one run per file) and the two ranks of the HTA job as one
// run (so pages that compare hosts have two) are served from one logdir; the test visits
// every tool the server lists for every run and host, the Compare page, and the trace
// viewer, at 1600 x 1000, and fails on any of:
//   - page text (or hover text) with "(null)", "NaN", "undefined", "[object Object]",
//     "INVALID" or "Infinity";
//   - an element whose content overflows its box without a scrollbar (text shortened on
//     purpose, with its full text on hover, is fine), or a select whose option is cut;
//   - a chart legend that pages, or one that does not list every series; an axis name at
//     the top of a chart with a legend above it;
//   - two entries of one selector or legend with the same visible text;
//   - a console error or a failed request;
//   - a first render slower than PAGE_BUDGET_MS;
//   - a number in a table or a tile that is not its field in the tool's JSON (fetched
//     from the API the page uses), formatted as the UI formats it.
// Failures are collected over the whole sweep and reported together, each with its run,
// tool, host and what failed; the last line says how many pages and checks held.
//
// Run by ctest (tests/browser/CMakeLists.txt), which sets the environment below.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { browserTestEnv, closeDashboard, getJson, importTraces, loadChromium, openDashboard } from './harness.mjs';

const { STEPSCOPE, UI_ROOT, SHARED, SCREENSHOTS } = browserTestEnv();
const chromium = loadChromium(UI_ROOT);

// A page's first render (navigation to drawn, charts included) may take at most this long.
const PAGE_BUDGET_MS = Number(process.env.STEPSCOPE_PAGE_BUDGET_MS || 1000);
// Words that mean a value went missing on its way to the page.
const GARBAGE = /\(null\)|\bNaN\b|\bundefined\b|\[object Object\]|\bINVALID\b|-?\bInfinity\b/g;
// The ranks of one job, imported together as one run of two hosts.
const RANK_PAIR = ['hta_sampled_rank-0.json.gz', 'hta_sampled_rank-1.json.gz'];
const RANK_RUN = 'hta_sampled_ranks';

const chromeVisible = { width: 1600, height: 1000 };

let tmp;
let dashboard;
let baseUrl;
let page;
let consoleErrors;
let externalRequests;
// What failed, one line each: "<run> · <tool> · <host>: <what>".
const failures = [];
// Checks that held, by kind, for the summary line.
const held = new Map();
let pagesVisited = 0;
const failedRequests = [];

const hold = (kind, count = 1) => held.set(kind, (held.get(kind) ?? 0) + count);
const api = (pathAndQuery) => getJson(baseUrl, pathAndQuery);

// A tool's JSON as the page reads it, or null (and a failure of `label`) when the API
// answers with an error.
async function toolJson(label, pathAndQuery) {
  const response = await fetch(new URL(pathAndQuery, baseUrl));
  const body = await response.json().catch(() => null);
  if (response.status === 200) return body;
  failures.push(`${label}: ${pathAndQuery}: HTTP ${response.status}: ${body?.error ?? ''}`);
  return null;
}

// The run name for a shared file: its name without the trace/XSpace extensions.
function runName(file) {
  return path.basename(file).replace(/\.gz$/, '').replace(/\.json$/, '').replace(/\.pt\.trace$/, '').replace(/\.xplane\.pb$/, '');
}

function makeLogdir() {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stepscope-every-page-'));
  const logdir = path.join(tmp, 'logdir');
  const tracesDir = path.join(SHARED, 'testdata', 'traces');
  const xplaneDir = path.join(SHARED, 'testdata', 'xplane');
  const traces = fs.readdirSync(tracesDir).filter((f) => /\.json(\.gz)?$/.test(f)).sort();
  const xspaces = fs.readdirSync(xplaneDir).filter((f) => f.endsWith('.xplane.pb')).sort();
  assert.ok(traces.length > 0 && xspaces.length > 0, `shared profiles in ${tracesDir} and ${xplaneDir}`);
  for (const file of traces) importTraces(STEPSCOPE, logdir, runName(file), [path.join(tracesDir, file)]);
  if (RANK_PAIR.every((f) => traces.includes(f))) importTraces(STEPSCOPE, logdir, RANK_RUN, RANK_PAIR.map((f) => path.join(tracesDir, f)));
  for (const file of xspaces) {
    // XProf's sample names end in the host: "<demo>__<host>.xplane.pb".
    const host = runName(file).split('__').pop() || 'localhost';
    const runDir = path.join(logdir, 'plugins', 'profile', runName(file));
    fs.mkdirSync(runDir, { recursive: true });
    fs.copyFileSync(path.join(xplaneDir, file), path.join(runDir, `${host}.xplane.pb`));
  }
  return logdir;
}

// The UI's own formatting (ui/src/format.ts), loaded as the kernel-name test loads its
// module: the numbers are checked as the page formats them.
async function loadFormat() {
  const require = createRequire(path.join(UI_ROOT, 'package.json'));
  const ts = require('typescript');
  const source = fs.readFileSync(path.join(UI_ROOT, 'src/format.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  return import(`data:text/javascript;base64,${Buffer.from(outputText).toString('base64')}`);
}
let format;

before(async () => {
  format = await loadFormat();
  const logdir = makeLogdir();
  dashboard = await openDashboard(chromium, STEPSCOPE, { logdir, uiRoot: UI_ROOT, viewport: chromeVisible });
  ({ baseUrl, page, consoleErrors, externalRequests } = dashboard);
  page.on('requestfailed', (request) => {
    // The UI aborts what a page it left still loads (trace tiles, a replaced result).
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
    failedRequests.push(`${request.url()}: ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) failedRequests.push(`${response.url()}: HTTP ${response.status()}`);
  });
});

after(async () => {
  await closeDashboard(dashboard, tmp);
});

// ---------------------------------------------------------------------------------------
// Numbers: a shown text against a JSON value.

// The unit a JSON field's value is in, from its name or, for a member of an object
// ("step_time_breakdown_ms.input"), the nearest name that has one.
function fieldUnit(path) {
  for (const key of [...path].reverse()) {
    const unit = keyUnit(String(key));
    if (unit) return unit;
  }
  return '';
}
function keyUnit(k) {
  if (/(_ms|Ms)$/.test(k)) return 'ms';
  if (/(_us|Us)$/.test(k)) return 'us';
  if (/(_ns|Ns)$/.test(k)) return 'ns';
  if (/(_ps|Ps)$/.test(k)) return 'ps';
  if (/bytes|Bytes/.test(k)) return 'bytes';
  return '';
}
const TIME_TO_MS = { s: 1000, ms: 1, 'µs': 1e-3, us: 1e-3, ns: 1e-6, ps: 1e-9 };
const BYTES = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4 };

// A shown number: its value, the unit shown after it and how precise it is (half its last
// digit), or null when the text holds no number.
function parseShown(text) {
  const match = /([+-]?[\d,]*\.?\d+)(?:e([+-]?\d+))?\s*(s|ms|µs|us|ns|ps|B|KiB|MiB|GiB|TiB|%|GB\/s|pts)?/.exec(text.replace(/\u2212/g, '-'));
  if (!match) return null;
  const digits = match[1].replace(/,/g, '');
  const decimals = digits.includes('.') ? digits.length - digits.indexOf('.') - 1 : 0;
  const exponent = match[2] ? Number(match[2]) : 0;
  return { value: Number(digits) * 10 ** exponent, unit: match[3] ?? '', half: 0.5 * 10 ** (exponent - decimals) };
}

// Whether `text` shows `value` (the JSON field `key`, times `scale`): the UI's own
// formatting of it, or the same number within the text's precision once units agree.
// `key`: the field's name, or its path from the root.
function shows(text, value, key, type, scale = 1) {
  const name = Array.isArray(key) ? key[key.length - 1] : key;
  const shownText = text.trim();
  if (value === null || value === undefined || value === '') return /^(–|-|n\/a|unknown|none|)$/.test(shownText) || !/\d/.test(shownText);
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) return String(value) === shownText;
  const scaled = number * scale;
  if (format.formatCell(scaled, type, String(name)) === shownText) return true;
  const shown = parseShown(shownText);
  if (!shown) return false;
  // Within half the shown text's last digit, in the unit it shows.
  const unit = fieldUnit(Array.isArray(key) ? key : [key]);
  if (shown.unit in TIME_TO_MS && unit in TIME_TO_MS) {
    const factor = TIME_TO_MS[shown.unit];
    return Math.abs(shown.value * factor - scaled * TIME_TO_MS[unit]) <= shown.half * factor * 1.0001 + 1e-12;
  }
  if (shown.unit in BYTES) return Math.abs(shown.value * BYTES[shown.unit] - scaled) <= shown.half * BYTES[shown.unit] * 1.0001 + 0.5;
  return Math.abs(shown.value - scaled) <= shown.half * 1.0001 + 1e-9 * Math.abs(scaled);
}

// The value at `keys` in `data`.
function at(data, keys) {
  let value = data;
  for (const key of keys) value = value === null || value === undefined ? undefined : value[key];
  return value;
}

// Every object in an array anywhere in `data`: the rows a table may show.
function jsonRows(data, rows = [], depth = 0) {
  if (depth > 6 || data === null || typeof data !== 'object') return rows;
  if (Array.isArray(data)) {
    for (const item of data) {
      if (item && typeof item === 'object' && !Array.isArray(item)) rows.push(item);
      jsonRows(item, rows, depth + 1);
    }
  } else {
    for (const value of Object.values(data)) jsonRows(value, rows, depth + 1);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------
// What the page shows, read in the page.

// Reads the rendered tables, tiles and charts and finds what is wrong in the layout.
function readPage() {
  const fullText = (cell) => cell.getAttribute('title') || cell.querySelector('[title]')?.getAttribute('title') || cell.textContent.trim();
  const describe = (element) => {
    const holder = element.closest('[data-table], [data-card], [data-chart], [data-legend], [id]');
    const name = holder ? ['data-table', 'data-card', 'data-chart', 'data-legend', 'id'].find((n) => holder.hasAttribute(n)) : null;
    const where = holder ? `${holder.tagName.toLowerCase()}[${name}="${holder.getAttribute(name)}"]` : 'the page';
    return `${element.tagName.toLowerCase()}${element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).join('.')}` : ''} in ${where}`;
  };
  // Tables: per rendered row, each cell with its column id and type.
  const tables = [];
  for (const table of document.querySelectorAll('#page table')) {
    const holder = table.closest('[data-table]') ?? table;
    const name = holder.getAttribute('data-table') || table.getAttribute('data-compare-table') || '?';
    const heads = [...table.querySelectorAll('thead th')];
    const rows = [];
    for (const tr of table.querySelectorAll('tbody tr:not(.detail-row):not(.empty-row):not(.spacer-row)')) {
      const cells = [];
      [...tr.children].forEach((td, i) => {
        const col = td.dataset.col || heads[i]?.dataset.col;
        if (!col) return;
        const classes = `${td.className} ${heads[i]?.className ?? ''}`;
        const type = /type-int/.test(classes) ? 'int' : /type-double/.test(classes) ? 'double' : /type-bool/.test(classes) ? 'bool' : 'string';
        cells.push({ col, type, text: td.textContent.trim(), full: fullText(td) });
      });
      if (cells.length) rows.push(cells);
    }
    tables.push({ name, rows });
  }
  // Numbers tied to a JSON field (tiles, the overview's breakdown).
  const fields = [...document.querySelectorAll('#page [data-json]')].map((e) => ({
    path: JSON.parse(e.dataset.json),
    scale: e.dataset.jsonScale ? Number(e.dataset.jsonScale) : 1,
    text: e.textContent.trim(),
    where: describe(e),
  }));
  // Text and hover text of the document.
  const titles = [...document.querySelectorAll('#page [title], .sidebar [title], .sidebar option')].map((e) => e.getAttribute('title') || e.textContent);
  const text = document.body.innerText;
  // Content wider than its box, without a scrollbar, that is not text shortened on purpose.
  const overflowing = [];
  for (const element of document.querySelectorAll('body *')) {
    if (element.scrollWidth <= element.clientWidth + 1 || element.clientWidth === 0) continue;
    if (['HTML', 'BODY', 'CANVAS', 'svg', 'SELECT', 'OPTION', 'INPUT', 'TEXTAREA'].includes(element.tagName)) continue;
    if (element.closest('svg')) continue;
    const style = getComputedStyle(element);
    if (style.overflowX === 'auto' || style.overflowX === 'scroll') continue;
    if (style.display === 'none' || style.visibility === 'hidden' || element.offsetParent === null) continue;
    const titled = element.hasAttribute('title') || element.closest('[title]');
    if (titled && (style.textOverflow === 'ellipsis' || element.classList.contains('elide'))) continue;
    overflowing.push(element);
  }
  // The innermost ones: an ancestor of an overflowing element overflows with it.
  const innermost = overflowing.filter((e) => !overflowing.some((o) => o !== e && e.contains(o)));
  const overflows = innermost.map((e) => `${describe(e)}: content ${e.scrollWidth}px in ${e.clientWidth}px ("${e.textContent.trim().slice(0, 60)}")`);
  // Selects: entries with the same text; an entry wider than the select shows.
  const canvas = document.createElement('canvas').getContext('2d');
  const selects = [];
  for (const select of document.querySelectorAll('select')) {
    if (select.offsetParent === null) continue;
    const texts = [...select.options].map((o) => o.textContent);
    const style = getComputedStyle(select);
    canvas.font = style.font;
    // What the select draws besides text, measured on a copy holding its widest entry.
    const widest = texts.reduce((a, b) => (canvas.measureText(b).width > canvas.measureText(a).width ? b : a), '');
    const probe = select.cloneNode(false);
    probe.removeAttribute('id');
    probe.append(new Option(widest));
    probe.style.cssText = 'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none';
    select.parentElement.append(probe);
    const chrome = probe.offsetWidth - canvas.measureText(widest).width;
    probe.remove();
    const room = select.offsetWidth - chrome;
    const cut = texts.filter((t) => canvas.measureText(t).width > room + 1);
    selects.push({ id: select.id || select.getAttribute('aria-label') || describe(select), texts, cut });
  }
  // Legends: the pies' own lists, and every echarts chart's option.
  const legends = [...document.querySelectorAll('[data-legend]')].map((list) => ({
    name: list.dataset.legend,
    texts: [...list.querySelectorAll('.pie-legend-label')].map((l) => l.textContent),
  }));
  const charts = [...document.querySelectorAll('[_echarts_instance_]')].map((node) => {
    const option = window.stepscopeChartOption?.(node) ?? { unreadable: true };
    const chart = node.closest('[data-chart]')?.dataset.chart ?? describe(node);
    const series = (option.series ?? []).map((s) => s.name).filter((n) => n !== undefined && n !== '');
    const legends = (option.legend ?? []).filter((l) => l.show !== false);
    return {
      chart,
      unreadable: option.unreadable === true,
      paged: legends.some((l) => l.type === 'scroll'),
      legendNames: legends.flatMap((l) => (l.data ?? series).map((d) => (typeof d === 'object' && d !== null ? d.name : d))),
      hidden: legends.flatMap((l) => Object.entries(l.selected ?? {}).filter(([, on]) => on === false).map(([n]) => n)),
      series,
      hasLegend: legends.length > 0,
      axisNamesAtTop: (option.yAxis ?? []).filter((a) => a.name && (a.nameLocation ?? 'end') === 'end').map((a) => a.name),
      pie: (option.series ?? []).some((s) => s.type === 'pie'),
    };
  });
  return { tables, fields, titles, text, overflows, selects, legends, charts };
}

// ---------------------------------------------------------------------------------------
// The checks of one page.

function checkPage(label, shown, data) {
  const fail = (what) => failures.push(`${label}: ${what}`);
  // Garbage words, with what surrounds them.
  for (const [where, text] of [['text', shown.text], ['hover text', shown.titles.join('\n')]]) {
    const seen = new Set();
    for (const match of text.matchAll(GARBAGE)) {
      const context = text.slice(Math.max(0, match.index - 50), match.index + match[0].length + 30).replace(/\s+/g, ' ');
      if (seen.has(context)) continue;
      seen.add(context);
      fail(`${where} shows "${match[0]}": …${context}…`);
    }
    if (!seen.size) hold('no garbage text');
  }
  // A tool that found no steps says how to mark them in the profile's framework's words
  // (its statement's second sentence); the page must show that, not a generic hint.
  const statement = String(data?.summary?.statement ?? data?.input_bound_statement ?? '');
  if (statement.startsWith('No steps were found') && /No step markers found/.test(shown.text)) {
    const hint = statement.replace(/^No steps were found[^.]*\. */, '');
    if (hint && !shown.text.includes(hint)) fail(`no-steps hint is not the tool's own: "${hint}"`);
    else hold("no-steps hint is the tool's");
  }
  for (const line of shown.overflows) fail(`overflows without a scrollbar: ${line}`);
  if (!shown.overflows.length) hold('nothing overflows');
  for (const select of shown.selects) {
    const dupes = select.texts.filter((t, i) => select.texts.indexOf(t) !== i);
    if (dupes.length) fail(`selector ${select.id} has entries that read the same: ${[...new Set(dupes)].join(' | ')}`);
    else hold('selector entries distinct');
    if (select.cut.length) fail(`selector ${select.id} cuts ${select.cut.length} entr${select.cut.length === 1 ? 'y' : 'ies'}: ${select.cut.slice(0, 3).join(' | ')}`);
    else hold('selector entries whole');
  }
  for (const legend of shown.legends) {
    const dupes = legend.texts.filter((t, i) => legend.texts.indexOf(t) !== i);
    if (dupes.length) fail(`legend ${legend.name} has entries that read the same: ${[...new Set(dupes)].join(' | ')}`);
    else hold('legend entries distinct');
  }
  for (const chart of shown.charts) {
    if (chart.unreadable) {
      fail(`chart ${chart.chart}: its option cannot be read (window.stepscopeChartOption, ui/src/components/charts.ts)`);
      continue;
    }
    if (chart.paged) fail(`chart ${chart.chart}: its legend pages (type "scroll")`);
    else hold('legends never page');
    if (!chart.hasLegend || chart.pie) continue;
    const missing = chart.series.filter((s) => !chart.legendNames.includes(s));
    if (missing.length || chart.hidden.length) fail(`chart ${chart.chart}: series not in its legend: ${[...missing, ...chart.hidden].join(', ')}`);
    else hold('every series in the legend');
    const dupes = chart.legendNames.filter((t, i) => chart.legendNames.indexOf(t) !== i);
    if (dupes.length) fail(`chart ${chart.chart}: legend entries that read the same: ${dupes.join(', ')}`);
    if (chart.axisNamesAtTop.length) fail(`chart ${chart.chart}: axis name ${chart.axisNamesAtTop.join(', ')} at the top, where the legend is`);
    else hold('axis names clear of the legend');
  }
  // Table cells: two different names shortened to one text.
  for (const table of shown.tables) {
    const fullOf = new Map();
    for (const cells of table.rows) {
      for (const c of cells) {
        if (c.type !== 'string' || c.text === c.full) continue;
        const key = `${c.col}\u0000${c.text}`;
        fullOf.set(key, (fullOf.get(key) ?? new Set()).add(c.full));
      }
    }
    const alike = [...fullOf.entries()].filter(([, fulls]) => fulls.size > 1);
    for (const [key, fulls] of alike) fail(`table ${table.name}: ${fulls.size} different names read "${key.split('\u0000')[1]}" in column ${key.split('\u0000')[0]}`);
    if (!alike.length && table.rows.length) hold('table labels distinct');
  }
  if (data) checkNumbers(label, shown, data, fail);
}

// Every number in a tile and in a table row is its JSON field.
function checkNumbers(label, shown, data, fail) {
  for (const field of shown.fields) {
    if (!/\d/.test(field.text)) continue;
    const value = at(data, field.path);
    if (shows(field.text, value, field.path, 'double', field.scale)) hold('tile numbers are the JSON');
    else fail(`${field.where} shows "${field.text}", but ${field.path.join('.')} is ${JSON.stringify(value)}${field.scale !== 1 ? ` (× ${field.scale})` : ''}`);
  }
  const candidates = jsonRows(data);
  for (const table of shown.tables) {
    for (const cells of table.rows) {
      const numeric = cells.filter((c) => c.type === 'int' || c.type === 'double');
      if (!numeric.length) continue;
      // The row's JSON object: the one its text cells name (blank placeholders are empty
      // texts), best by how many shown numbers it has.
      const keys = cells.filter((c) => c.type === 'string');
      const named = candidates.filter((row) =>
        keys.every((c) => !(c.col in row) || String(row[c.col] ?? '') === c.full || ((row[c.col] === '' || row[c.col] === null) && /^\(.*\)$|^–$|^$/.test(c.full))),
      );
      const withColumns = named.filter((row) => numeric.some((c) => c.col in row));
      if (!withColumns.length) {
        // A row no JSON object names: computed by the page, not a field to check.
        hold('table rows computed by the page (not checked)');
        continue;
      }
      let best = null;
      for (const row of withColumns) {
        const wrong = numeric.filter((c) => c.col in row && !shows(c.text, row[c.col], c.col, c.type));
        if (!best || wrong.length < best.wrong.length) best = { row, wrong };
        if (!wrong.length) break;
      }
      const checked = numeric.filter((c) => c.col in best.row).length;
      if (!best.wrong.length) {
        hold('table numbers are the JSON', checked);
        continue;
      }
      const name = keys.map((c) => c.full).filter(Boolean).join(' / ').slice(0, 80) || `row ${cells[0].text}`;
      const detail = best.wrong.map((c) => `${c.col} shows "${c.text}", JSON has ${JSON.stringify(best.row[c.col])}`).join('; ');
      fail(`table ${table.name}, ${name}: ${detail}`);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Visiting pages.

// Navigates to `hash` and waits until the page it names has rendered and drawn its charts;
// returns the time that took in ms.
async function visit(hash, readyTool) {
  // The page now shown is marked, so a page of the same tool (another host) is told apart.
  await page.evaluate(() => document.querySelector('#page > *')?.setAttribute('data-sweep-old', ''));
  const started = Date.now();
  await page.evaluate((h) => (window.location.hash = h), hash);
  await page.waitForFunction(
    (tool) => {
      const shown = document.querySelector('#page > *');
      if (!shown || shown.hasAttribute('data-sweep-old')) return false;
      if (shown.querySelector('.state-loading') || shown.classList.contains('state-loading')) return false;
      if (tool && !shown.matches(`[data-tool="${tool}"], [data-state]`)) return false;
      if (tool === 'trace_viewer' && !shown.matches('[data-ready="1"]') && !shown.querySelector('[data-state]')) return false;
      return [...document.querySelectorAll('#page .chart')].every((c) => c.dataset.ready === 'true');
    },
    readyTool,
    { timeout: 60000, polling: 'raf' },
  );
  return Date.now() - started;
}

// Checks the page as it is, then each of its tabs.
async function checkShown(label, data) {
  checkPage(label, await page.evaluate(readPage), data);
  const tabs = await page.locator('#page [role="tab"]:not(.active)').count();
  for (let i = 0; i < tabs; i++) {
    const tab = page.locator('#page [role="tab"]:not(.active)').first();
    const text = (await tab.textContent()).trim();
    await tab.click();
    checkPage(`${label} (tab ${text})`, await page.evaluate(readPage), data);
  }
}

function checkRender(label, ms) {
  if (ms > PAGE_BUDGET_MS) failures.push(`${label}: first render took ${ms} ms (budget ${PAGE_BUDGET_MS} ms)`);
  else hold('first render within budget');
}

function checkConsole(label) {
  for (const error of consoleErrors.splice(0)) failures.push(`${label}: console error: ${error}`);
  for (const request of failedRequests.splice(0)) failures.push(`${label}: failed request: ${request}`);
  for (const request of externalRequests.splice(0)) failures.push(`${label}: request off this machine: ${request}`);
}

const hashOf = (params) => new URLSearchParams(params).toString();

test('every tool page of every run and host, the Compare page and the trace viewer', { timeout: 20 * 60 * 1000 }, async () => {
  const started = Date.now();
  await page.goto(baseUrl);
  await page.waitForSelector('#run-select option', { state: 'attached', timeout: 60000 });
  const { runs } = await api('/api/runs');
  assert.ok(runs.length >= 3, `runs in the logdir: ${runs.map((r) => r.name).join(', ')}`);
  for (const run of runs) {
    const { tools } = await api(`/api/tools?run=${encodeURIComponent(run.name)}`);
    assert.ok(tools.length > 0, `${run.name}: the server lists tools`);
    for (const tool of tools) {
      const hosts = tool.available === false ? [''] : (await api(`/api/hosts?run=${encodeURIComponent(run.name)}&tool=${tool.id}`)).hosts;
      for (const host of hosts) {
        // Whether the tool applies to this host (one rank of a job has one GPU: no Multi-GPU).
        const applies = tool.available !== false && (hosts.length < 2 || host === 'all' || (await api(`/api/tools?${hashOf({ run: run.name, host })}`)).tools.find((t) => t.id === tool.id)?.available !== false);
        const label = `${run.name} · ${tool.id}${host ? ` · ${host}` : ''}${applies ? '' : ' (n/a)'}`;
        const params = { run: run.name, tool: tool.id, ...(host ? { host } : {}) };
        let ms;
        try {
          ms = await visit(hashOf(params), applies ? tool.id : null);
        } catch (error) {
          failures.push(`${label}: the page did not render: ${error.message.split('\n')[0]}`);
          checkConsole(label);
          continue;
        }
        pagesVisited++;
        checkRender(label, ms);
        // The JSON the page shows, from the API it reads (the trace viewer has no tool JSON).
        const data = !applies || tool.id === 'trace_viewer' ? null : await toolJson(label, `/api/data?${hashOf(params)}`);
        await checkShown(label, data);
        checkConsole(label);
      }
    }
  }
  // Compare: each run against the next one (all hosts).
  for (let i = 0; i < runs.length; i++) {
    const a = runs[i].name;
    const b = runs[(i + 1) % runs.length].name;
    const label = `compare ${a} → ${b}`;
    const params = { view: 'compare', run_a: a, run_b: b };
    let ms;
    try {
      ms = await visit(hashOf(params), null);
    } catch (error) {
      failures.push(`${label}: the page did not render: ${error.message.split('\n')[0]}`);
      continue;
    }
    pagesVisited++;
    checkRender(label, ms);
    const data = await toolJson(label, `/api/compare?${hashOf({ run_a: a, run_b: b })}`);
    await checkShown(label, data);
    checkConsole(label);
  }
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'every_page_last.png') });

  const checks = [...held.values()].reduce((sum, n) => sum + n, 0);
  const kinds = [...held.entries()].map(([kind, n]) => `${kind} ${n}`).join(', ');
  console.log(`every page: ${pagesVisited} pages visited (${runs.length} runs), ${checks} checks held (${kinds}); ${failures.length} failures; ${((Date.now() - started) / 1000).toFixed(0)} s`);
  assert.deepEqual(failures, [], `${failures.length} failures:\n${failures.join('\n')}`);
});
