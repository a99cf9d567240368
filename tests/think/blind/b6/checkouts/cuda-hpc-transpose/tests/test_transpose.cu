#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "transpose.cuh"

int main(int argc, char** argv) {
  int rows = 1024, cols = 1024;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!strcmp(argv[i], "--rows")) rows = atoi(argv[i + 1]);
    if (!strcmp(argv[i], "--cols")) cols = atoi(argv[i + 1]);
  }
  std::vector<float> h(rows * cols), out(rows * cols);
  for (int i = 0; i < rows * cols; ++i) h[i] = float(i);
  float *d_in, *d_out;
  cudaMalloc(&d_in, h.size() * sizeof(float));
  cudaMalloc(&d_out, h.size() * sizeof(float));
  cudaMemcpy(d_in, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  transpose(d_in, d_out, rows, cols, 0);
  cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (out[c * rows + r] != h[r * cols + c]) {
        printf("mismatch at (%d,%d)\n", r, c);
        return 1;
      }
  printf("ok %dx%d\n", rows, cols);
  return 0;
}
