SELECT bitset_count('1011'::bitset);
SELECT bitset_test('1011'::bitset, 2);
