// Copyright 2025 Motion Team
#pragma once
#include <vector>

namespace trajectory_smoother
{
struct Limits
{
  double max_vel;
  double max_acc;
};

class Smoother
{
public:
  explicit Smoother(const Limits & lim) : lim_(lim) {}
  std::vector<double> smooth(const std::vector<double> & vel, double dt) const;

private:
  Limits lim_;
};
}  // namespace trajectory_smoother
