extern "C" __global__ void matvec(int M, int K, const float* __restrict__ w, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ float shared_float[KILN_MAX_BLOCK];
  const long long t2 = ((long long) K);
  for (long long w_ = blockIdx.x; w_ < (long long) M; w_ += gridDim.x) {
    const int m = (int) (w_ % M);
    float acc = 0.0f;
    const long long t = ((long long) m);
    const long long t3 = (t * t2);
    __syncthreads();
    float accPart = (-0.0f);
    for (int k = 0 + (int) threadIdx.x; k < K; k += (int) blockDim.x) {
      const long long t4 = ((long long) k);
      accPart = accPart + (w[(t3 + t4)] * x[t4]);
    }
    accPart = kiln::block_reduce(accPart, shared_float, kiln::SumOp<float>());
    acc = (acc + accPart);
    __syncthreads();
    y[t] = acc;
  }
}
