from ledger.app import LedgerApp
from ledger.models import Entry


async def test_rows_render_amounts():
    app = LedgerApp(entries=[Entry("coffee", -3.5), Entry("salary", 2500)])
    async with app.run_test():
        table = app.query_one("#entries")
        assert table.row_count == 2


async def test_total_updates():
    app = LedgerApp(entries=[Entry("coffee", -3.5)])
    async with app.run_test():
        assert app.query_one("#total").renderable.plain == "Total: -3.50"
