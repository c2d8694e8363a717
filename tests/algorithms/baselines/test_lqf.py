from mcecrawl.algorithms.baselines.lqf import lqf

ARTICLE = "the article text runs on here for a good while"
# A <ul> whose text is 40% link characters: "abcd" linked, "efghij" not.
MIXED = '<ul><li><a href="/x">abcd</a> efghij</li></ul>'
PAGE = (f'<div><nav><a href="/">Home</a> <a href="/n">News</a></nav><p>{ARTICLE}</p>{MIXED}</div>')


def test_lqf_removes_blocks_above_the_link_quota():
    assert lqf(PAGE, q=50).paragraphs == (ARTICLE, "abcd efghij")  # 40% <= 50%
    assert lqf(PAGE, q=25).paragraphs == (ARTICLE,)  # 40% > 25%: the list goes
    assert lqf(PAGE, q=75).paragraphs == (ARTICLE, "abcd efghij")


def test_lqf_counts_bottom_up():
    # The outer <div> holds the 100%-link <nav>; once it is removed, the <div> is article text.
    assert lqf(PAGE, q=25).status == "ok"
    assert lqf('<div><a href="/">only links</a></div>').status == "empty"


def test_lqf_deep_nesting_is_an_error_result():
    ex = lqf("<div>" * 300000 + "deep text")
    assert ex.status == "error" and "depth limit" in ex.reason
