/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TMP1XX_H
#define _TMP1XX_H
#include <linux/types.h>

int tmp1xx_raw_to_mc(s16 raw, unsigned int resolution_bits);
s16 tmp1xx_mc_to_raw(int mc, unsigned int resolution_bits);
int tmp1xx_parse_conv_rate(const char *buf, unsigned int *ms);

#endif
