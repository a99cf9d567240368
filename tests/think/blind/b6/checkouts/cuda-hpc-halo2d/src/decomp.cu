#include "halo2d.h"

namespace halo2d {

Decomp make_decomp(MPI_Comm comm, int gnx, int gny) {
  Decomp d{};
  int size; MPI_Comm_size(comm, &size);
  int dims[2] = {0, 0}, periods[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(comm, 2, dims, periods, 1, &d.cart);
  int coords[2]; int rank; MPI_Comm_rank(d.cart, &rank);
  MPI_Cart_coords(d.cart, rank, 2, coords);
  d.px = dims[0]; d.py = dims[1]; d.rx = coords[0]; d.ry = coords[1];
  d.nx = gnx / d.px; d.ny = gny / d.py;
  MPI_Cart_shift(d.cart, 0, 1, &d.west, &d.east);
  MPI_Cart_shift(d.cart, 1, 1, &d.south, &d.north);
  return d;
}

}  // namespace halo2d
