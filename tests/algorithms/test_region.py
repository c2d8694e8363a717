"""Smoothing, seed selection and boundary growth on hand-made line profiles."""
import numpy as np

from mcecrawl.algorithms.region import (
    grow_boundaries,
    largest_region,
    longest_column,
    positive_runs,
    smooth,
)


def test_smoothing_of_a_single_spike():
    # diff_i = d_{i-1} + d_i + d_{i+1}: the 10 spreads to both neighbours, edges see 0.
    assert smooth(np.array([0, 0, 10, 0, 0]), np.zeros(5)).tolist() == [0, 10, 10, 10, 0]


def test_smoothing_subtracts_code_and_clips_at_the_edges():
    content = np.array([5, 0, 0, 8])
    code = np.array([1, 3, 0, 2])
    # diffs [4, -3, 0, 6] -> [4-3, 4-3+0, -3+0+6, 0+6]
    assert smooth(content, code).tolist() == [1, 1, 3, 6]


def test_smoothing_radius():
    assert smooth(np.array([0, 0, 10, 0, 0]), np.zeros(5), radius=2).tolist() == [10] * 5
    assert smooth(np.array([1, 2]), np.zeros(2), radius=0).tolist() == [1, 2]


def test_longest_column_on_a_plateau_profile():
    # menu (short positive columns), boilerplate (negative), one plateau of article lines
    profile = np.array([3, -20, 2, -15, 40, 55, 48, -30, 4])
    assert longest_column(profile) == 5
    assert longest_column(np.array([-1, 0, -5])) is None
    assert longest_column(np.array([], dtype=int)) is None


def test_largest_region_counts_characters_not_height():
    smoothed = np.array([50, -1, 5, 5, 5, 5, -1])
    content = np.array([50, 0, 20, 20, 20, 20, 0])  # the long low run holds more text
    assert positive_runs(smoothed)[0].tolist() == [0, 2]
    assert largest_region(smoothed, content) == (2, 5)
    assert largest_region(np.array([-1, -2]), np.array([0, 0])) is None


def test_growth_crosses_exactly_P_blank_lines():
    P = 3
    is_content = np.array([1, 0, 0, 0, 1, 1, 0, 0, 0, 1], dtype=bool)  # two gaps of exactly P
    assert grow_boundaries(is_content, 4, 4, P) == (0, 9)


def test_growth_stops_at_P_plus_one_blank_lines():
    P = 3
    is_content = np.array([1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1], dtype=bool)  # gaps of P + 1
    assert grow_boundaries(is_content, 5, 5, P) == (5, 6)


def test_growth_from_a_run_seed_and_a_non_content_seed():
    is_content = np.array([0, 1, 0, 0, 0, 0, 0, 0], dtype=bool)
    assert grow_boundaries(is_content, 4, 5, 2) == (1, 5)  # seed lines count as content
    assert grow_boundaries(is_content, 7, 7, 0) == (7, 7)

