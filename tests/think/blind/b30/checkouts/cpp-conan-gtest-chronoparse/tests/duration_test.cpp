#include <gtest/gtest.h>
#include "chronoparse/duration.hpp"

using namespace std::chrono_literals;

TEST(Duration, ParsesSeconds) {
    EXPECT_EQ(chronoparse::parse("90s"), 90s);
}

TEST(Duration, ParsesCompound) {
    EXPECT_EQ(chronoparse::parse("1h30m"), 90min);
}

TEST(Duration, RejectsGarbage) {
    EXPECT_FALSE(chronoparse::try_parse("soon").has_value());
}
