// The two tenant kernels of gpufleet bench-sharing. The shipped PTX (tenant-kernels.ptx, beside this
// file) is generated from this source; regenerate it from this folder with:
//
//   nvcc -ptx -arch=compute_75 -o tenant-kernels.ptx tenant-kernels.cu
//
// compute_75 is the oldest target CUDA 13 accepts, so the driver JIT-compiles the PTX for any newer card.

// Reads n 16-byte words with a grid-stride loop and writes each thread's XOR of what it read, so the
// loads cannot be optimised away and a test can check every word was read. A memory-bound request
// runs it over each weight layer in turn, as a batch-1 decode step reads its weights.
extern "C" __global__ void stream_read(const uint4* __restrict__ in, unsigned long long n,
                                       unsigned int* __restrict__ out) {
  unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  unsigned int acc = 0;
  for (; i < n; i += stride) {
    uint4 v = in[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// x[i] = max(x[i] * 0.5 - 1, 0) for i < n: the activation after a layer, one tiny launch.
extern "C" __global__ void relu_step(float* __restrict__ x, unsigned int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = fmaxf(x[i] * 0.5f - 1.0f, 0.0f);
  }
}
