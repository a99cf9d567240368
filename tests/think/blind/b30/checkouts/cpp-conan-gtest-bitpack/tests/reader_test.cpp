#include <gtest/gtest.h>
#include "bitpack/reader.hpp"

TEST(BitReader, ReadsAcrossByteBoundary) {
    const std::uint8_t buf[] = {0b1010'1100, 0b0101'0011};
    bitpack::BitReader r{buf};
    r.skip(4);
    EXPECT_EQ(r.read(8), 0b1100'0101u);
}
