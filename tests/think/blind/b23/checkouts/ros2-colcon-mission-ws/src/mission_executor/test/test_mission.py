import pytest

from mission_executor.mission import parse_mission


def test_parse_goto_and_dock():
    steps = parse_mission({'steps': [{'type': 'goto', 'x': 1, 'y': 2}, {'type': 'dock'}]})
    assert [s.kind for s in steps] == ['goto', 'dock']
    assert steps[0].args == {'x': 1, 'y': 2}


def test_unknown_type_rejected():
    with pytest.raises(ValueError, match='unknown type'):
        parse_mission({'steps': [{'type': 'fly'}]})
