import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "workflow" / "scripts"))

from merge_counts import merge  # noqa: E402

HEADER = "# Program:featureCounts v2.0.6\nGeneid\tChr\tStart\tEnd\tStrand\tLength\t{bam}\n"


def write_fc(tmp_path, sample, rows):
    p = tmp_path / f"{sample}.featureCounts.tsv"
    body = "".join(f"{g}\tchr1\t1\t100\t+\t100\t{c}\n" for g, c in rows)
    p.write_text(HEADER.format(bam=f"{sample}.bam") + body)
    return p


def test_merge_two_samples(tmp_path):
    a = write_fc(tmp_path, "S1", [("ENSG01", 5), ("ENSG02", 0)])
    b = write_fc(tmp_path, "S2", [("ENSG01", 3), ("ENSG02", 7)])
    m = merge([a, b])
    assert list(m.columns) == ["S1", "S2"]
    assert m.loc["ENSG02", "S2"] == 7


def test_missing_gene_filled_with_zero(tmp_path):
    a = write_fc(tmp_path, "S1", [("ENSG01", 5)])
    b = write_fc(tmp_path, "S2", [("ENSG01", 3), ("ENSG03", 2)])
    m = merge([a, b])
    assert m.loc["ENSG03", "S1"] == 0
