#include "acme/decoder.h"
#include "acme/frame_header.h"

namespace acme {

Decoder::Decoder(int sample_rate, int channels)
    : sample_rate_(sample_rate), channels_(channels), gain_(1.0f) {}

void Decoder::set_gain(float gain) { gain_ = gain; }

int Decoder::decode(const uint8_t* data, size_t len, int16_t* out) {
    FrameHeader hdr;
    if (!parse_header(data, len, &hdr)) return -1;
    const int16_t* samples = reinterpret_cast<const int16_t*>(data + kHeaderBytes);
    const size_t total = hdr.samples * static_cast<size_t>(channels_);
    for (size_t i = 0; i < total; ++i) {
        out[i] = static_cast<int16_t>(samples[i] * gain_);
    }
    return static_cast<int>(hdr.samples);
}

}  // namespace acme
