from fastapi import APIRouter, status

from app.schemas.message import MessageIn, MessageQueued
from app.services.dispatch import enqueue

router = APIRouter(prefix="/messages", tags=["messages"])


@router.post("", response_model=MessageQueued, status_code=status.HTTP_202_ACCEPTED)
async def send_message(body: MessageIn) -> MessageQueued:
    job_id = await enqueue(body)
    return MessageQueued(id=job_id, status="queued")
