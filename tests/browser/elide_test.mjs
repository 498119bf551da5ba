// Unit test of ui/src/components/elide.ts (no browser): the file is transpiled with the
// UI's own TypeScript and imported, and its labels are checked on the names that lost
// their identity when cut at the end: run names that differ in their last character,
// device names, TensorFlow op paths that differ in one middle scope.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { env } from './harness.mjs';

const uiRoot = env('STEPSCOPE_UI_ROOT');

async function loadModule() {
  const require = createRequire(path.join(uiRoot, 'package.json'));
  const ts = require('typescript');
  const source = fs.readFileSync(path.join(uiRoot, 'src/components/elide.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  return import(`data:text/javascript;base64,${Buffer.from(outputText).toString('base64')}`);
}

const TF_OP = (replica, layer, scope = 'self_attention/dropout_3/dropout/random_uniform/RandomUniform') =>
  `replica_${replica}/bert_span_labeler/bert_encoder_1/transformer/layer_${layer}/${scope}`;

test('a long name keeps its head and tail; a short one is unchanged', async () => {
  const { elideMiddle } = await loadModule();
  assert.equal(elideMiddle('aten::mm', 20), 'aten::mm');
  const label = elideMiddle('kineto_resnet50_num_workers_0', 20);
  assert.equal([...label].length, 20, label);
  assert.ok(label.startsWith('kineto_') && label.endsWith('workers_0') && label.includes('…'), label);
  // Code points, not UTF-16 units: an emoji is never cut in half.
  assert.ok(!/[\uD800-\uDFFF]/.test(elideMiddle('😀😀😀😀😀😀😀😀😀😀', 5).replace(/😀/g, '')));
});

test('names that would read the same stay distinct and keep the part that differs', async () => {
  const { distinctElided } = await loadModule();
  const runs = ['kineto_resnet50_num_workers_0', 'kineto_resnet50_num_workers_4'];
  const runLabels = distinctElided(runs, 16);
  assert.notEqual(runLabels[0], runLabels[1], runLabels.join(' | '));

  const ops = [];
  for (const replica of [4, 6]) for (let layer = 0; layer < 24; layer++) ops.push(TF_OP(replica, layer), TF_OP(replica, layer, 'output/dense/MatMul'));
  const labels = distinctElided([...ops, ops[0]], 40);
  assert.equal(labels.length, ops.length + 1);
  assert.equal(labels[labels.length - 1], labels[0], 'equal names, equal labels');
  assert.equal(new Set(labels.slice(0, -1)).size, ops.length, 'different names, different labels');
  labels.slice(0, -1).forEach((label, i) => {
    const layer = /layer_\d+/.exec(ops[i])[0];
    assert.ok(label.includes(`${layer}/`), `${label} names ${layer}`);
    assert.ok(label.endsWith(ops[i].split('/').pop()), `${label} ends with the op`);
    assert.ok(label.startsWith(ops[i].slice(0, 9)), `${label} starts with the replica`);
    assert.ok(label.length <= 60, `${label} is short`);
  });
});

test('labels fitted to a width in px: as many characters as fit, distinct', async () => {
  const { distinctFitted } = await loadModule();
  const measure = (text) => 7 * [...text].length; // a monospace font, 7 px a character
  const names = ['rank0:/device:GPU:0', 'rank1:/device:GPU:1', 'short'];
  const labels = distinctFitted(names, 91, measure);
  assert.equal(labels[2], 'short');
  assert.ok(measure(labels[0]) <= 91 && measure(labels[1]) <= 91, labels.join(' | '));
  assert.notEqual(labels[0], labels[1]);
  assert.ok(labels[0].startsWith('rank0') && labels[1].endsWith('GPU:1'), labels.join(' | '));
});

test('distinct labels for many names take little time', async () => {
  const { distinctElided } = await loadModule();
  const names = [];
  for (let i = 0; i < 20000; i++) names.push(TF_OP(i % 8, i % 24, `block_${Math.floor(i / 192)}/dropout/RandomUniform`));
  const started = performance.now();
  const labels = distinctElided(names, 40);
  const ms = performance.now() - started;
  assert.equal(new Set(labels).size, new Set(names).size);
  assert.ok(ms < 3000, `${ms.toFixed(0)} ms for 20,000 names`);
});
