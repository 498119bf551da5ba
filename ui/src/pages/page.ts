// What every page gets, and how pages link to each other.
import type { Selection, TableInfo, ToolData } from '../api';
import type { ColumnSpec } from '../components/table';
import type { ToolResults } from '../generated/tools';
import { hashFor, type HashState } from '../state';

export interface PageContext {
  selection: Selection;
  data: ToolData;
  // The result's declared tables (/api/tables: column ids, labels, types), for pages with
  // usesTables; empty otherwise.
  tables: TableInfo[];
  hash: HashState;
  // Changes a page-specific URL parameter (e.g. idle=1) and reloads the page.
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
  // Fetch the result with include_idle when the hash says so.
  usesIdle?: boolean;
  // Fetch /api/tables with the data: the page labels its tables as the tool declares them.
  usesTables?: boolean;
  // The page can show one step (the sidebar's step selector, `step=N` in the URL).
  perStep?: boolean;
  // Fetch the result for the hash's time range (`range=START_PS,END_PS`) when it has one.
  usesTimeRange?: boolean;
  // URL parameters the page passes on to the tool (e.g. module, op, hops).
  params?: string[];
}

// The page's tool parameters as the URL holds them (PageInfo.params).
export function toolParams(keys: string[] | undefined, extra: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key of keys ?? []) {
    if (extra[key]) params[key] = extra[key];
  }
  return params;
}

// The columns of the declared table `name` as the tool labels them (ids in `omit` left
// out), each with the page's own rendering where `custom` gives one. Empty when the tool
// declares no such table.
export function declaredColumns(ctx: PageContext, name: string, custom: Record<string, Partial<ColumnSpec>> = {}, omit: string[] = []): ColumnSpec[] {
  const table = ctx.tables.find((t) => t.name === name);
  if (!table) return [];
  return table.columns.filter((c) => !omit.includes(c.id)).map((c) => ({ id: c.id, label: c.label, type: c.type, ...custom[c.id] }));
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
