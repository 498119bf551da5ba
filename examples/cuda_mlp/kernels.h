// The few element-wise kernels the CUDA example needs besides cuBLAS (kernels.cu).
#pragma once

#include <cuda_runtime_api.h>

namespace cuda_mlp {

// y[i] = max(x[i], 0)
void Relu(const float* x, float* y, int n, cudaStream_t stream);
// grad[i] = (h[i] > 0) ? grad[i] : 0
void ReluBackward(const float* h, float* grad, int n, cudaStream_t stream);
// grad[i] = 2 (y[i] - t[i]) / batch; *loss += sum (y - t)^2 / batch (loss zeroed first)
void MseGrad(const float* y, const float* t, float* grad, float* loss, int n, int batch, cudaStream_t stream);
// w[i] -= lr * g[i]
void Sgd(float* w, const float* g, float lr, int n, cudaStream_t stream);
// out[i] = (half) in[i]; `out` points to n __half values.
void ToHalf(const float* in, void* out, int n, cudaStream_t stream);

}  // namespace cuda_mlp
