"""Evaluation of extraction output against gold: metrics, dataset loading, runs and reports.

:mod:`mcecrawl.evaluation.metrics` holds the pure measures (LCS P/R/F1 over folded word tokens,
and the secondary ones); :mod:`mcecrawl.evaluation.datasets` reads the dataset format of docs/evaluation.md.
"""
from mcecrawl.evaluation.datasets import Dataset, Page, load_dataset
from mcecrawl.evaluation.metrics import (
    Score,
    bow_f1,
    char_lcs_f1,
    fold_for_scoring,
    lcs_f1,
    lcs_length,
    length_pr,
    shingle_counts,
    shingle_f1,
    snippet_score,
    tokenize,
)

__all__ = ["Dataset", "Page", "Score", "bow_f1", "char_lcs_f1", "fold_for_scoring", "lcs_f1", "lcs_length", "length_pr",
           "load_dataset", "shingle_counts", "shingle_f1", "snippet_score", "tokenize"]
