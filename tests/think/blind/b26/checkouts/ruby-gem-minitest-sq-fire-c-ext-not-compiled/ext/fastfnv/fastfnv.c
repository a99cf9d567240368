#include <ruby.h>
#include <stdint.h>

#define FNV32_OFFSET 2166136261U
#define FNV32_PRIME 16777619U

static VALUE
fastfnv_fnv1a_32(VALUE self, VALUE str)
{
    const unsigned char *p;
    long len, i;
    uint32_t h = FNV32_OFFSET;

    StringValue(str);
    p = (const unsigned char *)RSTRING_PTR(str);
    len = RSTRING_LEN(str);
    for (i = 0; i < len; i++) {
        h ^= p[i];
        h *= FNV32_PRIME;
    }
    return UINT2NUM(h);
}

void
Init_fastfnv(void)
{
    VALUE mFastFNV = rb_define_module("FastFNV");
    rb_define_module_function(mFastFNV, "fnv1a_32", fastfnv_fnv1a_32, 1);
}
