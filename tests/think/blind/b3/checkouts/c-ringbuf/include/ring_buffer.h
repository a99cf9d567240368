#ifndef RING_BUFFER_H
#define RING_BUFFER_H
#include <stddef.h>

typedef struct {
    int *data;
    size_t cap, head, tail, count;
} ring_buffer;

int rb_init(ring_buffer *rb, size_t cap);
void rb_free(ring_buffer *rb);
int rb_push(ring_buffer *rb, int v);
int rb_pop(ring_buffer *rb);
int rb_peek(const ring_buffer *rb);

#endif
