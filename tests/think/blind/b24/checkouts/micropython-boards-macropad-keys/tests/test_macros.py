from macros import MacroEngine


def test_default_layer_copy():
    assert MacroEngine().on_press(0) == ("ctrl", "c")


def test_unknown_key_is_none():
    assert MacroEngine().on_press(11) is None
