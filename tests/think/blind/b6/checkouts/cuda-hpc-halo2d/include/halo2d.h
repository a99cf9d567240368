#pragma once
#include <mpi.h>
#include <cuda_runtime.h>

namespace halo2d {

struct Decomp {
  MPI_Comm cart;
  int px, py;         // process grid
  int rx, ry;         // my coords
  int nx, ny;         // local interior size
  int north, south, east, west;
};

Decomp make_decomp(MPI_Comm comm, int gnx, int gny);
void exchange(const Decomp& d, double* d_field, cudaStream_t s);

}  // namespace halo2d
