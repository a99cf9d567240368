#include <gtest/gtest.h>
#include <vector>
#include "acme/decoder.h"

namespace {
constexpr int kRate = 48000;
constexpr int kChannels = 2;
constexpr size_t kFrameSamples = 1024;
}

TEST(DecoderTest, DecodesSilence) {
    acme::Decoder dec(kRate, kChannels);
    std::vector<uint8_t> packet = acme::testing::silent_packet(kFrameSamples, kChannels);
    std::vector<int16_t> pcm(kFrameSamples * kChannels);
    ASSERT_EQ(dec.decode(packet.data(), packet.size(), pcm.data()), static_cast<int>(kFrameSamples));
    for (int16_t s : pcm) EXPECT_EQ(s, 0);
}

TEST(DecoderTest, AppliesGain) {
    acme::Decoder dec(kRate, kChannels);
    dec.set_gain(0.5f);
    std::vector<uint8_t> packet = acme::testing::constant_packet(kFrameSamples, kChannels, 1000);
    std::vector<int16_t> pcm(kFrameSamples * kChannels);
    dec.decode(packet.data(), packet.size(), pcm.data());
    EXPECT_EQ(pcm[0], 500);
}
