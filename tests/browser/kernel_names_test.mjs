// Unit test of ui/src/components/kernel_names.ts (no browser): the file is transpiled with
// the UI's own TypeScript and imported, and its labels are checked on kernel names as
// CUDA profiles of Eigen (TensorFlow), PyTorch and cuBLAS write them.
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
  const source = fs.readFileSync(path.join(uiRoot, 'src/components/kernel_names.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  return import(`data:text/javascript;base64,${Buffer.from(outputText).toString('base64')}`);
}

const EIGEN = (op) =>
  `void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<Eigen::TensorAssignOp<Eigen::TensorMap<Eigen::Tensor<float, 1, 1, long>, 16, Eigen::MakePointer>, Eigen::TensorCwiseBinaryOp<Eigen::internal::${op}<float, float>, Eigen::TensorMap<Eigen::Tensor<float const, 1, 1, long>, 16, Eigen::MakePointer> const, Eigen::TensorMap<Eigen::Tensor<float const, 1, 1, long>, 16, Eigen::MakePointer> const> const> const, Eigen::GpuDevice>, long>(Eigen::TensorEvaluator<Eigen::TensorAssignOp<Eigen::TensorMap<Eigen::Tensor<float, 1, 1, long>, 16, Eigen::MakePointer>, Eigen::TensorCwiseBinaryOp<Eigen::internal::${op}<float, float>, Eigen::TensorMap<Eigen::Tensor<float const, 1, 1, long>, 16, Eigen::MakePointer> const, Eigen::TensorMap<Eigen::Tensor<float const, 1, 1, long>, 16, Eigen::MakePointer> const> const> const, Eigen::GpuDevice>, long)`;
const PT = (functor, width) =>
  `void at::native::vectorized_elementwise_kernel<${width}, at::native::${functor}<float>, at::detail::Array<char*, 3> >(int, at::native::${functor}<float>, at::detail::Array<char*, 3>)`;

test('kernels sharing a template get labels that differ, without namespaces or parameters', async () => {
  const { kernelLabels } = await loadModule();
  const names = [EIGEN('scalar_sum_op'), EIGEN('scalar_product_op'), EIGEN('scalar_difference_op'), PT('CUDAFunctor_add', 4), PT('MulFunctor', 4), PT('CUDAFunctor_add', 2), 'volta_sgemm_128x64_nn', 'volta_sgemm_128x64_nn'];
  const labels = kernelLabels(names);
  assert.equal(labels.length, names.length);
  assert.equal(new Set(labels.slice(0, 7)).size, 7, `distinct names, distinct labels: ${labels.join(' | ')}`);
  assert.equal(labels[6], labels[7], 'equal names, equal labels');
  assert.equal(labels[6], 'volta_sgemm_128x64_nn', 'a plain name stays as it is');
  for (const [i, op] of [[0, 'scalar_sum_op'], [1, 'scalar_product_op'], [2, 'scalar_difference_op']]) {
    assert.ok(labels[i].startsWith('EigenMetaKernel<'), labels[i]);
    assert.ok(labels[i].includes(op), `${labels[i]} names ${op}`);
    assert.ok(!labels[i].includes('Eigen::') && !labels[i].includes('('), labels[i]);
    assert.ok(labels[i].length <= 80, `${labels[i]} is short`);
  }
  assert.ok(labels[3].includes('CUDAFunctor_add') && labels[4].includes('MulFunctor'), `${labels[3]} / ${labels[4]}`);
  assert.notEqual(labels[3], labels[5], 'the same functor at vector widths 4 and 2 differs by the width');
});

test('a kernel alone keeps its own name and shows that it is a template', async () => {
  const { kernelLabels, shortKernelName } = await loadModule();
  assert.equal(shortKernelName(EIGEN('scalar_sum_op')), 'EigenMetaKernel<…>');
  assert.equal(shortKernelName('void (anonymous namespace)::softmax_warp_forward<float, float, float, 7, false>(float*, float const*, int, int, int)'), 'softmax_warp_forward<…>');
  assert.deepEqual(kernelLabels(['ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn', EIGEN('scalar_sum_op')]), ['ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn', 'EigenMetaKernel<…>']);
});

test('names that differ only in their parameter list are numbered', async () => {
  const { kernelLabels } = await loadModule();
  const labels = kernelLabels(['void k<float>(int)', 'void k<float>(long)']);
  assert.notEqual(labels[0], labels[1], labels.join(' | '));
});

test('op labels: the shortest distinguishing tail of scoped names, the front scope where only it differs', async () => {
  const { opLabels } = await loadModule();
  const names = [
    'replica_4/bert/encoder/layer_3/attention/MatMul',
    'replica_4/bert/encoder/layer_4/attention/MatMul',
    'replica_4/bert/embeddings/GatherV2/Cast',
    'replica_6/bert/embeddings/GatherV2/Cast',
    'aten::addmm',
  ];
  const labels = opLabels(names);
  assert.equal(new Set(labels).size, names.length, labels.join(' | '));
  assert.equal(labels[0], '…/layer_3/attention/MatMul');
  assert.equal(labels[1], '…/layer_4/attention/MatMul');
  assert.ok(labels[2].startsWith('replica_4/') && labels[2].endsWith('/Cast'), labels[2]);
  assert.ok(labels[3].startsWith('replica_6/') && labels[3].endsWith('/Cast'), labels[3]);
  assert.equal(labels[4], 'aten::addmm');
  // Names that differ in the front scope and a middle one: both shown.
  const deep = ['replica_6/bert/layer_17/dropout/RandomUniform', 'replica_6/bert/layer_22/dropout/RandomUniform', 'replica_4/bert/layer_17/dropout/RandomUniform'];
  const deepLabels = opLabels(deep);
  assert.equal(new Set(deepLabels).size, 3, deepLabels.join(' | '));
  assert.equal(deepLabels[0], 'replica_6/…/layer_17/…/RandomUniform');
});

test('readable labels: signatures as kernels, scoped names as ops, in order', async () => {
  const { readableLabels } = await loadModule();
  const names = [EIGEN('scalar_sum_op'), 'replica_4/bert/embeddings/GatherV2/Cast', EIGEN('scalar_product_op'), 'replica_6/bert/embeddings/GatherV2/Cast', 'MemcpyH2D'];
  const labels = readableLabels(names);
  assert.ok(labels[0].startsWith('EigenMetaKernel<') && labels[0].includes('scalar_sum_op'), labels[0]);
  assert.ok(labels[2].includes('scalar_product_op'), labels[2]);
  assert.ok(labels[1].startsWith('replica_4/') && labels[3].startsWith('replica_6/'), labels.join(' | '));
  assert.equal(labels[4], 'MemcpyH2D');
});

test('readable labels: placeholders and PyTorch names with parentheses keep their name', async () => {
  const { readableLabels } = await loadModule();
  const names = ['(no op)', 'enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__', '<built-in method to of Tensor object at 0x7f>', 'aten::mm', 'void k<float>(int)'];
  const labels = readableLabels(names);
  assert.deepEqual(labels.slice(0, 4), names.slice(0, 4), 'not read as C++ signatures');
  assert.equal(labels[4], 'k<…>');
});

test('op labels of thousands of TensorFlow scopes take little time', async () => {
  const { opLabels } = await loadModule();
  const names = [];
  for (let replica = 0; replica < 8; replica++) {
    for (let layer = 0; layer < 24; layer++) {
      for (const op of ['attention/MatMul', 'attention/dropout/Cast', 'output/dense/MatMul', 'output/dropout/Cast']) names.push(`replica_${replica}/bert/encoder/layer_${layer}/${op}`);
    }
  }
  const started = performance.now();
  const labels = opLabels(names);
  const ms = performance.now() - started;
  assert.equal(new Set(labels).size, names.length);
  // Comparing every pair of names took ~1.5 s for TensorFlow's 1,330 kernel ops.
  assert.ok(ms < 500, `${ms.toFixed(0)} ms for ${names.length} names`);
});
