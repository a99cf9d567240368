import blake3lite


def test_empty_digest():
    assert blake3lite.hexdigest(b"") == (
        "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"
    )


def test_digest_len():
    assert len(blake3lite.digest(b"abc")) == 32
