#include <gtest/gtest.h>
#include "quatlib/slerp.hpp"

TEST(Slerp, EndpointsAreExact) {
    quatlib::Quat a = quatlib::Quat::identity();
    quatlib::Quat b = quatlib::Quat::from_axis_angle({0, 0, 1}, 1.0);
    EXPECT_EQ(quatlib::slerp(a, b, 0.0), a);
    EXPECT_EQ(quatlib::slerp(a, b, 1.0), b);
}
