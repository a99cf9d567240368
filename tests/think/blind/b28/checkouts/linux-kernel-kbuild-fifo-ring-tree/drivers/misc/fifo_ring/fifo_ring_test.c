// SPDX-License-Identifier: GPL-2.0-only
#include <kunit/test.h>
#include <linux/fifo_ring.h>

static u8 storage[16];

static void fifo_ring_push_pop_test(struct kunit *test)
{
	struct fifo_ring r = { .buf = storage, .size = 16 };
	u8 v;

	KUNIT_ASSERT_EQ(test, fifo_ring_push(&r, 0x5a), 0);
	KUNIT_EXPECT_EQ(test, fifo_ring_count(&r), 1U);
	KUNIT_ASSERT_EQ(test, fifo_ring_peek(&r, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0x5a);
}

static void fifo_ring_reset_test(struct kunit *test)
{
	struct fifo_ring r = { .buf = storage, .size = 16 };

	fifo_ring_push(&r, 1);
	fifo_ring_reset(&r);
	KUNIT_EXPECT_EQ(test, fifo_ring_count(&r), 0U);
}

static struct kunit_case fifo_ring_test_cases[] = {
	KUNIT_CASE(fifo_ring_push_pop_test),
	KUNIT_CASE(fifo_ring_reset_test),
	{}
};

static struct kunit_suite fifo_ring_test_suite = {
	.name = "fifo_ring",
	.test_cases = fifo_ring_test_cases,
};
kunit_test_suite(fifo_ring_test_suite);

MODULE_LICENSE("GPL");
