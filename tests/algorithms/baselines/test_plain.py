from mcecrawl.algorithms.baselines.plain import plain


def test_plain_is_all_rendered_text():
    html = ("<html><head><title>T</title><script>var x</script></head><body><nav><a href='/'>Home</a></nav>"
            "<p>Story</p><style>p{}</style><footer>(c) site</footer></body></html>")
    ex = plain(html)
    assert ex.paragraphs == ("Home", "Story", "(c) site")
    assert ex.title == "T"
