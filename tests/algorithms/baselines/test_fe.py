from mcecrawl.algorithms.baselines.fe import fe, kfe, two_means_split

# Blocks (a block-level tag opens one): <div><a>m</a> <a>n</a> text -> 1 plain word of 8 tokens
# (0.125); <p>pure text here -> 3 of 4 (0.75); <p>pure text also with more words -> 6 of 7 (0.857);
# the closing </div>, </p> tags open empty blocks.
PAGE = ('<div><a href="/m">m</a> <a href="/n">n</a> text</div>'
        "<p>pure text here</p><p>pure text also with more words</p>")


def test_fe_takes_the_one_most_textual_block():
    assert fe(PAGE).paragraphs == ("pure text also with more words",)


def test_kfe_takes_the_top_cluster():
    # Two-means over {0.125, 0.75, 0.857}: {0.125} | {0.75, 0.857}.
    assert kfe(PAGE).paragraphs == ("pure text here", "pure text also with more words")


def test_two_means_split_is_the_least_squares_cut():
    assert two_means_split([0.1, 0.2, 0.9, 1.0]) == 0.9  # type: ignore[arg-type]
    assert two_means_split([0.5]) == 0.5  # type: ignore[arg-type]


def test_fe_tie_goes_to_more_words():
    assert fe("<p>a b</p><p>c d e</p>").paragraphs == ("c d e",)


def test_all_link_text_is_empty():
    assert kfe('<ul><li><a href="/">x</a></li></ul>').status == "empty"
