#include <check.h>
#include <string.h>
#include "rtcodec.h"

START_TEST(test_hex_roundtrip)
{
    char out[16];
    unsigned char back[8];
    ck_assert_int_eq(rt_hex_encode((const unsigned char *)"\x01\xab", 2, out, sizeof out), 4);
    ck_assert_str_eq(out, "01ab");
    ck_assert_int_eq(rt_hex_decode(out, 4, back, sizeof back), 2);
    ck_assert_mem_eq(back, "\x01\xab", 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hex");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_hex_roundtrip);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? 1 : 0;
}
