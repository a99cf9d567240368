import pytest
from pytest_embedded import Dut


@pytest.mark.esp32
@pytest.mark.esp32s3
@pytest.mark.generic
def test_ina226(dut: Dut) -> None:
    dut.run_all_single_board_cases()
