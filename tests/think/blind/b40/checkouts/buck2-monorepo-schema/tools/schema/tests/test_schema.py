import json

import pytest

from tools.schema.loader import load_schema


def test_load_schema_requires_version(tmp_path):
    p = tmp_path / "s.json"
    p.write_text(json.dumps({"enums": {}}))
    with pytest.raises(ValueError):
        load_schema(str(p))
