"""A forum thread (a discussion, Q&A or comment page): every post, once.

The posts of a thread are siblings of one template (:func:`mcecrawl.algorithms.lists.repeated_items`);
the thread is their container.  Forums label posts and replies with the very words
(``comment``, ``replies``) that mark boilerplate on an article page: those words
(:data:`POST_WORDS`) are content here; the chrome is otherwise stripped as on any page.
Phases, one function each:

1. :func:`thread_container` — the parent of the largest group of repeated posts when they hold
   more than :data:`THREAD_MIN_SHARE` of the content's words, else the whole content container.
2. :func:`thread_content` — its blocks: the thread's title (the content's ``<h1>``), then each
   post's author line, date and text, in order.
"""
from __future__ import annotations

import re
from typing import Any

from mcecrawl.algorithms import chrome
from mcecrawl.algorithms.lists import repeated_items

# Class/id words of a thread's posts that Readability's lists take for boilerplate on an article
# page (its "comment", "replies"); on a thread they are the content.
POST_WORDS = re.compile(r"comment|repl|post|message|answer", re.I)
# The repeated group stands for the thread when it holds more than this share of the content
# container's words; below, the container is kept whole.  wcxb_dev's forums, gold types: 0.3 / 0.5
# give 0.576 / 0.568 before <noscript> was kept, 0.5 gives 0.718 after (the whole container 0.706).
THREAD_MIN_SHARE = 0.5


def thread_container(root: Any) -> Any:
    """Phase 1: the element holding the thread's posts."""
    counts = chrome.word_counts(root)
    parent, _, words = repeated_items(root, counts)
    if parent is not None and words > THREAD_MIN_SHARE * max(counts.get(root, 0), 1):
        return parent
    return root


def thread_content(text: str | bytes) -> list[str]:
    """Phase 2: the blocks of a thread, each post once, in order."""
    root = chrome.content_root(text, POST_WORDS)
    if root is None:
        return []
    thread = thread_container(root)
    title = next(root.iter("h1"), None)  # the thread's title, above its posts
    if title is None or thread is root or any(a is thread for a in title.iterancestors()):
        return chrome.text_blocks(thread)
    return chrome.text_blocks(title) + chrome.text_blocks(thread)


__all__ = ["THREAD_MIN_SHARE", "thread_container", "thread_content"]
