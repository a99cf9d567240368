#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_floating_point.hpp>
#include "orbit/render/shadow_cascades.hpp"

using Catch::Matchers::WithinRel;

TEST_CASE("cascade splits cover the full view range", "[cascades]") {
    auto splits = orbit::computeCascadeSplits(4, 0.1f, 500.0f);
    REQUIRE(splits.size() == 4);
    REQUIRE_THAT(splits.back(), WithinRel(500.0f, 1e-5f));
}

TEST_CASE("cascade splits are strictly increasing", "[cascades]") {
    auto splits = orbit::computeCascadeSplits(4, 0.1f, 500.0f);
    for (size_t i = 1; i < splits.size(); ++i) REQUIRE(splits[i] > splits[i - 1]);
}

TEST_CASE("first split matches uniform scheme", "[cascades]") {
    auto splits = orbit::computeCascadeSplits(4, 0.1f, 500.0f);
    REQUIRE_THAT(splits[0], WithinRel(125.075f, 1e-4f));
}
