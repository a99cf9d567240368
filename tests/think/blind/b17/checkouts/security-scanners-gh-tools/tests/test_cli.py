from gh_tools.cli import main


def test_main_requires_token(monkeypatch):
    monkeypatch.delenv("GH_TOOLS_TOKEN", raising=False)
    assert main() == 2
