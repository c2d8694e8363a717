"""The words and tag sets the cleaning rules read (:mod:`mcecrawl.algorithms.cleaning`), apart from
the rules themselves, as trafilatura keeps its expressions in ``xpaths.py``.

Readability.js's ``REGEXPS`` (Mozilla, Apache-2.0) are its class/id word lists; the others are HTML's
own element and ARIA sets, schema.org's properties, and the project's additions, each kept only
because it helps held out (BENCHMARKS.md, docs/algorithms.md).  Every pattern here is searched
case-insensitively over an element's class, id, role, itemprop and rel values joined by spaces.
"""
from __future__ import annotations

import re

# Elements whose text is never main content (scripts, styles, embedded objects, forms' widgets).
DROPPED_TAGS = ("script", "style", "noscript", "template", "svg", "math", "iframe", "object",
                "embed", "canvas", "button", "select", "textarea", "head")
# Elements that end a paragraph (HTML rendering §15.3 block-level + br): a newline around each.
BLOCK_TAGS = frozenset(
    "address article aside blockquote br caption center dd details dialog dir div dl dt fieldset "
    "figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li main menu nav ol p pre "
    "section summary table tbody td tfoot th thead tr ul".split()
)

# Readability.js REGEXPS: class/id words of boilerplate and of content.
UNLIKELY = re.compile(
    r"-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|"
    r"menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|"
    r"pagination|pager|popup|yom-remote", re.I)
MAYBE_CANDIDATE = re.compile(r"and|article|body|column|content|main|mathjax|shadow", re.I)
# The unlikely word no candidate word redeems: "relatedArticles", "related-content" name other
# articles, and the candidate word in them says what those are (BENCHMARKS.md).
UNRELATED = re.compile(r"related", re.I)
NEGATIVE = re.compile(
    r"-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|"
    r"outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget", re.I)
POSITIVE = re.compile(r"article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story", re.I)
BYLINE = re.compile(r"byline|author|dateline|writtenby|p-author", re.I)  # Readability.js REGEXPS.byline
# Ours, kept only because it helps held out (BENCHMARKS.md): captions, credits, galleries.
MEDIA = re.compile(r"caption|credit|gallery|slideshow|carousel", re.I)
# Ours, kept only because it helps held out (BENCHMARKS.md): what the site places inside the
# article's container about itself — newsletter sign-ups, subscription and paywall boxes,
# editorial disclaimers and disclosures, copyright lines, and ad slots ("ad", "ads", "advert…"
# as a whole word or a word's dash/underscore-separated part: "ad-unit", "js_ad-slot", never
# "address" or "head").  The words are trafilatura's OVERALL_DISCARD_XPATH token groups
# (newsletter, "subscri", "disclaimer", "copyright", " ad ", "ad-").
AD_SLOT = r"(?:^|[\s_-])(?:ads?|advert\w*)(?:$|[\s_-])"
NOTICES = re.compile(r"newsletter|subscri|disclaimer|disclosure|copyright|" + AD_SLOT, re.I)
# schema.org CreativeWork / Article properties that hold metadata, not running text
# (https://schema.org/Article); "description" is left out: pages use it for the lead.
METADATA_ITEMPROPS = frozenset({
    "keywords", "datePublished", "dateCreated", "dateModified", "author", "creator", "publisher", "name",
    "mainEntityOfPage", "headline", "image", "thumbnailUrl", "url", "wordCount", "inLanguage", "logo",
    "copyrightHolder", "copyrightYear", "articleSection", "genre"})
# ARIA roles Readability drops (UNLIKELY_ROLES), and "contentinfo": the landmark of <footer>
# (HTML-AAM), dropped as <footer> is (an author box or site footer marked by its role).
UNLIKELY_ROLES = frozenset({"menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog",
                            "contentinfo"})
# ARIA roles of a dialog: one that says it is modal (aria-modal="true": the page behind it is inert
# while it is shown, WAI-ARIA 1.2 §6.7) holds a consent banner, a sign-up form or a legal text, never
# the page's main content.  A non-modal one can be a product page's "Description" sheet.
MODAL_ROLES = frozenset({"dialog", "alertdialog"})
# HTML sectioning elements that are never the article (HTML §4.3: nav, aside; footer of a section).
BOILERPLATE_TAGS = frozenset({"nav", "aside", "footer"})
# Elements whose content is not the article's running text: captions, figures, forms' parts.
CLEANED_TAGS = frozenset({"figure", "figcaption", "nav", "aside", "footer", "form", "time", "address"})
# Elements dropped whole by the cleaning walk without looking at them.
SKIPPED_TAGS = frozenset(DROPPED_TAGS) | CLEANED_TAGS
# Code: nothing inside it is clutter (Readability's unlikely-candidate test skips what lies inside
# <code>). A syntax highlighter's class words ("token comment", "hljs-meta") name parts of the
# code, not of the page (Prism put every shell comment of a git cheat sheet in wcxb_dev in a
# "comment" span, which the class rules dropped).
CODE_TAGS = frozenset({"pre", "code"})
# Elements never dropped for their words (boilerplate, notice or negative ones), as Readability's
# _grabArticle never removes an <a> as an unlikely candidate: a link is part of the sentence around
# it (a product link's rel="nofollow sponsored" dropped its name from "Bring home a MacBook Pro for
# just $429.99"). Hidden ones, bylines and metadata still go.
WORDLESS_TAGS = frozenset({"a"})
# Containers dropped whole when mostly link text with at least two links (related / most-read
# boxes: their heading goes with them), as Readability's conditional cleaning of lists and
# sections by link density.
LINK_BOX_TAGS = frozenset({"section", "div", "ul", "ol", "aside", "nav", "table", "dl"})
# Inline styles that hide an element (Readability's _isProbablyVisible).
INVISIBLE_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
# A streamed segment of React's server renderer (Fizz: ``<div hidden id="S:1f">`` after the page's
# end, moved in place of its "Loading…" fallback by the inline ``$RC`` script): ``hidden`` only
# until the script runs, the page's content. The HTML ``hidden`` attribute of an element with such
# an id is not read as hiding it (33 wcxb_dev pages stream so; 4503's article was all "Loading
# paragraph…" placeholders: 0.130 -> 0.906).
STREAMED_ID = re.compile(r"S:[0-9a-z]+\Z")

# The attributes whose words label a container read from its opening tag (the region's labels).
LABEL_ATTRIBUTES = ("class", "id", "role", "itemprop")
# The attributes whose words the tree's rules read, in the order they are joined.
WORD_ATTRIBUTES = ("class", "id", "role", "itemprop", "rel")
# The attributes the clutter test reads: an element with none of them that is not a link-box
# container is never clutter, so neither walk asks about it.
CLUTTER_ATTRIBUTES = WORD_ATTRIBUTES + ("hidden", "aria-hidden", "style")
# The article's own containers are parsed as an element with this attribute, exempt from cleaning.
ARTICLE_MARK = "data-mce-article"
