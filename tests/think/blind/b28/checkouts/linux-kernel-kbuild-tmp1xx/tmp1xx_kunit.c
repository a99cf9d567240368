// SPDX-License-Identifier: GPL-2.0
#include <kunit/test.h>
#include "tmp1xx.h"

static void tmp1xx_raw_to_mc_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, tmp1xx_raw_to_mc(0x1900, 16), 25000);
	KUNIT_EXPECT_EQ(test, tmp1xx_raw_to_mc(-0x0280, 16), -2500);
}

static void tmp1xx_mc_to_raw_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, tmp1xx_mc_to_raw(25000, 16), 0x1900);
}

static void tmp1xx_parse_conv_rate_test(struct kunit *test)
{
	unsigned int ms;

	KUNIT_EXPECT_EQ(test, tmp1xx_parse_conv_rate("125", &ms), 0);
	KUNIT_EXPECT_EQ(test, ms, 125U);
	KUNIT_EXPECT_EQ(test, tmp1xx_parse_conv_rate("8", &ms), -ERANGE);
	KUNIT_EXPECT_EQ(test, tmp1xx_parse_conv_rate("abc", &ms), -EINVAL);
}

static struct kunit_case tmp1xx_cases[] = {
	KUNIT_CASE(tmp1xx_raw_to_mc_test),
	KUNIT_CASE(tmp1xx_mc_to_raw_test),
	KUNIT_CASE(tmp1xx_parse_conv_rate_test),
	{}
};

static struct kunit_suite tmp1xx_suite = {
	.name = "tmp1xx",
	.test_cases = tmp1xx_cases,
};
kunit_test_suite(tmp1xx_suite);
MODULE_LICENSE("GPL");
