// `stepscope mcp` against the server checks of the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned in package-lock.json), through
// stdio_http_bridge.mjs (the suite drives servers over HTTP only).
//
// Only the scenarios that apply to this server are run, and every check of each must pass.
// The others test fixtures of the suite's reference server (tools named test_simple_text,
// test_image_content, ..., resources test://..., prompts), capabilities stepscope does not
// offer (logging, completions, subscriptions, sampling, elicitation) or HTTP-only
// behaviour (SSE streams, DNS rebinding); docs/mcp.md lists them with the reason.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { HERE, importPackages, makeLogdir, skip, stepscopeBin } from './mcp_test_util.mjs';

const NAME = 'mcp_conformance';
export const APPLICABLE_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list'];

const [{ startBridge }] = await importPackages(NAME, ['./stdio_http_bridge.mjs']);
let suite;
try {
  suite = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
               'dist/index.js');
} catch (error) {
  skip(NAME, `npm packages of tests/mcp missing (./dev setup runs npm ci there): ${error.message.split('\n')[0]}`);
}
const suiteVersion = JSON.parse(readFileSync(join(dirname(suite), '../package.json'), 'utf8')).version;

const bin = stepscopeBin(NAME);
const logdir = makeLogdir(bin);
const bridge = await startBridge(bin, logdir);
const work = mkdtempSync(join(tmpdir(), 'stepscope_mcp_conformance_'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const nodeMajor = Number(process.versions.node.split('.')[0]);
const nodeArgs = nodeMajor < 22 ? ['--import', join(HERE, 'node20_register.mjs')] : [];

console.log(`@modelcontextprotocol/conformance ${suiteVersion} (node ${process.versions.node}) -> ` +
            `bridge ${bridge.url} -> stepscope mcp <logdir>`);
let failed = 0;
for (const scenario of APPLICABLE_SCENARIOS) {
  const out = join(work, scenario);
  // The suite runs asynchronously (it waits on the bridge in this process): spawn, not spawnSync.
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath,
      [...nodeArgs, suite, 'server', '--url', bridge.url, '--scenario', scenario, '-o', out],
      { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    child.on('close', (status) => {
      if (status !== 0) console.log(log);
      resolve(status);
    });
  });
  const checks = readChecks(out);
  console.log(`\nscenario ${scenario}: exit ${code}`);
  for (const check of checks) {
    console.log(`  ${check.status.padEnd(8)} ${check.id}: ${check.description}` +
                (check.errorMessage ? ` (${check.errorMessage})` : ''));
  }
  const bad = checks.filter((c) => c.status === 'FAILURE');
  if (code !== 0 || checks.length === 0 || bad.length > 0) ++failed;
}
await bridge.close();
console.log(`\n${APPLICABLE_SCENARIOS.length - failed} of ${APPLICABLE_SCENARIOS.length} scenarios passed; ` +
            `${bridge.spawned()} stepscope mcp processes served them`);
assert.equal(failed, 0);

function readChecks(dir) {
  const found = [];
  const walk = (d) => {
    let entries = [];
    try { entries = readdirSync(d, { withFileTypes: true }); } catch { return; }
    for (const e of entries) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name === 'checks.json') found.push(...JSON.parse(readFileSync(join(d, e.name), 'utf8')));
    }
  };
  walk(dir);
  return found;
}
