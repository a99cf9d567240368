/* SPDX-License-Identifier: Apache-2.0 */
#ifndef MOTORCTL_PID_H_
#define MOTORCTL_PID_H_

#include <stdint.h>

#define PID_OUT_MAX 1000
#define PID_OUT_MIN (-1000)

struct pid_ctx {
	int32_t kp, ki, kd; /* Q16.16 */
	int32_t integ;
	int32_t prev_err;
};

void pid_init(struct pid_ctx *ctx, int32_t kp, int32_t ki, int32_t kd);
int32_t pid_step(struct pid_ctx *ctx, int32_t setpoint, int32_t measured);

#endif
