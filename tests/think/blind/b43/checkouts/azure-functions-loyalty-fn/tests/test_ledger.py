from loyalty.ledger import points_for


def test_points_rounds_down():
    assert points_for(19.99) == 19
