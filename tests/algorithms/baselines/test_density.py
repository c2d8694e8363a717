from mcecrawl.algorithms.baselines.density import densest_region, density, fragments
from mcecrawl.algorithms.baselines.tokens import tokenize

LONG = "a long fragment of running text with many words in it"


def test_density_takes_the_densest_run_of_long_fragments():
    html = f"<li>Home</li><li>News</li><p>{LONG}</p><p>{LONG}</p><li>About</li>"
    tokens = tokenize(html)
    frag, chars = fragments(tokens)
    # Fragment k is the text after the k-th tag; non-empty: Home(5) News(5) LONG LONG About(6)
    # (characters of each word + 1).  Mean ~ 25.6: only the two LONG fragments score above it.
    long_chars = sum(len(w) + 1 for w in LONG.split())
    assert sorted(chars[chars > 0].tolist()) == [5, 5, 6, long_chars, long_chars]
    first, last = densest_region(chars)
    assert {int(x) for x in chars[first:last + 1] if x} == {long_chars}
    assert density(html).paragraphs == (LONG, LONG)


def test_density_of_uniform_fragments_is_the_whole_page():
    assert density("<p>a b</p><p>c d</p>").paragraphs == ("a b", "c d")
