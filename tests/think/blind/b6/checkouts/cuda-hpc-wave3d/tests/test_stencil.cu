#include <cstdio>
#include <cmath>
#include "../src/stencil.cuh"

int main() {
  // d2/dx2 of sin(x) sampled on 64 points should be -sin(x) to 4th order
  const int n = 64;
  double err = stencil_selfcheck_order4(n);
  printf("max err = %.3e\n", err);
  return err < 1e-6 ? 0 : 1;
}
