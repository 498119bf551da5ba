// What every page gets, and how pages link to each other.
import type { Selection, ToolData } from '../api';
import { hashFor, type HashState } from '../state';

export interface PageContext {
  selection: Selection;
  data: ToolData;
  hash: HashState;
  // Changes a page-specific URL parameter (e.g. idle=1) and reloads the page.
  setExtra(key: string, value: string | null): void;
}

export type PageRenderer = (ctx: PageContext) => HTMLElement;

export interface PageInfo {
  title: string;
  render: PageRenderer;
  // Fetch the result with include_idle when the hash says so.
  usesIdle?: boolean;
}

// The href of another tool's page for the same run and host.
export function toolHref(selection: Selection, tool: string): string {
  return hashFor({ run: selection.run, tool, host: selection.host, extra: {} });
}

export const TOOL_TITLES: Record<string, string> = {
  overview_page: 'Overview',
  input_pipeline_analyzer: 'Input pipeline analyzer',
  framework_op_stats: 'Framework op stats',
  kernel_stats: 'Kernel stats',
  advisor: 'Advisor',
  memory_profile: 'Memory profile',
  pod_viewer: 'Pod viewer',
  trace_viewer: 'Trace viewer',
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

export const NO_STEPS_HINT =
  'Wrap your training-loop body in stepscope::Step("train", step) — or, in TensorFlow, ' +
  "tf.profiler.experimental.Trace('train', step_num=step, _r=1) — and profile again.";
