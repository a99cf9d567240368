import datetime as dt

import pytest

from bookings.models import Room
from bookings.services import is_available


@pytest.mark.django_db
def test_room_free_when_no_bookings():
    room = Room.objects.create(name="Cedar", capacity=6)
    start = dt.datetime(2025, 6, 1, 9, tzinfo=dt.timezone.utc)
    assert is_available(room, start, start + dt.timedelta(hours=1))
