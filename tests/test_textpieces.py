"""mcecrawl.textpieces: the counts, pieces and lowercasing of a long text are those of the whole text."""
from __future__ import annotations

import random
import tracemalloc

from mcecrawl.textpieces import PIECE_CHARS, count_chars, count_words, word_pieces


def test_words_and_characters_counted_piece_by_piece_are_the_split_counts():
    """``count_words``/``count_chars`` are ``len(text.split())`` and ``len("".join(text.split()))`` on
    texts cut into pieces at any character: words across a cut, whitespace that is not ASCII (no-break,
    ideographic and em spaces, U+001C, U+0085), ZWNJ (not whitespace), texts just under and over a piece."""
    alphabet = [" ", "\n", "\t", "\u00a0", "\u2003", "\u3000", "\x1c", "\x85", "\u200c", "x", "ab", "سلام"]
    rnd = random.Random(7)
    for n in (0, 1, PIECE_CHARS - 1, PIECE_CHARS, PIECE_CHARS + 1, 3 * PIECE_CHARS + 5,
              *(rnd.randrange(1, 4 * PIECE_CHARS) for _ in range(40))):
        text = "".join(rnd.choice(alphabet) for _ in range(n))[:n]
        assert count_words(text) == len(text.split()), n
        assert count_chars(text) == len("".join(text.split())), n
    one_word = "w" * (2 * PIECE_CHARS + 3)  # a word over two cuts is one word
    assert count_words(one_word) == 1 and count_chars(one_word) == len(one_word)


def test_word_pieces_cut_only_at_whitespace_and_lowercase_as_the_whole_text():
    """``word_pieces`` joined is the text, and lowercased piece by piece it is ``text.lower()``: Greek
    final sigmas before combining marks and apostrophes (case-ignorable) included; a text without
    whitespace past a piece's length stays whole."""
    alphabet = [" ", "\n", "\u00a0", "Σ", "ΑΣ", "\u0301", "'", "σ", "x", "İ", "ß", "ﬁ", ".", "-", "سلام"]
    rnd = random.Random(9)
    lengths = (0, PIECE_CHARS, PIECE_CHARS + 1,
               *(rnd.randrange(1, 4 * PIECE_CHARS) for _ in range(30)))
    for n in lengths:
        text = "".join(rnd.choice(alphabet) for _ in range(n))
        pieces = list(word_pieces(text))
        assert "".join(pieces) == text and "".join(p.lower() for p in pieces) == text.lower()
        assert all(p[:1].isspace() for p in pieces[1:])
    unspaced = "ΑΣ" * PIECE_CHARS
    assert list(word_pieces(unspaced)) == [unspaced]


def test_counting_a_long_text_does_not_hold_its_words():
    """A typed reading counts the words of a whole list's text: one ``str.split`` held every word at once
    (~39 MB for a 4.9 MB page's list; the reading's peak). Counted piece by piece, the traced peak stays
    near one piece's words, whatever the text's length."""
    text = "headline teaser date " * 200_000  # 4.2 M characters, 600,000 words
    tracemalloc.start()
    try:
        assert count_words(text) == 600_000 and count_chars(text) == 3_600_000
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4_000_000, peak  # len(text.split()) alone: over 30 MB
