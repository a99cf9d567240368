import pytest


@pytest.fixture
def seeded_db():
    yield
