#include <gtest/gtest.h>
#include "meshio/ply_reader.hpp"

TEST(PlyReader, ReadsAsciiCube) {
    auto mesh = meshio::read_ply(MESHIO_TEST_DATA "/cube_ascii.ply");
    ASSERT_TRUE(mesh);
    EXPECT_EQ(mesh->vertices.size(), 8u);
    EXPECT_EQ(mesh->faces.size(), 12u);
}
