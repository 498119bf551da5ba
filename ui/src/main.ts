// The app frame (TensorBoard-like): a top bar, a sidebar with run, tool and host
// selectors, and the selected tool's page. The selection lives in the URL hash.
import './style.css';
import { api, ApiError, timeRangeOptions, type RunInfo, type Selection, type ToolInfo } from './api';
import { emptyState, errorState, loading } from './components/cards';
import { captureButton } from './components/capture_dialog';
import { disposeCharts } from './components/charts';
import { elidedGroup, elidedLabel, fitElided, fitSelect } from './components/elide';
import { el, formatBytes, formatMs } from './format';
import { comparePairFrom, renderCompare } from './pages/compare';
import { pageFor } from './pages/index';
import { optionControls, optionParams, toolTitle } from './pages/page';
import { readHash, writeHash, type HashState } from './state';

// While the logdir has no runs, look again this often.
const EMPTY_LOGDIR_POLL_MS = 5000;

let runs: RunInfo[] = [];
let logdir = '';
const toolsByRun = new Map<string, Promise<ToolInfo[]>>();
let generation = 0;
let pollTimer: number | undefined;

const runSelect = el('select', { id: 'run-select', 'aria-label': 'Run' });
const toolSelect = el('select', { id: 'tool-select', 'aria-label': 'Tool' });
const hostSelect = el('select', { id: 'host-select', 'aria-label': 'Host' });
// Per-step pages only: all steps, or one (its result is of that step's events alone).
const stepSelect = el('select', { id: 'step-select', 'aria-label': 'Step' });
const stepsByRunHost = new Map<string, Promise<Record<string, unknown>[]>>();
const runMeta = el('div', { class: 'run-meta' });
const pageTitle = el('h1', { class: 'page-title' }, 'stepscope');
const pageCrumbs = el('div', { class: 'page-crumbs' });
const pageSlot = el('div', { id: 'page', 'aria-live': 'polite' });
// The logdir's path keeps its head and tail (its last directories name the job) where the bar is narrow.
const logdirText = elidedLabel('span', '', '', '');
const logdirLabel = elidedGroup(el('span', { class: 'logdir' }, logdirText));
const versionLabel = el('span', { class: 'version' });
// The two views: one run's tools (Profile) and two runs side by side (Compare, #view=compare).
const navProfile = el('a', { class: 'topnav-item active', href: '#', id: 'nav-profile' }, 'Profile');
const navCompare = el('a', { class: 'topnav-item', href: '#view=compare', id: 'nav-compare' }, 'Compare');

function field(label: string, control: HTMLElement): HTMLElement {
  return el('div', { class: 'field' }, el('label', { for: control.id }, label), control);
}

const stepField = field('Step', stepSelect);
stepField.hidden = true;

function renderFrame(): void {
  const refresh = el('button', { class: 'icon-button', title: 'Reload runs from the logdir', 'aria-label': 'Reload runs', id: 'refresh' }, '⟳');
  refresh.addEventListener('click', () => void reloadRuns(true));
  const app = document.getElementById('app')!;
  app.replaceChildren(
    el(
      'header',
      { class: 'topbar' },
      el('div', { class: 'brand' }, el('span', { class: 'brand-mark' }, '◧'), 'stepscope'),
      el('nav', { class: 'topnav' }, navProfile, navCompare),
      el('div', { class: 'topbar-spacer' }),
      logdirLabel,
      versionLabel,
      captureButton((run) => void openCapturedRun(run)),
      refresh,
    ),
    el(
      'div',
      { class: 'layout' },
      el('aside', { class: 'sidebar' }, field('Run', runSelect), field('Tool', toolSelect), field('Host', hostSelect), stepField, runMeta),
      el('main', { class: 'content' }, el('div', { class: 'page-header' }, pageTitle, pageCrumbs), pageSlot),
    ),
  );
  runSelect.addEventListener('change', () => navigate({ run: runSelect.value, tool: toolSelect.value, host: '' }));
  // Opening the run list re-reads the logdir, so new runs appear without a reload.
  runSelect.addEventListener('focus', () => void reloadRuns(false));
  toolSelect.addEventListener('change', () => navigate({ run: runSelect.value, tool: toolSelect.value, host: hostSelect.value }));
  hostSelect.addEventListener('change', () => navigate({ run: runSelect.value, tool: toolSelect.value, host: hostSelect.value }));
  stepSelect.addEventListener('change', () => setStep(stepSelect.value || null));
}

