"""The page's chrome and content container (mcecrawl.algorithms.chrome): what the typed readings
build on (their content per type: test_typed.py)."""
from __future__ import annotations

import pytest

from mcecrawl.algorithms import chrome, typed

PAGE = ("<html><body><nav><a href='/'>Home</a></nav>\x0bafter the menu, a vertical tab\x0b"
        "<main><p>The body of the page, long enough to be the content of it.</p>"
        "<pre><code>x = 1\x0b\ny = 2</code></pre></main><footer>Copyright</footer>\x0c</body></html>")


@pytest.mark.parametrize("page", [PAGE, PAGE.encode()])
def test_control_characters_of_the_page_do_not_break_the_reading(page):
    """libxml2 keeps a page's vertical tabs and form feeds in text but refuses them set back: the
    chrome's tails moved and the code's lines rewritten must not raise."""
    root = chrome.content_root(page)
    assert root is not None
    text = "\n".join(chrome.text_blocks(root))
    assert "The body of the page" in text and "Home" not in text
    assert "y = 2" in "\n".join(typed.documentation_content(page))


def test_word_counts_count_text_and_child_tails_not_the_own_tail():
    root = chrome.page_tree("<html><body><div>one two<p>three</p>four five</div>six</body></html>")
    counts = chrome.word_counts(root)
    div = root.find(".//div")
    assert counts[div] == 5 and counts[div.find("p")] == 1 and counts[root] == 6
    assert all(chrome.words(el) == counts[el] for el in root.iter())


def test_strip_chrome_drops_chrome_and_keeps_the_page_layout():
    root = chrome.page_tree("<html><body><header class='site'><nav><a href='/'>Home</a></nav></header>"
                            "<div class='content'><p>" + "word " * 50 + "</p><aside>Related</aside></div>"
                            "<div id='footer'>Copyright</div></body></html>")
    chrome.strip_chrome(root)
    text = " ".join(root.itertext())
    assert "word" in text and not any(w in text for w in ("Home", "Related", "Copyright"))
