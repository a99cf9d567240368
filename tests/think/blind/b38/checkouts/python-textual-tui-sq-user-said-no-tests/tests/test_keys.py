from pomodoro.app import PomodoroApp


async def test_start_pause():
    app = PomodoroApp()
    async with app.run_test() as pilot:
        await pilot.press("s")
        assert app.running
        await pilot.press("p")
        assert not app.running
