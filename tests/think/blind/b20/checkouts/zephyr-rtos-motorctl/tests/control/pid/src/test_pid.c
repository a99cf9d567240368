/* SPDX-License-Identifier: Apache-2.0 */
#include <zephyr/ztest.h>
#include <motorctl/pid.h>

ZTEST(pid, test_pid_step)
{
	struct pid_ctx ctx;

	pid_init(&ctx, 1 << 16, 0, 0);
	zassert_equal(pid_step(&ctx, 100, 40), 60);
}

ZTEST_SUITE(pid, NULL, NULL, NULL, NULL, NULL);
