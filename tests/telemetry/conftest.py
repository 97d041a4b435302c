import pytest

from telemetry.ingest import limiter


@pytest.fixture(autouse=True)
def fresh_rate_limit():
    """Counters live in process memory; every test starts with none."""
    limiter().reset()
    yield
    limiter().reset()
