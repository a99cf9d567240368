#include <assert.h>
#include "ring_buffer.h"

static void test_push_pop(void)
{
    ring_buffer rb;
    rb_init(&rb, 4);
    assert(rb_push(&rb, 1) == 0);
    assert(rb_pop(&rb) == 1);
    rb_free(&rb);
}

int main(void)
{
    test_push_pop();
    return 0;
}
