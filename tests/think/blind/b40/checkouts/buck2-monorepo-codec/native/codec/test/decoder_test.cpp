#include "codec/decoder.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace codec {

TEST(DecoderTest, RoundTripsPayload) {
  std::vector<uint8_t> buf = MakeFrame(/*seq=*/1, {0x01, 0x02, 0x03});
  Decoder d;
  Frame f;
  ASSERT_TRUE(d.ReadFrame(buf, &f).ok());
  EXPECT_EQ(f.payload.size(), 3u);
}

TEST(DecoderTest, RejectsShortHeader) {
  std::vector<uint8_t> buf = {0x00, 0x01};
  Decoder d;
  Frame f;
  EXPECT_FALSE(d.ReadFrame(buf, &f).ok());
}

}  // namespace codec
