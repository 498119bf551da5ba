// The only module that talks to the server: every request goes to /api on this origin.
import type { CommandResults } from './generated/tools';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface ToolInfo {
  id: string;
  description: string;
  requirement: string;
  available?: boolean;
}

export interface RunInfo {
  name: string;
  hosts: string[];
  file_count: number;
  bytes: number;
  modified_time_ns: number;
  // Run directories this session was assembled from (empty for a directory on its own).
  assembled_from: string[];
}

export interface ColumnInfo {
  id: string;
  label: string;
  type: 'string' | 'int' | 'double' | 'bool';
  // What the values measure ("ms", "ms/step", "%", "count"); empty for names and words.
  unit?: string;
}

export interface TableInfo {
  name: string;
  title: string;
  columns: ColumnInfo[];
  row_count: number;
}

export interface Selection {
  run: string;
  tool: string;
  host: string;
  // A step number: the result of that step alone (per-step pages); absent for all steps.
  step?: string;
}

export type Row = Record<string, string | number | boolean | null>;
// A tool's JSON; each page knows its own fields and checks what it reads.
export type ToolData = Record<string, unknown>;

// How a result is computed besides the selection: idle time as an op (framework_op_stats),
// and a time range in ps on the profile's timeline (memory_profile's start_ps / end_ps).
export interface ResultOptions {
  startPs?: string;
  endPs?: string;
  // The tool's declared options as the URL sets them (optionParams: include_idle, module,
  // hops, link_gbps, ...).
  params?: Record<string, string>;
}

// Query parameters of a result request; the selection's keys are set after these, so a
// page parameter cannot replace run, tool, host or step.
function resultParams(options: ResultOptions): Record<string, string | undefined> {
  return {
    ...options.params,
    start_ps: options.startPs,
    end_ps: options.endPs,
  };
}

// The hash's `range=START_PS,END_PS` (memory_profile's brushed range) as result options;
// empty when absent or malformed.
export function timeRangeOptions(range: string | undefined): ResultOptions {
  const match = /^(-?\d+),(-?\d+)$/.exec(range ?? '');
  return match ? { startPs: match[1], endPs: match[2] } : {};
}

function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, value);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

async function getJson<T>(path: string, params: Record<string, string | undefined> = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/${path}${query(params)}`, { headers: { Accept: 'application/json' } });
  } catch {
    throw new ApiError('cannot reach the stepscope server (is `stepscope serve` still running?)', 0);
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(`the server sent something that is not JSON (HTTP ${response.status})`, response.status);
  }
  if (!response.ok) {
    const message =
      body && typeof body === 'object' && 'error' in body ? String((body as { error: unknown }).error) : text;
    throw new ApiError(message, response.status);
  }
  return body as T;
}

// How a result is asked for: include idle time; tool parameters (module, op, hops, ...).
export const api = {
  info: () => getJson<{ version: string; logdir: string; tools: ToolInfo[] }>('info'),
  runs: () => getJson<{ logdir: string; runs: RunInfo[] }>('runs'),
  // host '' (or absent): whether each tool applies to the run's hosts together.
  tools: (run: string, host = '') => getJson<{ run: string; tools: ToolInfo[] }>('tools', { run, host: host || undefined }),
  // With a tool, the hosts it applies to (none when it applies to no host of the run).
  hosts: (run: string, tool?: string) => getJson<{ run: string; hosts: string[] }>('hosts', tool ? { run, tool } : { run }),
  data: (s: Selection, options: ResultOptions = {}) =>
    getJson<ToolData>('data', { ...resultParams(options), run: s.run, tool: s.tool, host: s.host, step: s.step }),
  tables: (s: Selection, options: ResultOptions = {}) =>
    getJson<{ tables: TableInfo[] }>('tables', { ...resultParams(options), run: s.run, tool: s.tool, host: s.host, step: s.step }),
};

// Two runs to compare: A (before) and B (after), each all hosts or one.
export interface ComparePair {
  runA: string;
  runB: string;
  hostA?: string;
  hostB?: string;
}

function compareParams(p: ComparePair): Record<string, string | undefined> {
  return { run_a: p.runA, run_b: p.runB, host_a: p.hostA, host_b: p.hostB };
}

export const compareApi = {
  // `stepscope diff --format json` of the two runs, as `diff` declares it.
  data: (p: ComparePair) => getJson<CommandResults['diff']>('compare', compareParams(p)),
};

// The URL that downloads one comparison table as CSV.
export function compareCsvUrl(p: ComparePair, table: string): string {
  return `/api/compare/csv${query({ ...compareParams(p), table })}`;
}

// The URL that downloads one table of a result as CSV.
export function csvUrl(s: Selection, table: string, options: ResultOptions = {}): string {
  return `/api/csv${query({ ...resultParams(options), run: s.run, tool: s.tool, host: s.host, step: s.step, table })}`;
}
