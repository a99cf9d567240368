import crcfast


def test_update_matches_oneshot():
    data = b"x" * 10_000
    c = 0
    for i in range(0, len(data), 333):
        c = crcfast.crc32c_update(c, data[i:i + 333])
    assert c == crcfast.crc32c(data)
