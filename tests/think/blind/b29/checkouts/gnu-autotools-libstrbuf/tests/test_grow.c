#include <assert.h>
#include <string.h>
#include "strbuf.h"

int main(void)
{
    struct strbuf sb = STRBUF_INIT;
    for (int i = 0; i < 10000; i++)
        strbuf_append(&sb, "abc", 3);
    assert(sb.len == 30000);
    assert(sb.cap >= sb.len + 1);
    assert(memcmp(sb.buf + 29997, "abc", 3) == 0);
    strbuf_release(&sb);
    return 0;
}
