#pragma once
#include <cuda_runtime.h>

void transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream);
