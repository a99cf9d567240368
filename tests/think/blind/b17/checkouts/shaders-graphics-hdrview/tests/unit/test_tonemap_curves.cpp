#include <cassert>
#include <cmath>
#include "post/tonemap.hpp"

int main() {
    using namespace hdrview;
    assert(std::fabs(tonemapACES(0.0f)) < 1e-6f);
    assert(tonemapACES(1000.0f) <= 1.0f);
    assert(std::fabs(tonemapReinhard(1.0f) - 0.5f) < 1e-6f);
    return 0;
}
