import numpy as np
from seqalign import smith_waterman


def test_identical_sequences_score():
    score, _ = smith_waterman("ACGT", "ACGT", match=2, mismatch=-1, gap=-2)
    assert score == 8


def test_genome_scale_alignment(reference_chr21):
    score, path = smith_waterman(reference_chr21[:200_000], reference_chr21[1_000:201_000])
    assert score > 0
