"""The token stream the token-based baselines share: tags and words in source order.

BTE [1]_, DSC [2]_, the CCB family [3]_ and Density [4]_ read an HTML page as a sequence of tag
tokens and word tokens.  :func:`tokenize` builds it in one left-to-right scan (each ``<`` is looked
at once, so time is linear in the page); scripts, styles and comments are removed first, as every
one of these papers' tokenisers does (they are never content, and their text would otherwise count
as words).  A word is a run of non-space characters, except that each CJK character is a word of its
own (Chinese and Japanese are written without spaces: a whole paragraph would otherwise be one
token, and BTE, DSC and TCCB would weigh it as one word; the evaluation counts CJK text per
character the same way).  :func:`paragraphs` turns the words an algorithm kept back into text, one
paragraph per run of kept words not separated by a block-level tag, with a space between two words
only where the source had whitespace.

References
----------
.. [1] A. Finn, N. Kushmerick, B. Smyth (2001). Fact or fiction: content classification for
   digital libraries. DELOS Workshop, Dublin.
.. [2] D. Pinto, M. Branstein, R. Coleman, W. B. Croft, M. King (2002). QuASM: a system for
   question answering using semi-structured data. JCDL 2002, pp. 46-55.
.. [3] T. Gottron (2008). Content code blurring: a new approach to content extraction. DEXA
   Workshops 2008, pp. 29-33.
.. [4] J. Arias Moreno, K. Deschacht, M.-F. Moens (2009). Language independent content extraction
   from web pages. DIR 2009, pp. 50-55.
"""
from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass

import numpy as np

from mcecrawl.algorithms.parse import BLOCK_TAGS, collapse

# Elements whose whole body is code, never words (HTML raw-text elements and their kin).
RAW_TEXT_TAGS = frozenset({"script", "style", "noscript", "template", "textarea", "title"})

# A tag starts with "<" then a letter, "/" + letter, "!" or "?" (HTML tokenizer's tag-open state);
# any other "<" is a character of the text.
_TAG_OPEN = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:_-]*)|<[!?]")
_RAW_CLOSE = {name: re.compile(rf"</{name}\s*>", re.I) for name in RAW_TEXT_TAGS}
# CJK punctuation, kana, CJK ideographs (with Extension A), compatibility ideographs, fullwidth forms.
CJK_CLASS = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_WORD = re.compile(f"[{CJK_CLASS}]|[^\\s{CJK_CLASS}]+")


@dataclass(frozen=True)
class Tokens:
    """A page's tokens in source order (parallel arrays and lists, one entry per token)."""

    is_tag: np.ndarray  # bool: tag token (code) or word token (content)
    lengths: np.ndarray  # int: characters of the token's source (a whole tag; a word without spaces)
    words: list[str]  # the word ("" for a tag)
    names: list[str]  # lower-case tag name ("" for a word; "!" for a declaration)
    closing: np.ndarray  # bool: an end tag
    in_anchor: np.ndarray  # bool: a word inside <a>...</a>
    spaced: np.ndarray  # bool: whitespace in the source between this word and the previous one

    def __len__(self) -> int:
        return len(self.words)

    @property
    def is_word(self) -> np.ndarray:
        return ~self.is_tag

    @functools.cached_property  # read by several phases of one page: built once
    def is_anchor_tag(self) -> np.ndarray:
        return np.fromiter((n == "a" for n in self.names), dtype=bool, count=len(self.names))

    @functools.cached_property
    def is_block_tag(self) -> np.ndarray:
        return np.fromiter((n in BLOCK_TAGS for n in self.names), dtype=bool, count=len(self.names))


def tokenize(text: str) -> Tokens:
    """Tags and words of ``text`` (scripts, styles, comments removed; entities decoded in words)."""
    is_tag: list[bool] = []
    lengths: list[int] = []
    words: list[str] = []
    names: list[str] = []
    closing: list[bool] = []
    in_anchor: list[bool] = []
    spaced: list[bool] = []
    anchor = False
    gap = False  # whitespace since the last word

    def add_text(segment: str) -> None:
        nonlocal gap
        if not segment or segment.isspace():
            gap = gap or bool(segment)
            return
        segment = html.unescape(segment)
        end = 0
        for m in _WORD.finditer(segment):
            word = m.group()
            is_tag.append(False)
            lengths.append(len(word))
            words.append(word)
            names.append("")
            closing.append(False)
            in_anchor.append(anchor)
            spaced.append(gap or m.start() > end)  # only whitespace lies between two matches
            gap, end = False, m.end()
        gap = end < len(segment)

    n = len(text)
    pos = 0
    while pos < n:
        lt = text.find("<", pos)
        if lt < 0:
            add_text(text[pos:])
            break
        m = _TAG_OPEN.match(text, lt)
        if m is None:  # a "<" of the text: keep scanning from the next character
            nxt = text.find("<", lt + 1)
            stop = n if nxt < 0 else nxt
            add_text(text[pos:stop])
            pos = stop
            continue
        add_text(text[pos:lt])
        if text.startswith("<!--", lt):  # comment: removed
            end = text.find("-->", lt + 4)
            pos = n if end < 0 else end + 3
            continue
        gt = text.find(">", lt + 1)
        end = n if gt < 0 else gt + 1
        name = (m.group(2) or "!").lower()
        is_close = bool(m.group(1))
        if not is_close and name in RAW_TEXT_TAGS:  # raw text: removed up to its end tag
            close = _RAW_CLOSE[name].search(text, end)
            pos = n if close is None else close.end()
            continue
        if name == "a":
            anchor = not is_close
        is_tag.append(True)
        lengths.append(end - lt)
        words.append("")
        names.append(name)
        closing.append(is_close)
        in_anchor.append(False)
        spaced.append(False)
        pos = end
    return Tokens(np.array(is_tag, dtype=bool), np.array(lengths, dtype=np.int64), words, names,
                  np.array(closing, dtype=bool), np.array(in_anchor, dtype=bool), np.array(spaced, dtype=bool))


def paragraphs(tokens: Tokens, keep: np.ndarray) -> list[str]:
    """The kept words as paragraphs: a block-level tag between two kept words starts a new one."""
    kept = np.flatnonzero(keep & tokens.is_word)
    if not kept.size:
        return []
    blocks_before = np.cumsum(tokens.is_block_tag)[kept]
    starts = np.flatnonzero(np.diff(blocks_before, prepend=-1))
    out = []
    words, spaced = tokens.words, tokens.spaced
    for a, b in zip(starts, [*starts[1:], kept.size]):
        run = kept[a:b]
        line = collapse(words[run[0]] + "".join((" " if spaced[i] else "") + words[i] for i in run[1:]))
        if any(c.isalnum() for c in line):  # a lone "|" or "-" is not a paragraph (as parse.py)
            out.append(line)
    return out


def max_subarray(values: np.ndarray) -> tuple[int, int] | None:
    """(first, last) of the contiguous run of ``values`` with the largest sum (Kadane 1984, via
    prefix sums: the best run ends where the prefix sum minus its running minimum peaks); None
    when every value is <= 0."""
    if not values.size or values.max() <= 0:
        return None
    prefix = np.concatenate(([0], np.cumsum(values)))
    lowest = np.minimum.accumulate(prefix[:-1])  # min prefix before each end position
    gain = prefix[1:] - lowest
    last = int(np.argmax(gain))
    first = int(np.flatnonzero(prefix[: last + 1] == lowest[last])[-1])
    return first, last
