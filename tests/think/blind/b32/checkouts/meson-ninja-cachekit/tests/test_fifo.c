#include <assert.h>
#include "cachekit/fifo.h"

int main(void)
{
    struct ck_fifo *f = ck_fifo_new(2);
    assert(ck_fifo_put(f, 1, "a") == 0);
    assert(ck_fifo_put(f, 2, "b") == 0);
    assert(ck_fifo_put(f, 3, "c") == 0);
    assert(ck_fifo_get(f, 1) == NULL);   /* evicted */
    assert(ck_fifo_get(f, 3) != NULL);
    ck_fifo_free(f);
    return 0;
}
