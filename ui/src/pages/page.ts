// What every page gets, and how pages link to each other.
import type { Selection, TableInfo, ToolData } from '../api';
import type { ColumnSpec } from '../components/table';
import { TOOL_COLUMNS, TOOL_OPTIONS, type ToolOptionDecl, type ToolResults } from '../generated/tools';
import { el } from '../format';
import { hashFor, type HashState } from '../state';

export interface PageContext {
  selection: Selection;
  data: ToolData;
  // The result's declared tables (/api/tables: column ids, labels, types), for pages with
  // usesTables; empty otherwise.
  tables: TableInfo[];
  hash: HashState;
  // Changes a page-specific URL parameter (e.g. include_idle=1) and reloads the page.
  setExtra(key: string, value: string | null): void;
  // Per-step pages: every step of the run (the overview's step_time_graph rows, all steps),
  // whatever step is selected; empty on other pages.
  stepRows: Record<string, unknown>[];
}

// The page's result as its tool declares it (ui/src/generated/tools.ts, generated from the
// C++ declaration): a renamed or removed field is a compile error in the page.
export function resultOf<T extends keyof ToolResults>(ctx: PageContext, _tool: T): ToolResults[T] {
  return ctx.data as unknown as ToolResults[T];
}

// The selected step number ('' = all steps) and selecting one (null = all steps).
export function selectedStep(ctx: PageContext): string {
  return ctx.selection.step ?? '';
}
export function selectStep(ctx: PageContext, step: string | null): void {
  ctx.setExtra('step', step);
}

export type PageRenderer = (ctx: PageContext) => HTMLElement;

export interface PageInfo {
  title: string;
  render: PageRenderer;
  // Fetch /api/tables with the data: the page labels its tables as the tool declares them.
  usesTables?: boolean;
  // The page can show one step (the sidebar's step selector, `step=N` in the URL).
  perStep?: boolean;
  // Fetch the result for the hash's time range (`range=START_PS,END_PS`) when it has one.
  usesTimeRange?: boolean;
  // The tool options (generated TOOL_OPTIONS) the page draws controls for itself; the
  // others get generic controls above the page (optionControls).
  ownOptions?: string[];
}

// The tool's declared options (generated from its C++ declaration) as the URL holds
// them, under the same names as the CLI flags and the API parameters: every request for
// the page's result and CSV carries them.
export function optionParams(tool: string, extra: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const option of TOOL_OPTIONS[tool] ?? []) {
    if (extra[option.name]) params[option.name] = extra[option.name];
  }
  return params;
}

function optionInput(option: ToolOptionDecl, value: string, set: (value: string | null) => void): HTMLElement {
  const label = el('label', { class: 'toggle option-control', title: option.help, 'data-option': option.name });
  if (option.kind === 'bool') {
    const box = el('input', { type: 'checkbox' });
    box.checked = value === '1' || value === 'true';
    box.addEventListener('change', () => set(box.checked ? '1' : null));
    label.append(box, el('span', {}, option.name));
    return label;
  }
  const input = el('input', { type: option.kind === 'text' ? 'text' : 'number', value, placeholder: option.default || 'default' });
  if (option.min !== undefined) input.setAttribute('min', String(option.min));
  if (option.max !== undefined) input.setAttribute('max', String(option.max));
  input.addEventListener('change', () => set(input.value.trim() || null));
  label.append(el('span', {}, option.name), input);
  return label;
}

// Generic controls for the tool's declared options the page does not draw itself
// (PageInfo.ownOptions): an option declared in C++ reaches the UI with no page change.
// Null when there are none.
export function optionControls(tool: string, own: string[], extra: Record<string, string>, setExtra: (key: string, value: string | null) => void): HTMLElement | null {
  const options = (TOOL_OPTIONS[tool] ?? []).filter((o) => !own.includes(o.name));
  if (!options.length) return null;
  return el('div', { class: 'option-bar', 'data-options': tool }, ...options.map((o) => optionInput(o, extra[o.name] ?? '', (v) => setExtra(o.name, v))));
}

// The columns of the declared table `name` as the tool labels them (ids in `omit` left
// out), each with the page's own rendering where `custom` gives one. Empty when the tool
// declares no such table.
export function declaredColumns(ctx: PageContext, name: string, custom: Record<string, Partial<ColumnSpec>> = {}, omit: string[] = []): ColumnSpec[] {
  const table = ctx.tables.find((t) => t.name === name);
  if (!table) return [];
  return table.columns.filter((c) => !omit.includes(c.id)).map((c) => ({ id: c.id, label: c.label, type: c.type, ...custom[c.id] }));
}

// The columns of `tool`'s table `name` as its C++ declaration gives them (generated types),
// in declared order: every declared column is shown, except a conditional one the result
// left out (no row has it) and those in `omit`, the page's one place to hide a column.
export function generatedColumns(tool: string, name: string, rows: object[], custom: Record<string, Partial<ColumnSpec>> = {}, omit: string[] = []): ColumnSpec[] {
  const declared = TOOL_COLUMNS[tool]?.[name] ?? [];
  const present = (id: string) => rows.some((r) => id in r);
  return declared
    .filter((c) => !omit.includes(c.id) && (!c.conditional || present(c.id)))
    .map((c) => ({ id: c.id, label: c.label, description: c.description || undefined, ...custom[c.id] }));
}

// "PyTorch", "TensorFlow", ... as the tool detected it; empty when unknown.
export function frameworkLabel(data: Record<string, unknown>): string {
  return typeof data.framework === 'string' && data.framework !== 'unknown' ? str(data.framework_label) : '';
}

// The href of another tool's page for the same run and host.
export function toolHref(selection: Selection, tool: string): string {
  return hashFor({ run: selection.run, tool, host: selection.host, extra: selection.step ? { step: selection.step } : {} });
}

export const TOOL_TITLES: Record<string, string> = {
  overview_page: 'Overview',
  input_pipeline_analyzer: 'Input pipeline analyzer',
  framework_op_stats: 'Framework op stats',
  kernel_stats: 'Kernel stats',
  advisor: 'Advisor',
  memory_profile: 'Memory profile',
  memory_viewer: 'Memory viewer',
  graph_viewer: 'Graph viewer',
  pod_viewer: 'Pod viewer',
  trace_viewer: 'Trace viewer',
  multi_gpu: 'Multi-GPU',
  op_profile: 'Op profile',
  hlo_stats: 'HLO stats',
  roofline_model: 'Roofline model',
  tf_data_bottleneck_analysis: 'tf.data bottleneck analysis',
};

export function toolTitle(id: string): string {
  return TOOL_TITLES[id] ?? id.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

// Helpers to read a tool's JSON defensively: a field that is missing or of another type
// reads as empty, so a page shows "–" rather than breaking.
export function obj(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
export function arr<T = Record<string, unknown>>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}
export function str(value: unknown): string {
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
}

// How to mark steps, in the profile's framework's words: the tools end their "No steps
// were found" statement with it; the generic hint otherwise.
export function stepsHint(d: Record<string, unknown>, field = 'input_bound_statement'): string {
  const statement = str(d[field]);
  const sentence = statement.startsWith('No steps were found') ? statement.replace(/^No steps were found[^.]*\. */, '') : '';
  return sentence || NO_STEPS_HINT;
}

const NO_STEPS_HINT =
  'Mark each training step and profile again: prof.step() under torch.profiler (PyTorch), ' +
  "jax.profiler.StepTraceAnnotation('train', step_num=step) (JAX), " +
  "tf.profiler.experimental.Trace('train', step_num=step, _r=1) (TensorFlow) or stepscope::Step (C++).";
