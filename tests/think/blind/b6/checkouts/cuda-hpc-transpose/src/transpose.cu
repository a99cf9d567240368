#include "transpose.cuh"

constexpr int TILE = 32;
constexpr int ROWS_PER = 8;

__global__ void transposeTiled(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS_PER)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS_PER)
    out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  dim3 block(TILE, ROWS_PER);
  dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  transposeTiled<<<grid, block, 0, stream>>>(in, out, rows, cols);
}