// Selects one step ('' or null: all steps) on the current page.
function setStep(step: string | null): void {
  const next = readHash();
  if (step === null || step === '') delete next.extra.step;
  else next.extra.step = step;
  writeHash(next);
  void update();
}

// Every step of a run's host (the overview's step-time graph of all steps), for the step
// selector and the step graph; [] when there are none or the overview fails.
function stepsFor(run: string, host: string): Promise<Record<string, unknown>[]> {
  const key = `${run}\u0000${host}`;
  let pending = stepsByRunHost.get(key);
  if (!pending) {
    pending = api
      .data({ run, tool: 'overview_page', host })
      .then((d) => (Array.isArray(d.step_time_graph) ? (d.step_time_graph as Record<string, unknown>[]) : []))
      .catch(() => []);
    stepsByRunHost.set(key, pending);
  }
  return pending;
}

// Shows a run the "Capture profile" dialog just wrote.
async function openCapturedRun(run: string): Promise<void> {
  await reloadRuns(false);
  navigate({ run, tool: '', host: '' });
}

function navigate(selection: Selection): void {
  // Another tool for the same run and host keeps the selected step.
  const before = readHash();
  const keep: Record<string, string> = before.run === selection.run && before.host === selection.host && before.extra.step ? { step: before.extra.step } : {};
  writeHash({ ...selection, extra: keep });
  void update();
}

function setOptions(select: HTMLSelectElement, options: { value: string; label: string; disabled?: boolean; title?: string }[], selected: string): void {
  select.replaceChildren(
    ...options.map((o) => {
      const option = el('option', { value: o.value }, o.label);
      option.disabled = o.disabled === true;
      if (o.title) option.title = o.title;
      return option;
    }),
  );
  select.value = selected;
  select.disabled = options.length === 0;
  // Run and host names longer than the sidebar keep their head and tail, distinct.
  fitSelect(select);
}

function newestRun(list: RunInfo[]): RunInfo | undefined {
  return [...list].sort((a, b) => b.modified_time_ns - a.modified_time_ns || b.name.localeCompare(a.name))[0];
}

function showPage(node: HTMLElement): void {
  disposeCharts();
  pageSlot.replaceChildren(node);
}

async function reloadRuns(force: boolean): Promise<void> {
  const before = runs.map((r) => `${r.name}:${r.modified_time_ns}`).join('|');
  try {
    const listing = await api.runs();
    runs = listing.runs;
    logdir = listing.logdir;
  } catch (error) {
    if (force) showPage(errorState('Cannot list runs', (error as Error).message));
    return;
  }
  const after = runs.map((r) => `${r.name}:${r.modified_time_ns}`).join('|');
  if (force) {
    toolsByRun.clear();
    stepsByRunHost.clear();
  }
  if (force || before !== after) await update();
}

// The tools of a run (host '': of all its hosts together) and whether each applies.
function toolsFor(run: string, host = ''): Promise<ToolInfo[]> {
  const key = `${run}\u0000${host}`;
  let pending = toolsByRun.get(key);
  if (!pending) {
    pending = api.tools(run, host).then((r) => r.tools);
    pending.catch(() => toolsByRun.delete(key));
    toolsByRun.set(key, pending);
  }
  return pending;
}

