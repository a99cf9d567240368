from heater import Heater


def test_turns_on_below_target():
    h = Heater(15, target_c=25.0)
    assert h.update(24.0) is True
    assert h.relay.value() == 1


def test_turns_off_at_target():
    h = Heater(15, target_c=25.0)
    h.update(24.0)
    assert h.update(25.0) is False
    assert h.relay.value() == 0
