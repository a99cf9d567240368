#include "unit.h"
#include <lumen/heap.h>

static unsigned char arena[64 * 1024];

TEST(heap_alloc_small) {
    heap_init(arena, sizeof arena);
    void *a = kmalloc(24);
    void *b = kmalloc(24);
    ASSERT(a != NULL && b != NULL);
    ASSERT(a != b);
    ASSERT(((uintptr_t)a & 15) == 0);
}

TEST(heap_free_reuse) {
    heap_init(arena, sizeof arena);
    void *a = kmalloc(128);
    kfree(a);
    void *b = kmalloc(128);
    ASSERT_EQ_PTR(a, b);
}

TEST(heap_exhaustion_returns_null) {
    heap_init(arena, sizeof arena);
    ASSERT(kmalloc(sizeof arena * 2) == NULL);
}
