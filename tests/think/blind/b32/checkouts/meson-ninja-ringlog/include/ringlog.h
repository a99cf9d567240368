#ifndef RINGLOG_H
#define RINGLOG_H
#include <stddef.h>
#include <sys/types.h>

struct ringlog;

struct ringlog *rl_open(size_t slots);
void rl_close(struct ringlog *rl);
int rl_append(struct ringlog *rl, const void *data, size_t len);
ssize_t rl_read(struct ringlog *rl, void *buf, size_t cap);
size_t rl_count(const struct ringlog *rl);

#endif
