def test_initial_screen(snap_compare):
    assert snap_compare("../src/pomodoro/app.py", terminal_size=(60, 20))
