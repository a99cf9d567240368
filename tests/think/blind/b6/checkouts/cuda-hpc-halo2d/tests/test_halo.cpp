#include <gtest/gtest.h>
#include <mpi.h>
#include <vector>
#include "halo2d.h"

class MpiEnv : public ::testing::Environment {
 public:
  void SetUp() override { int argc = 0; char** argv = nullptr; MPI_Init(&argc, &argv); }
  void TearDown() override { MPI_Finalize(); }
};

TEST(Halo, InteriorNeighboursReceiveEdges) {
  auto d = halo2d::make_decomp(MPI_COMM_WORLD, 64, 64);
  std::vector<double> h((d.nx + 2) * (d.ny + 2), 0.0);
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int j = 1; j <= d.ny; ++j)
    for (int i = 1; i <= d.nx; ++i) h[j * (d.nx + 2) + i] = rank;
  double* dev; cudaMalloc(&dev, h.size() * sizeof(double));
  cudaMemcpy(dev, h.data(), h.size() * sizeof(double), cudaMemcpyHostToDevice);
  halo2d::exchange(d, dev, 0);
  cudaMemcpy(h.data(), dev, h.size() * sizeof(double), cudaMemcpyDeviceToHost);
  if (d.west != MPI_PROC_NULL) EXPECT_EQ(h[1 * (d.nx + 2) + 0], d.west);
  if (d.east != MPI_PROC_NULL) EXPECT_EQ(h[1 * (d.nx + 2) + d.nx + 1], d.east);
  cudaFree(dev);
}

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new MpiEnv);
  return RUN_ALL_TESTS();
}
