from taskdeck.app import TaskDeck


async def test_add_task():
    app = TaskDeck()
    async with app.run_test() as pilot:
        await pilot.press("a")
        await pilot.press(*"buy milk")
        await pilot.press("enter")
        assert len(app.query("TaskItem")) == 1


async def test_toggle_done():
    app = TaskDeck()
    async with app.run_test() as pilot:
        await pilot.press("a", *"one", "enter")
        await pilot.press("space")
        assert app.completed_count == 1
