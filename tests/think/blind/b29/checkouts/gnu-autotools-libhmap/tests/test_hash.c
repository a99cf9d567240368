#include <assert.h>
#include "../src/hmap.h"

int main(void)
{
    assert(hmap_hash_str("") == hmap_hash_str(""));
    assert(hmap_hash_str("a") != hmap_hash_str("b"));
    return 0;
}
