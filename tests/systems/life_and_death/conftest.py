import pytest

from tabletop_systems.life_and_death import data


@pytest.fixture(autouse=True)
def _clean_gm_rows():
    data.reset_gm_rows()
    yield
    data.reset_gm_rows()
