extern "C" __global__ void transpose(int R, int C, const float* __restrict__ x, float* __restrict__ y) {
  const long long t2 = ((long long) R);
  const long long t4 = ((long long) C);
  #pragma unroll 1
  for (long long r_ = kiln::first_y(); r_ < R; r_ += kiln::stride_y()) {
    const int r = (int) r_;
    const long long t3 = ((long long) r);
    const long long t5 = (t3 * t4);
    #pragma unroll 1
    for (long long c_ = kiln::first_x(); c_ < C; c_ += kiln::stride_x()) {
      const int c = (int) c_;
      const long long t = ((long long) c);
      y[((t * t2) + t3)] = x[(t5 + t)];
    }
  }
}
