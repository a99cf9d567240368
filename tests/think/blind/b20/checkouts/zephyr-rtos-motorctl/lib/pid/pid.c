/* SPDX-License-Identifier: Apache-2.0 */
#include <motorctl/pid.h>

void pid_init(struct pid_ctx *ctx, int32_t kp, int32_t ki, int32_t kd)
{
	ctx->kp = kp;
	ctx->ki = ki;
	ctx->kd = kd;
	ctx->integ = 0;
	ctx->prev_err = 0;
}

int32_t pid_step(struct pid_ctx *ctx, int32_t setpoint, int32_t measured)
{
	int32_t err = setpoint - measured;
	int64_t out;

	ctx->integ += err;
	out = ((int64_t)ctx->kp * err + (int64_t)ctx->ki * ctx->integ +
	       (int64_t)ctx->kd * (err - ctx->prev_err)) >> 16;
	ctx->prev_err = err;

	return (int32_t)out;
}
