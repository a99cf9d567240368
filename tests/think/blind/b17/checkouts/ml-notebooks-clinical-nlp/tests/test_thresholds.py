import numpy as np

from clinical_nlp.thresholds import best_f1_threshold


def test_best_f1_threshold_perfect_separation():
    y = np.array([0, 0, 1, 1])
    p = np.array([0.1, 0.2, 0.8, 0.9])
    assert 0.2 <= best_f1_threshold(y, p) <= 0.8
