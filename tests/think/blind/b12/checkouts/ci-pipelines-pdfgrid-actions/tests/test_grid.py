from pdfgrid import detect_grid


def test_detect_grid_on_fixture(sample_pdf):
    grid = detect_grid(sample_pdf, page=0)
    assert grid.rows == 14
    assert grid.cols == 6
