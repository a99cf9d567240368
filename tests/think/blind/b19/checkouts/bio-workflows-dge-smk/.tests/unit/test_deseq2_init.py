import os
import sys
import subprocess as sp
from tempfile import TemporaryDirectory
import shutil
from pathlib import Path, PurePosixPath

sys.path.insert(0, os.path.dirname(__file__))

import common


def test_deseq2_init():
    with TemporaryDirectory() as tmpdir:
        workdir = Path(tmpdir) / "workdir"
        data_path = PurePosixPath(".tests/unit/deseq2/data")
        expected_path = PurePosixPath(".tests/unit/deseq2/expected")

        shutil.copytree(data_path, workdir)

        sp.check_output([
            "python",
            "-m",
            "snakemake",
            "results/deseq2/dds.rds",
            "-f",
            "-j1",
            "--target-files-omit-workdir-adjustment",
            "--sdm", "conda",
            "--directory",
            workdir,
        ])

        common.OutputChecker(data_path, expected_path, workdir).check()
