from otaagent.manifest import parse_manifest, ManifestError
import pytest


def test_parse_minimal():
    m = parse_manifest({"version": "1.2.0", "artifacts": [{"name": "rootfs", "sha256": "ab" * 32}]})
    assert m.version == "1.2.0"
    assert m.artifacts[0].name == "rootfs"


def test_rejects_missing_sha():
    with pytest.raises(ManifestError):
        parse_manifest({"version": "1.2.0", "artifacts": [{"name": "rootfs"}]})
