// Copyright 2025 Motion Team
#include "trajectory_smoother/smoother.hpp"

#include <algorithm>
#include <cmath>

namespace trajectory_smoother
{
std::vector<double> Smoother::smooth(const std::vector<double> & vel, double dt) const
{
  std::vector<double> out(vel.size());
  double prev = 0.0;
  for (size_t i = 0; i < vel.size(); ++i) {
    double v = std::clamp(vel[i], -lim_.max_vel, lim_.max_vel);
    const double dv_max = lim_.max_acc * dt;
    v = std::clamp(v, prev - dv_max, prev + dv_max);
    out[i] = v;
    prev = v;
  }
  return out;
}
}  // namespace trajectory_smoother
