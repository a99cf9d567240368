from tools.gen import gen


def test_render_single_enum():
    out = gen.render_enums({"enums": {"Color": ["Red", "Green"]}})
    assert "pub enum Color {" in out
    assert "    Red," in out


def test_main_reads_file(mocker, tmp_path):
    p = tmp_path / "s.json"
    p.write_text('{"enums": {}}')
    printed = mocker.patch("builtins.print")
    gen.main(["gen", str(p)])
    printed.assert_called_once_with("")
