// What the MCP tests share: finding the stepscope binary, the shared traces and the npm
// packages (tests/mcp/node_modules, installed by ./dev from package-lock.json), and a
// scratch logdir made by `stepscope import` of shared traces, so the server reads real
// runs without any shared file being copied, linked or changed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// ctest's skip code (cmake/StepscopeTest.cmake STEPSCOPE_SKIP_RETURN_CODE).
export const SKIP_CODE = 77;
export const HERE = dirname(fileURLToPath(import.meta.url));

export function skip(name, reason) {
  console.log(`stepscope: skipped ${name}: ${reason}`);
  process.exit(SKIP_CODE);
}

// The npm packages, or a skip naming how to get them.
export async function importPackages(name, specifiers) {
  try {
    return await Promise.all(specifiers.map((s) => import(s)));
  } catch (error) {
    skip(name, `npm packages of tests/mcp missing (./dev setup runs npm ci there): ${error.message.split('\n')[0]}`);
  }
}

export function stepscopeBin(name) {
  const bin = process.env.STEPSCOPE_BIN;
  if (!bin) skip(name, 'STEPSCOPE_BIN is not set (ctest sets it)');
  return bin;
}

export function sharedTrace(file) {
  const shared = process.env.STEPSCOPE_SHARED_DIR ?? join(HERE, '../../../shared');
  return join(shared, 'testdata/traces', file);
}

// A logdir with two runs: two_ranks (the PyTorch rank-0 and rank-1 traces, two hosts) and
// bert (an H100 BERT trace, one host). Removed at exit.
export function makeLogdir(bin) {
  const logdir = mkdtempSync(join(tmpdir(), 'stepscope_mcp_'));
  process.on('exit', () => rmSync(logdir, { recursive: true, force: true }));
  const imp = (run, files) =>
    execFileSync(bin, ['import', ...files.map(sharedTrace), '--logdir', logdir, '--run', run], { stdio: 'pipe' });
  imp('two_ranks', ['hta_sampled_rank-0.json.gz', 'hta_sampled_rank-1.json.gz']);
  imp('bert', ['tracelens_h100_bert_small.json.gz']);
  return logdir;
}

// `stepscope <args>` run by the test itself: its stdout parsed as JSON (exit 0 or, for
// check, 5 = a broken budget).
export function cliJson(bin, args) {
  const run = spawnSync(bin, args, { encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 5) throw new Error(`stepscope ${args.join(' ')}: exit ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
