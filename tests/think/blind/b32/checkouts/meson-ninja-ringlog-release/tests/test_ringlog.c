#include <assert.h>
#include <string.h>
#include "ringlog.h"

static void test_append_and_read(void)
{
    struct ringlog *rl = rl_open(4);
    rl_append(rl, "a", 1);
    rl_append(rl, "bc", 2);
    char buf[8];
    assert(rl_read(rl, buf, sizeof buf) == 1);
    assert(memcmp(buf, "a", 1) == 0);
    rl_close(rl);
}

static void test_overwrite_oldest(void)
{
    struct ringlog *rl = rl_open(2);
    rl_append(rl, "1", 1);
    rl_append(rl, "2", 1);
    rl_append(rl, "3", 1);
    assert(rl_count(rl) == 2);
    rl_close(rl);
}

int main(void)
{
    test_append_and_read();
    test_overwrite_oldest();
    return 0;
}
