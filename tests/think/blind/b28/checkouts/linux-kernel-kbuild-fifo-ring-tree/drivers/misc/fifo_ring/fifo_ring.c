// SPDX-License-Identifier: GPL-2.0-only
#include <linux/module.h>
#include <linux/fifo_ring.h>

void fifo_ring_reset(struct fifo_ring *r)
{
	r->head = 0;
	r->tail = 0;
}
EXPORT_SYMBOL_GPL(fifo_ring_reset);

unsigned int fifo_ring_count(const struct fifo_ring *r)
{
	return (r->head - r->tail) & (r->size - 1);
}
EXPORT_SYMBOL_GPL(fifo_ring_count);

int fifo_ring_push(struct fifo_ring *r, u8 b)
{
	if (fifo_ring_count(r) == r->size - 1)
		return -ENOSPC;
	r->buf[r->head] = b;
	r->head = (r->head + 1) & (r->size - 1);
	return 0;
}
EXPORT_SYMBOL_GPL(fifo_ring_push);

int fifo_ring_peek(const struct fifo_ring *r, u8 *out)
{
	if (!fifo_ring_count(r))
		return -ENODATA;
	*out = r->buf[r->tail];
	return 0;
}
EXPORT_SYMBOL_GPL(fifo_ring_peek);

MODULE_DESCRIPTION("Byte FIFO ring buffer helper");
MODULE_LICENSE("GPL");
