extern "C" __global__ void transpose(int R, int C, const float* __restrict__ x, float* __restrict__ y) {
  const long long t2 = ((long long) R);
  const long long t4 = ((long long) C);
  const unsigned r_end = kiln::count(R);
  const unsigned r_step = kiln::step_y(r_end);
  #pragma unroll 1
  for (unsigned r_ = kiln::first_y(r_end); r_ < r_end; r_ += r_step) {
    const int r = (int) r_;
    const long long t3 = ((long long) r);
    const long long t5 = (t3 * t4);
    const unsigned c_end = kiln::count(C);
    const unsigned c_step = kiln::step_x(c_end);
    #pragma unroll 1
    for (unsigned c_ = kiln::first_x(c_end); c_ < c_end; c_ += c_step) {
      const int c = (int) c_;
      const long long t = ((long long) c);
      y[((t * t2) + t3)] = x[(t5 + t)];
    }
  }
}
