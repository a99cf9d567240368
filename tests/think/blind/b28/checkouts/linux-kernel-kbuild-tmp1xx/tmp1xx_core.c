// SPDX-License-Identifier: GPL-2.0
/*
 * Core helpers for TI TMP1xx digital temperature sensors.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kstrtox.h>
#include "tmp1xx.h"

int tmp1xx_raw_to_mc(s16 raw, unsigned int resolution_bits)
{
	return DIV_ROUND_CLOSEST((int)raw * 1000, 1 << (resolution_bits - 8));
}
EXPORT_SYMBOL_GPL(tmp1xx_raw_to_mc);

s16 tmp1xx_mc_to_raw(int mc, unsigned int resolution_bits)
{
	return DIV_ROUND_CLOSEST(mc * (1 << (resolution_bits - 8)), 1000);
}
EXPORT_SYMBOL_GPL(tmp1xx_mc_to_raw);

int tmp1xx_parse_conv_rate(const char *buf, unsigned int *ms)
{
	unsigned int v;
	int ret = kstrtouint(buf, 10, &v);

	if (ret)
		return ret;
	if (v < 16 || v > 16000)
		return -ERANGE;
	*ms = v;
	return 0;
}
EXPORT_SYMBOL_GPL(tmp1xx_parse_conv_rate);
