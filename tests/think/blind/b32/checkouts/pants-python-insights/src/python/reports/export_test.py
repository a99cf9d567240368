from reports.export import export_weekly


def test_export_weekly_empty():
    assert export_weekly([]) == "week,revenue\n"
