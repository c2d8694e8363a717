import itertools

import numpy as np

from mcecrawl.algorithms.baselines.tokens import max_subarray, paragraphs, tokenize


def test_tokenize_drops_scripts_styles_comments_and_marks_anchors():
    t = tokenize('<p>a &amp; b</p><script>var x = "<p>no</p>";</script><!-- c --><style>p{}</style>'
                 '<a href="/x">in link</a> 1 < 2')
    assert t.words == ["", "a", "&", "b", "", "", "in", "link", "", "1", "<", "2"]
    assert t.names == ["p", "", "", "", "p", "a", "", "", "a", "", "", ""]
    assert t.closing.tolist() == [False] * 4 + [True, False, False, False, True, False, False, False]
    assert t.in_anchor.tolist() == [False] * 6 + [True, True] + [False] * 4
    assert t.lengths[5] == len('<a href="/x">')


def test_tokenize_unterminated_constructs_end_the_page():
    assert tokenize("<p>text<script>never closed").words == ["", "text"]
    assert tokenize("<p>text<!-- open").words == ["", "text"]
    assert tokenize("<p>text <b").names == ["p", "", "b"]


def test_paragraphs_break_at_block_tags_only():
    t = tokenize("<p>one <b>two</b></p><p>three</p><span>four</span>")
    keep = np.ones(len(t), dtype=bool)
    assert paragraphs(t, keep) == ["one two", "three", "four"]
    keep[[i for i, w in enumerate(t.words) if w == "three"]] = False
    assert paragraphs(t, keep) == ["one two", "four"]


def test_max_subarray_matches_brute_force():
    rng = np.random.default_rng(7)
    for _ in range(200):
        v = rng.integers(-3, 4, size=rng.integers(1, 12))
        got = max_subarray(v)
        best = max(v[i:j + 1].sum() for i, j in itertools.combinations_with_replacement(range(v.size), 2))
        if best <= 0:
            assert got is None
        else:
            assert v[got[0]:got[1] + 1].sum() == best


def test_cjk_characters_are_words_and_spaces_follow_the_source():
    t = tokenize("<p>wo<b>rd</b> one 中文字 ab中c</p>")
    assert [w for w in t.words if w] == ["wo", "rd", "one", "中", "文", "字", "ab", "中", "c"]
    assert paragraphs(t, np.ones(len(t), dtype=bool)) == ["word one 中文字 ab中c"]
