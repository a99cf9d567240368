#pragma once
#include <stdint.h>
struct ck_fifo;
struct ck_fifo *ck_fifo_new(unsigned cap);
void ck_fifo_free(struct ck_fifo *f);
int ck_fifo_put(struct ck_fifo *f, uint64_t key, void *val);
void *ck_fifo_get(struct ck_fifo *f, uint64_t key);
