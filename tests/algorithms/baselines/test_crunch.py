from mcecrawl.algorithms.baselines.crunch import crunch, is_ad_server

ARTICLE = "the article text runs on here for a good while"


def test_crunch_removes_ad_links_and_link_lists():
    html = (f'<div><p>{ARTICLE}</p>'
            '<p><a href="https://ad.doubleclick.net/click?x=1">Buy now</a> cheap offer</p>'
            '<table><tr><td><a href="/a">one</a> <a href="/b">two</a> three</td></tr></table></div>')
    # The ad link goes (ad server); the cell's 2 linked words per 1 other exceed ratio 1.
    assert crunch(html).paragraphs == (ARTICLE, "cheap offer")
    assert crunch(html, ratio=3).paragraphs == (ARTICLE, "cheap offer", "one two three")


def test_is_ad_server_matches_hosts_and_subdomains_only():
    assert is_ad_server("https://ad.doubleclick.net/x")
    assert not is_ad_server("https://example.org/doubleclick.net")
    assert not is_ad_server(None)
