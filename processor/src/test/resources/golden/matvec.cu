extern "C" __global__ void matvec(int M, int K, const float* __restrict__ w, const float* __restrict__ x, float* __restrict__ y) {
  const long long t2 = ((long long) K);
  for (long long m_ = kiln::first_x(); m_ < M; m_ += kiln::stride_x()) {
    const int m = (int) m_;
    float acc = 0.0f;
    const long long t = ((long long) m);
    const long long t3 = (t * t2);
    for (int k = 0; k < K; k++) {
      const long long t4 = ((long long) k);
      const float acc2 = (acc + (w[(t3 + t4)] * x[t4]));
      acc = acc2;
    }
    y[t] = acc;
  }
}
