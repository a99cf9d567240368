#include <lumen/heap.h>
#include <lumen/string.h>

struct block {
    size_t size;
    int free;
    struct block *next;
};

static struct block *head;

void heap_init(void *base, size_t len)
{
    head = base;
    head->size = len - sizeof(struct block);
    head->free = 1;
    head->next = NULL;
}

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

void *kmalloc(size_t n)
{
    n = align16(n);
    for (struct block *b = head; b; b = b->next) {
        if (!b->free || b->size < n)
            continue;
        if (b->size >= n + sizeof(struct block) + 16) {
            struct block *rest = (struct block *)((char *)(b + 1) + n);
            rest->size = b->size - n - sizeof(struct block);
            rest->free = 1;
            rest->next = b->next;
            b->next = rest;
            b->size = n;
        }
        b->free = 0;
        return b + 1;
    }
    return NULL;
}

void kfree(void *p)
{
    if (!p)
        return;
    struct block *b = (struct block *)p - 1;
    b->free = 1;
}
