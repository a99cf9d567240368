from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models.invoice import Invoice


async def list_invoices(
    session: AsyncSession, *, limit: int, offset: int
) -> tuple[Sequence[Invoice], int]:
    stmt = select(Invoice).order_by(Invoice.id).limit(limit).offset(offset)
    items = (await session.scalars(stmt)).all()
    total = await session.scalar(select(func.count()).select_from(Invoice))
    return items, total or 0


async def get_invoice(session: AsyncSession, invoice_id: int) -> Invoice | None:
    return await session.get(Invoice, invoice_id)
