// Copyright 2025 Motion Team
#include <gtest/gtest.h>

#include "trajectory_smoother/smoother.hpp"

TEST(Smoother, ClampsVelocity)
{
  trajectory_smoother::Limits lim{1.0, 2.0};
  trajectory_smoother::Smoother s(lim);
  auto out = s.smooth({0.0, 0.5, 3.0}, 0.1);
  for (double v : out) {
    EXPECT_LE(std::abs(v), 1.0 + 1e-9);
  }
}

TEST(Smoother, KeepsFeasibleProfileUnchanged)
{
  trajectory_smoother::Limits lim{1.0, 20.0};
  trajectory_smoother::Smoother s(lim);
  auto out = s.smooth({0.0, 0.1, 0.2}, 0.1);
  EXPECT_DOUBLE_EQ(out[2], 0.2);
}
