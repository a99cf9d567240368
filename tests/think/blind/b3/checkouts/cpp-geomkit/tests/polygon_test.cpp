#include <gtest/gtest.h>
#include "geomkit/polygon.hpp"

using geomkit::Point;
using geomkit::Polygon;

TEST(Polygon, UnitSquareArea) {
    Polygon sq({{0, 0}, {1, 0}, {1, 1}, {0, 1}});
    EXPECT_DOUBLE_EQ(sq.area(), 1.0);
}
