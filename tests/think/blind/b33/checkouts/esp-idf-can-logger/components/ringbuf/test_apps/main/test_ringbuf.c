#include "unity.h"
#include "ringbuf.h"

TEST_CASE("write then read returns same bytes", "[ringbuf]")
{
    ringbuf_t *rb = ringbuf_create(16);
    uint8_t in[4] = {1, 2, 3, 4}, out[4] = {0};
    TEST_ASSERT_EQUAL(4, ringbuf_write(rb, in, 4));
    TEST_ASSERT_EQUAL(4, ringbuf_read(rb, out, 4));
    TEST_ASSERT_EQUAL_UINT8_ARRAY(in, out, 4);
    ringbuf_destroy(rb);
}

TEST_CASE("read from empty buffer returns 0", "[ringbuf]")
{
    ringbuf_t *rb = ringbuf_create(8);
    uint8_t out[2];
    TEST_ASSERT_EQUAL(0, ringbuf_read(rb, out, 2));
    ringbuf_destroy(rb);
}