async function update(): Promise<void> {
  const current = ++generation;
  const stale = () => current !== generation;
  const hash: HashState = readHash();
  logdirText.dataset.elide = logdir ? `logdir: ${logdir}` : '';
  logdirText.title = logdir;
  fitElided(logdirLabel);
  window.clearTimeout(pollTimer);

  if (runs.length === 0) {
    setOptions(runSelect, [], '');
    setOptions(toolSelect, [], '');
    setOptions(hostSelect, [], '');
    runMeta.replaceChildren();
    pageTitle.textContent = 'No profiles yet';
    pageCrumbs.textContent = '';
    showPage(
      emptyState(
        'No profile runs in this logdir yet',
        `stepscope looks for ${logdir || 'the logdir'}/plugins/profile/<run>/<host>.xplane.pb. This page checks again every few seconds.`,
        'Record one with stepscope::StartProfiling(logdir) / stepscope::ScopedProfile in your program, or run `stepscope serve` on a TensorBoard logdir.',
      ),
    );
    pollTimer = window.setTimeout(() => void reloadRuns(false), EMPTY_LOGDIR_POLL_MS);
    return;
  }

  const comparing = hash.extra.view === 'compare';
  navProfile.classList.toggle('active', !comparing);
  navCompare.classList.toggle('active', comparing);
  // Compare picks its runs and hosts on the page; the sidebar's tool and host do not apply.
  for (const select of [toolSelect, hostSelect]) (select.parentElement as HTMLElement).hidden = comparing;
  if (comparing) {
    stepField.hidden = true;
    await showCompare(hash, stale);
    return;
  }

  const run = runs.find((r) => r.name === hash.run) ?? newestRun(runs)!;
  setOptions(
    runSelect,
    [...runs].reverse().map((r) => ({ value: r.name, label: r.name })),
    run.name,
  );
  runMeta.replaceChildren(
    el('div', {}, `${run.file_count} profile file${run.file_count === 1 ? '' : 's'}, ${formatBytes(run.bytes)}`),
  );
  if (run.assembled_from.length > 1) {
    runMeta.append(el('div', {}, `one session from ${run.assembled_from.length} run directories: ${run.assembled_from.join(', ')}`));
  }
  if (run.modified_time_ns > 0) runMeta.append(el('div', {}, `written ${new Date(run.modified_time_ns / 1e6).toLocaleString()}`));
  pageCrumbs.textContent = `${run.name}`;

  if (run.hosts.length === 0) {
    setOptions(toolSelect, [], '');
    setOptions(hostSelect, [], '');
    pageTitle.textContent = run.name;
    showPage(emptyState('This run holds no profile files yet', 'It may still be being written: the profiler writes <host>.xplane.pb when a capture ends.'));
    return;
  }

  showPage(loading('the profile (the first look at a large profile can take a while)'));
  let tools: ToolInfo[];
  try {
    tools = await toolsFor(run.name);
  } catch (error) {
    if (stale()) return;
    pageTitle.textContent = run.name;
    showPage(errorState(`Cannot read run ${run.name}`, (error as Error).message));
    return;
  }
  if (stale()) return;
  const available = tools.filter((t) => t.available !== false);
  const tool = tools.find((t) => t.id === hash.tool) ?? available.find((t) => t.id === 'overview_page') ?? available[0] ?? tools[0];
  setOptions(
    toolSelect,
    tools.map((t) => ({
      value: t.id,
      label: t.available === false ? `${toolTitle(t.id)} (n/a)` : toolTitle(t.id),
      disabled: t.available === false && t.id !== tool.id,
      title: t.available === false ? `Needs ${t.requirement}` : t.description,
    })),
    tool.id,
  );

  let hosts: string[];
  try {
    hosts = (await api.hosts(run.name, tool.id)).hosts;
    // A tool that applies to no host: every host to choose from, and the page says why.
    if (!hosts.length) hosts = (await api.hosts(run.name)).hosts;
  } catch (error) {
    if (stale()) return;
    showPage(errorState('Cannot list hosts', (error as Error).message));
    return;
  }
  if (stale()) return;
  const host = hosts.includes(hash.host) ? hash.host : hosts[0];
  setOptions(hostSelect, hosts.map((h) => ({ value: h, label: h === 'all' ? 'All hosts (combined)' : h })), host);
  // A tool that applies to the run may not apply to one of its hosts (Multi-GPU needs two
  // devices; one rank has one): say so rather than ask for a result that does not exist.
  let hostTool: ToolInfo | undefined;
  if (hosts.length > 1 && host !== 'all' && tool.available !== false) {
    try {
      hostTool = (await toolsFor(run.name, host)).find((t) => t.id === tool.id);
    } catch {
      hostTool = undefined; // the result request below reports what is wrong
    }
    if (stale()) return;
  }

  const page = pageFor(tool.id);
  let stepRows: Record<string, unknown>[] = [];
  if (page.perStep && tool.available !== false) {
    stepRows = await stepsFor(run.name, host);
    if (stale()) return;
  }
  const stepNumbers = stepRows.map((r) => String(r.step_number));
  const step = stepNumbers.includes(hash.extra.step ?? '') ? hash.extra.step : '';
  if (!step) delete hash.extra.step;
  stepField.hidden = stepRows.length === 0;
  setOptions(
    stepSelect,
    [
      { value: '', label: `All steps (${stepRows.length})` },
      ...stepRows.map((r) => ({ value: String(r.step_number), label: `Step ${String(r.step_number)} · ${formatMs(r.step_time_ms)}` })),
    ],
    step,
  );
  const selection: Selection = { run: run.name, tool: tool.id, host, ...(step ? { step } : {}) };
  const state: HashState = { run: run.name, tool: tool.id, host, extra: hash.extra };
  writeHash(state, true);
  pageTitle.textContent = page.title;
  pageCrumbs.textContent = `${run.name} · ${host === 'all' ? 'all hosts' : host}${step ? ` · step ${step}` : ''}`;
  document.title = `${page.title} · ${run.name} — stepscope`;

  if (tool.available === false) {
    showPage(emptyState(`${page.title} does not apply to this profile`, `It needs ${tool.requirement || 'data this profile does not have'}.`, 'Choose another tool on the left.'));
    return;
  }
  if (hostTool?.available === false) {
    showPage(
      emptyState(
        `${page.title} does not apply to host ${host}`,
        `It needs ${hostTool.requirement || 'data this host does not have'}.`,
        hosts.includes('all') ? 'Choose “All hosts (combined)” or another host on the left.' : 'Choose another host on the left.',
      ),
    );
    return;
  }
  showPage(loading(page.title.toLowerCase()));
  try {
    const options = {
      params: optionParams(selection.tool, hash.extra),
      ...(page.usesTimeRange ? timeRangeOptions(hash.extra.range) : {}),
    };
    const [data, tables] = await Promise.all([
      api.data(selection, options),
      page.usesTables ? api.tables(selection, options).then((t) => t.tables) : Promise.resolve([]),
    ]);
    if (stale()) return;
    const setExtra = (key: string, value: string | null) => {
      const next = readHash();
      if (value === null) delete next.extra[key];
      else next.extra[key] = value;
      writeHash(next);
      void update();
    };
    const node = page.render({ selection, data, tables, hash: state, stepRows, setExtra });
    node.dataset.tool = tool.id;
    // The tool's declared options the page does not draw itself, as generic controls.
    const controls = optionControls(tool.id, page.ownOptions ?? [], hash.extra, setExtra);
    if (controls) node.prepend(controls);
    showPage(node);
  } catch (error) {
    if (stale()) return;
    const status = error instanceof ApiError ? error.status : 0;
    showPage(errorState(status === 410 ? 'The logdir is gone' : `Cannot show ${page.title}`, (error as Error).message));
  }
}

