#include "examples/cuda_mlp/kernels.h"

#include <cuda_fp16.h>

namespace cuda_mlp {
namespace {

constexpr int kThreads = 256;
int Blocks(int n) { return (n + kThreads - 1) / kThreads; }

__global__ void ReluKernel(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f);
}

__global__ void ReluBackwardKernel(const float* h, float* grad, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && h[i] <= 0.0f) grad[i] = 0.0f;
}

__global__ void MseGradKernel(const float* y, const float* t, float* grad, float* loss, int n, int batch) {
  __shared__ float partial[kThreads];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float d = i < n ? y[i] - t[i] : 0.0f;
  if (i < n) grad[i] = 2.0f * d / batch;
  partial[threadIdx.x] = d * d;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(loss, partial[0] / batch);
}

__global__ void SgdKernel(float* w, const float* g, float lr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] -= lr * g[i];
}

__global__ void ToHalfKernel(const float* in, __half* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float2half(in[i]);
}

}  // namespace

void Relu(const float* x, float* y, int n, cudaStream_t stream) {
  ReluKernel<<<Blocks(n), kThreads, 0, stream>>>(x, y, n);
}
void ReluBackward(const float* h, float* grad, int n, cudaStream_t stream) {
  ReluBackwardKernel<<<Blocks(n), kThreads, 0, stream>>>(h, grad, n);
}
void MseGrad(const float* y, const float* t, float* grad, float* loss, int n, int batch, cudaStream_t stream) {
  cudaMemsetAsync(loss, 0, sizeof(float), stream);
  MseGradKernel<<<Blocks(n), kThreads, 0, stream>>>(y, t, grad, loss, n, batch);
}
void Sgd(float* w, const float* g, float lr, int n, cudaStream_t stream) {
  SgdKernel<<<Blocks(n), kThreads, 0, stream>>>(w, g, lr, n);
}
void ToHalf(const float* in, void* out, int n, cudaStream_t stream) {
  ToHalfKernel<<<Blocks(n), kThreads, 0, stream>>>(in, static_cast<__half*>(out), n);
}

}  // namespace cuda_mlp
