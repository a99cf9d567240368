#pragma once
#include <stddef.h>
#include <stdint.h>

typedef struct ringbuf ringbuf_t;

ringbuf_t *ringbuf_create(size_t capacity);
void ringbuf_destroy(ringbuf_t *rb);
size_t ringbuf_write(ringbuf_t *rb, const uint8_t *data, size_t len);
size_t ringbuf_read(ringbuf_t *rb, uint8_t *out, size_t len);
size_t ringbuf_used(const ringbuf_t *rb);
