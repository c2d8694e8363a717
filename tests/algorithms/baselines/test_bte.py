import itertools

import numpy as np

from mcecrawl import extract
from mcecrawl.algorithms.baselines.bte import body_span, bte
from mcecrawl.algorithms.baselines.tokens import tokenize

PAGE = ('<div><a href="/">Home</a><a href="/n">News</a></div>'
        '<p>one two three four</p>'
        '<div><a href="/c">Contact</a></div>')


def test_bte_keeps_the_span_with_most_words_minus_tags():
    # Tokens: <div><a>Home</a><a>News</a></div><p> one two three four </p><div><a>Contact</a></div>:
    # the four words after <p> gain +4, every other stretch loses: the body is exactly them.
    assert bte(PAGE).paragraphs == ("one two three four",)


def test_body_span_maximises_finns_objective():
    """Finn et al.'s objective: tags before i + words in i..j + tags after j, by brute force."""
    rng = np.random.default_rng(3)
    for _ in range(100):
        bits = rng.integers(0, 2, size=rng.integers(2, 14))  # 1 = tag, 0 = word
        html = "".join("<b>" if b else " w " for b in bits)
        tokens = tokenize(html)
        span = body_span(tokens)

        def objective(i: int, j: int) -> int:
            return int(bits[:i].sum() + (1 - bits[i:j + 1]).sum() + bits[j + 1:].sum())

        best = max(objective(i, j) for i, j in itertools.combinations_with_replacement(range(bits.size), 2))
        if span is not None:
            assert objective(*span) == best
        else:
            assert (bits == 1).all()


def test_bte_through_extract_and_bad_input():
    assert extract(PAGE.encode(), algorithm="bte").paragraphs == ("one two three four",)
    assert extract("<div><br><br></div>", algorithm="bte").status == "empty"
    assert extract(b"\x89PNG\r\n\x1a\n" + bytes(64), algorithm="bte").status == "error"