// The Compare view: the run pickers live on the page.
async function showCompare(hash: HashState, stale: () => boolean): Promise<void> {
  const pair = comparePairFrom(runs, hash.extra);
  const extra: Record<string, string> = { view: 'compare', run_a: pair.runA, run_b: pair.runB };
  if (pair.hostA) extra.host_a = pair.hostA;
  if (pair.hostB) extra.host_b = pair.hostB;
  writeHash({ run: '', tool: '', host: '', extra }, true);
  setOptions(runSelect, [...runs].reverse().map((r) => ({ value: r.name, label: r.name })), pair.runB);
  setOptions(toolSelect, [], '');
  setOptions(hostSelect, [], '');
  runMeta.replaceChildren();
  pageTitle.textContent = 'Compare runs';
  pageCrumbs.textContent = `${pair.runA} → ${pair.runB}`;
  document.title = `Compare ${pair.runA} → ${pair.runB} — stepscope`;
  showPage(loading('the comparison'));
  const node = await renderCompare(runs, pair, (next) => {
    const nextExtra: Record<string, string> = { view: 'compare', run_a: next.runA, run_b: next.runB };
    if (next.hostA) nextExtra.host_a = next.hostA;
    if (next.hostB) nextExtra.host_b = next.hostB;
    writeHash({ run: '', tool: '', host: '', extra: nextExtra });
    void update();
  });
  if (stale()) return;
  showPage(node);
}

async function start(): Promise<void> {
  renderFrame();
  window.addEventListener('hashchange', () => void update());
  window.addEventListener('popstate', () => void update());
  try {
    const info = await api.info();
    versionLabel.textContent = `v${info.version}`;
    logdir = info.logdir;
  } catch (error) {
    showPage(errorState('Cannot reach the stepscope server', (error as Error).message));
    return;
  }
  await reloadRuns(true);
}

void start();
