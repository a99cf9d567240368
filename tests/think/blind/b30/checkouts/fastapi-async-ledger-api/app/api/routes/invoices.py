from fastapi import APIRouter, Depends, HTTPException
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import get_session
from app.crud import invoices as crud
from app.schemas.invoice import InvoiceOut, InvoicePage

router = APIRouter(prefix="/invoices", tags=["invoices"])


@router.get("", response_model=InvoicePage)
async def list_invoices(
    limit: int = 50, offset: int = 0, session: AsyncSession = Depends(get_session)
) -> InvoicePage:
    items, total = await crud.list_invoices(session, limit=limit, offset=offset)
    return InvoicePage(items=items, total=total)


@router.get("/{invoice_id}", response_model=InvoiceOut)
async def get_invoice(invoice_id: int, session: AsyncSession = Depends(get_session)) -> InvoiceOut:
    invoice = await crud.get_invoice(session, invoice_id)
    if invoice is None:
        raise HTTPException(status_code=404, detail="invoice not found")
    return InvoiceOut.model_validate(invoice)
