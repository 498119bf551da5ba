// `stepscope mcp` driven by the official MCP TypeScript SDK client (@modelcontextprotocol/sdk:
// Client + StdioClientTransport spawning the real binary) on a logdir of shared traces:
// the tools are listed; run_tool's overview, diff and check answer exactly the JSON the
// CLI prints for the same run (the CLI is run here, nothing is hard-coded); trace search,
// list_runs and the run resources answer; bad arguments come back as MCP errors (a
// JSON-RPC error or a tool result with isError) and the server lives on.
//
// Prints a transcript of every request and an abbreviated answer.
import assert from 'node:assert/strict';

import { cliJson, importPackages, makeLogdir, stepscopeBin } from './mcp_test_util.mjs';

const NAME = 'mcp_client';
const [{ Client }, { StdioClientTransport }] = await importPackages(NAME, [
  '@modelcontextprotocol/sdk/client/index.js',
  '@modelcontextprotocol/sdk/client/stdio.js',
]);

const bin = stepscopeBin(NAME);
const logdir = makeLogdir(bin);

function brief(value, max = 160) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}... (${text.length} chars)` : text;
}
function request(method, params) {
  console.log(`\n-> ${method} ${params ? brief(params, 200) : ''}`);
}
function answer(text) {
  console.log(`<- ${text}`);
}

// A tools/call whose answer is a result (success or isError): the parsed JSON, or the text.
async function callTool(client, name, args) {
  request('tools/call', { name, arguments: args });
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0].type, 'text');
  const text = result.content[0].text;
  if (result.isError) {
    answer(`isError: true, "${text}"`);
    return { isError: true, text };
  }
  const json = JSON.parse(text);
  assert.deepEqual(result.structuredContent, json, 'structuredContent is the text block parsed');
  answer(`isError: false, ${text.length} bytes of JSON (structuredContent too): ${brief(text)}`);
  return { isError: false, json };
}

// A tools/call that must fail as a protocol error: its JSON-RPC code.
async function callToolExpectingRpcError(client, name, args) {
  request('tools/call', { name, arguments: args });
  try {
    await client.callTool({ name, arguments: args });
  } catch (error) {
    answer(`JSON-RPC error ${error.code}: "${error.message}"`);
    return error.code;
  }
  assert.fail(`tools/call ${name} succeeded`);
}

const transport = new StdioClientTransport({ command: bin, args: ['mcp', logdir], stderr: 'pipe' });
let serverLog = '';
transport.stderr.on('data', (chunk) => (serverLog += chunk));
const client = new Client({ name: 'stepscope-mcp-client-test', version: '1.0.0' });
console.log(`spawning: stepscope mcp <logdir with runs two_ranks (2 hosts) and bert>`);
request('initialize', { clientInfo: { name: 'stepscope-mcp-client-test' } });
await client.connect(transport);
answer(`serverInfo ${JSON.stringify(client.getServerVersion())}, capabilities ${JSON.stringify(client.getServerCapabilities())}`);

// ---- tools/list ----
request('tools/list');
const { tools } = await client.listTools();
answer(tools.map((t) => t.name).join(', '));
assert.deepEqual(tools.map((t) => t.name).sort(), ['check', 'diff', 'list_runs', 'run_tool', 'search_trace_events']);
const runTool = tools.find((t) => t.name === 'run_tool');
assert.ok(runTool.inputSchema.properties.tool.enum.includes('overview_page'));
assert.equal(runTool.inputSchema.properties.options.properties.max_kernels.type, 'integer');
console.log(`   run_tool: tool enum of ${runTool.inputSchema.properties.tool.enum.length} tools, ` +
            `options ${Object.keys(runTool.inputSchema.properties.options.properties).join(', ')}`);

// ---- list_runs ----
const runs = await callTool(client, 'list_runs', {});
assert.deepEqual(runs.json.runs.map((r) => r.name).sort(), ['bert', 'two_ranks']);
assert.deepEqual(runs.json.runs.find((r) => r.name === 'two_ranks').hosts.map((h) => h.host), ['rank0', 'rank1']);

// ---- run_tool overview_page: the CLI's numbers ----
const overview = await callTool(client, 'run_tool', { tool: 'overview_page', run: 'two_ranks' });
const cliOverview = cliJson(bin, ['analyze', logdir, '--run', 'two_ranks', '--tool', 'overview_page', '--format', 'json']);
assert.deepEqual(overview.json, cliOverview);
console.log(`   == stepscope analyze --run two_ranks --tool overview_page --format json: steps ${cliOverview.steps}, ` +
            `avg_step_time_ms ${cliOverview.avg_step_time_ms}, input_bound_percent ${cliOverview.input_bound_percent}`);

// One host and an option, against the CLI with the same flags.
const kernels = await callTool(client, 'run_tool', { tool: 'kernel_stats', run: 'two_ranks', host: 'rank1', options: { max_kernels: 5 } });
assert.deepEqual(kernels.json, cliJson(bin, ['analyze', logdir, '--run', 'two_ranks', '--host', 'rank1', '--tool', 'kernel_stats', '--max_kernels', '5', '--format', 'json']));
console.log('   == stepscope analyze --host rank1 --tool kernel_stats --max_kernels 5 --format json');

// ---- diff and check: the CLI's JSON ----
const diff = await callTool(client, 'diff', { run_a: 'two_ranks', run_b: 'bert' });
assert.deepEqual(diff.json, cliJson(bin, ['diff', logdir, '--run_a', 'two_ranks', '--run_b', 'bert', '--format', 'json']));
console.log('   == stepscope diff LOGDIR --run_a two_ranks --run_b bert --format json');
const check = await callTool(client, 'check', { run: 'two_ranks', budgets: ['step_ms <= 1', 'steps >= 1'] });
assert.deepEqual(check.json, cliJson(bin, ['check', logdir, '--run', 'two_ranks', '--max', 'step_ms=1', '--min', 'steps=1', '--format', 'json']));
assert.equal(check.json.all_hold, false);
console.log(`   == stepscope check --max step_ms=1 --min steps=1 --format json (all_hold ${check.json.all_hold}: ` +
            check.json.budgets.map((b) => `${b.key} ${b.status}`).join(', ') + ')');

// ---- search_trace_events ----
const search = await callTool(client, 'search_trace_events', { run: 'two_ranks', query: 'nccl', limit: 3 });
assert.ok(search.json.total > 3 && search.json.truncated);
assert.equal(search.json.events.length, 3);
for (const e of search.json.events) assert.match(e.name, /nccl/i);
const starts = search.json.events.map((e) => e.start_ms);
assert.deepEqual(starts, [...starts].sort((a, b) => a - b));
console.log(`   ${search.json.total} matches; first: ` + search.json.events.map((e) => `${e.name} on ${e.host}/${e.thread} at ${e.start_ms} ms for ${e.duration_ms} ms`).join('; '));
const window = await callTool(client, 'search_trace_events', { run: 'bert', start_ms: 1, end_ms: 2, limit: 5, include_args: false });
for (const e of window.json.events) assert.ok(e.start_ms < 2 && e.start_ms + e.duration_ms > 1, JSON.stringify(e));

// ---- resources ----
request('resources/list');
const { resources } = await client.listResources();
answer(resources.map((r) => `${r.uri} (${r.description})`).join(', '));
assert.deepEqual(resources.map((r) => r.uri).sort(), ['stepscope://runs/bert', 'stepscope://runs/two_ranks']);
request('resources/read', { uri: 'stepscope://runs/two_ranks' });
const read = await client.readResource({ uri: 'stepscope://runs/two_ranks' });
const runInfo = JSON.parse(read.contents[0].text);
answer(brief(read.contents[0].text, 300));
assert.equal(runInfo.steps, cliOverview.steps);
assert.ok(runInfo.available_tools.includes('overview_page'));

// ---- bad arguments: MCP errors, never a crash ----
assert.equal(await callToolExpectingRpcError(client, 'no_such_tool', {}), -32602);
const badOption = await callTool(client, 'run_tool', { tool: 'kernel_stats', run: 'two_ranks', options: { max_kernels: 0 } });
assert.ok(badOption.isError && /max_kernels/.test(badOption.text));
const foreignOption = await callTool(client, 'run_tool', { tool: 'overview_page', options: { hops: 3 } });
assert.ok(foreignOption.isError && /takes no option 'hops'/.test(foreignOption.text));
const unknownRun = await callTool(client, 'run_tool', { tool: 'overview_page', run: 'no_such_run' });
assert.ok(unknownRun.isError && /no run 'no_such_run'; runs: bert, two_ranks/.test(unknownRun.text));
const escape = await callTool(client, 'run_tool', { tool: 'overview_page', run: '../../etc' });
assert.ok(escape.isError && /leaves or walks the logdir/.test(escape.text));
const absolute = await callTool(client, 'search_trace_events', { run: '/etc' });
assert.ok(absolute.isError && /absolute path/.test(absolute.text));
request('resources/read', { uri: 'file:///etc/passwd' });
await assert.rejects(client.readResource({ uri: 'file:///etc/passwd' }), (error) => {
  answer(`JSON-RPC error ${error.code}: "${error.message}"`);
  return error.code === -32002;
});

// ---- still alive ----
request('ping');
assert.deepEqual(await client.ping(), {});
answer('{}');
const again = await callTool(client, 'run_tool', { tool: 'overview_page', run: 'two_ranks' });
assert.deepEqual(again.json, cliOverview);

await client.close();
assert.doesNotMatch(serverLog, /fatal|abort|terminate/i);
console.log(`\nserver stderr:\n${serverLog.trimEnd()}`);
console.log('\nmcp_client: all checks passed');
