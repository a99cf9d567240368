from textual.app import App, ComposeResult
from textual.widgets import Footer, Header

from .widgets.task_list import TaskList


class TaskDeck(App[None]):
    CSS_PATH = "app.tcss"
    BINDINGS = [
        ("a", "add_task", "Add"),
        ("space", "toggle_done", "Done"),
        ("q", "quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield TaskList(id="task-list")
        yield Footer()
