#include <gtest/gtest.h>
#include "vkssao/kernel.hpp"

TEST(SsaoKernel, SamplesInHemisphere) {
    auto k = vkssao::makeKernel(32, 1234);
    for (auto& s : k) EXPECT_GE(s.z, 0.0f);
}

TEST(SsaoKernel, SamplesScaledTowardsOrigin) {
    auto k = vkssao::makeKernel(64, 1234);
    EXPECT_LT(glm::length(k.front()), glm::length(k.back()));
}
