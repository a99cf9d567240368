from tools.check_headers import main


def test_missing_header(tmp_path):
    f = tmp_path / "a.py"
    f.write_text("import os\n")
    assert main([str(f)]) == 1


def test_header_present(tmp_path):
    f = tmp_path / "b.py"
    f.write_text("# SPDX-License-Identifier: Apache-2.0\nimport os\n")
    assert main([str(f)]) == 0
