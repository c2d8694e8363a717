# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twins of ``cleaning.blocks`` and ``cleaning.paragraphs`` (the walks over a region's tree), of
``cleaning.link_stats`` (what the link rules count in a subtree), and of ``cleaning.words`` and
``chrome.chrome_walk`` (the typed readings' word counts and chrome walk over the page's tree);
``profile_impl`` calls them.

The reference walks the lxml tree with ``etree.iterwalk``, one Python-level event per element
start and end.  This walk reads libxml2's nodes directly (lxml's public C API: ``_Element._c_node``
and ``elementFactory``), in the same order and with the same rules.  It answers ``is_clutter`` itself
where the answer is arithmetic on an element's class/id words (the reference's ``word_bits``, memoised
per walk) and its link counts (:func:`link_stats`, in C), and calls back into Python only where the
reference's decision reads text: a caption's or a byline's test.  Text is gathered and collapsed as libxml2 holds it
(UTF-8), one string made per kept block.  The traversal is iterative (parent pointers), so no depth of
nesting reaches the C stack.

A node the reference would see differently (a comment, processing instruction or entity left in the
tree: the parser removes them) makes :func:`blocks` return None, and the caller runs the reference.

The callback's contract: ``is_clutter`` reads the element it is given and must not change the tree.
The walk holds raw libxml2 pointers to the current element and its ancestors while it runs, so it
makes a callback that breaks the contract harmless rather than trusting it: the element handed to
the callback is kept alive (its lxml proxy is held, and lxml frees no subtree that holds a proxied
node) until the walk has checked, by the parent pointers, that the element still hangs under the
root at the depth the walk reached it; if not (the callback removed or moved it or an ancestor),
the walk stops with ``RuntimeError`` before it reads any pointer of the changed tree.  The sets it
is given are copied into frozensets first, so no caller's ``__contains__`` runs during the walk.
"""
from cpython.unicode cimport PyUnicode_AsUTF8AndSize, PyUnicode_DecodeUTF8
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, strcmp, strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode

cetree.import_lxml__etree()

from mcecrawl.algorithms.cleaning_words import MODAL_ROLES

cdef enum:
    MAX_CLUTTER_ATTRS = 16  # attribute names the caller's clutter test reads (scored_regions.CLUTTER_ATTRIBUTES)


cdef inline bint _is_text(xmlNode* c) noexcept nogil:
    return c.type == tree.XML_TEXT_NODE or c.type == tree.XML_CDATA_SECTION_NODE


cdef inline bint _skippable(xmlNode* c) noexcept nogil:
    return c.type == tree.XML_XINCLUDE_START or c.type == tree.XML_XINCLUDE_END


cdef object _collect(xmlNode* c):
    """lxml's ``_collectText``: the text of consecutive text/CDATA nodes from ``c`` (XInclude
    markers stepped over), or None when there is none."""
    cdef list parts = []
    while c is not NULL and (_is_text(c) or _skippable(c)):
        if _is_text(c) and c.content is not NULL:
            parts.append(PyUnicode_DecodeUTF8(<char*>c.content, strlen(<char*>c.content), NULL))
        c = c.next
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else "".join(parts)


cdef xmlNode* _element_from(xmlNode* c, bint* odd) noexcept:
    """The first element node from ``c`` on (text and XInclude markers stepped over), or NULL;
    ``odd`` is set on a node kind the reference walks differently (comment, PI, entity)."""
    while c is not NULL and c.type != tree.XML_ELEMENT_NODE:
        if not (_is_text(c) or _skippable(c)):
            odd[0] = True
            return NULL
        c = c.next
    return c


cdef bint _has_clutter_attr(xmlNode* c, const char** names, int count) noexcept:
    """The element carries one of the non-namespaced attributes ``names``."""
    cdef xmlAttr* a = c.properties
    cdef int i
    while a is not NULL:
        if a.ns is NULL:
            for i in range(count):
                if strcmp(<const char*>a.name, names[i]) == 0:
                    return True
        a = a.next
    return False


cdef object _attr(xmlNode* c, const char* name):
    """``el.get(name)`` for a non-namespaced attribute."""
    cdef xmlAttr* a = c.properties
    while a is not NULL:
        if a.ns is NULL and strcmp(<const char*>a.name, name) == 0:
            value = _collect(a.children)
            return "" if value is None else value
        a = a.next
    return None


cdef bint _still_under(xmlNode* c, xmlNode* top, Py_ssize_t depth) noexcept nogil:
    """Whether ``top`` is the ``depth``-th parent of ``c`` (the walk's view of the tree still holds)."""
    cdef Py_ssize_t i
    for i in range(depth):
        c = c.parent
        if c is NULL:
            return False
    return c == top


cdef bint _counts_as_link(xmlNode* c):
    href = _attr(c, b"href")
    return not (href or "").lower().startswith("javascript:")


cdef inline Py_ssize_t _code_point(const unsigned char* p, Py_ssize_t i, Py_ssize_t n, unsigned int* cp) noexcept nogil:
    """The code point starting at ``p[i]`` (``*cp``) and its length in bytes; a malformed byte is
    one code point of its own (libxml2's text is UTF-8; decoding checks it strictly later)."""
    cdef unsigned char c = p[i]
    if c < 0x80:
        cp[0] = c
        return 1
    if c >= 0xF0 and i + 3 < n:
        cp[0] = (c & 0x07) << 18 | (p[i + 1] & 0x3F) << 12 | (p[i + 2] & 0x3F) << 6 | (p[i + 3] & 0x3F)
        return 4
    if c >= 0xE0 and i + 2 < n:
        cp[0] = (c & 0x0F) << 12 | (p[i + 1] & 0x3F) << 6 | (p[i + 2] & 0x3F)
        return 3
    if c >= 0xC0 and i + 1 < n:
        cp[0] = (c & 0x1F) << 6 | (p[i + 1] & 0x3F)
        return 2
    cp[0] = 0xFFFD
    return 1


cdef inline bint _isspace(unsigned int cp) noexcept nogil:
    """str.isspace: the 29 whitespace characters of Unicode's White_Space and Python's own."""
    if cp < 0x80:
        return cp == 0x20 or 0x09 <= cp <= 0x0D or 0x1C <= cp <= 0x1F
    return (cp == 0x85 or cp == 0xA0 or cp == 0x1680 or 0x2000 <= cp <= 0x200A or cp == 0x2028 or cp == 0x2029
            or cp == 0x202F or cp == 0x205F or cp == 0x3000)


cdef Py_ssize_t _stripped_chars(const unsigned char* p, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """``len(text.strip())`` of the UTF-8 bytes ``p[a:b]``."""
    cdef Py_ssize_t i = a, k, count = 0, pending = 0
    cdef unsigned int cp
    cdef bint started = False
    while i < b:
        k = _code_point(p, i, b, &cp)
        if _isspace(cp):
            pending += 1
        else:
            count += pending + 1 if started else 1
            pending = 0
            started = True
        i += k
    return count


cdef class _Walk:
    cdef list out
    cdef bytearray buf  # the block's text so far, as libxml2 holds it (UTF-8)
    cdef Py_ssize_t linked, in_link
    cdef double max_link_share

    cdef void flush(self) except *:
        """``collapse`` (U+FEFF dropped, whitespace runs to one space, stripped) on the bytes, then
        the block is kept when it has a letter or digit and not too much link text."""
        cdef Py_ssize_t n = len(self.buf), i = 0, k, w = 0, chars
        cdef const unsigned char* p
        cdef unsigned char* o
        cdef unsigned int cp
        cdef bint space = False
        cdef bytearray collapsed
        if n:
            collapsed = bytearray(n)
            p = <const unsigned char*>(<char*>self.buf)
            o = <unsigned char*>(<char*>collapsed)
            while i < n:
                k = _code_point(p, i, n, &cp)
                if cp == 0xFEFF and k == 3:
                    pass
                elif _isspace(cp):
                    space = w > 0
                else:
                    if space:
                        o[w] = 0x20
                        w += 1
                        space = False
                    memcpy(o + w, p + i, k)
                    w += k
                i += k
            text = PyUnicode_DecodeUTF8(<char*>o, w, NULL)
            chars = len(text)
            if chars and self.linked <= self.max_link_share * chars and any(ch.isalnum() for ch in text):
                self.out.append(text)
            del self.buf[:]
        self.linked = 0

    cdef void add(self, xmlNode* c) except *:
        """Append lxml's ``_collectText(c)`` (el.text or el.tail) to the block."""
        cdef Py_ssize_t start = len(self.buf)
        cdef const unsigned char* p
        while c is not NULL and (_is_text(c) or _skippable(c)):
            if _is_text(c) and c.content is not NULL:
                self.buf.extend(<bytes>(<char*>c.content))
            c = c.next
        if self.in_link and len(self.buf) > start:
            p = <const unsigned char*>(<char*>self.buf)
            self.linked += _stripped_chars(p, start, len(self.buf))


# The cleaning rules' words and bounds, set once by the caller from the reference's own
# (``cleaning.compiled_rules``): the walk answers ``is_clutter`` itself where the answer is arithmetic
# on words and link counts, and asks the reference only for the rules that read text (captions, bylines).
cdef object _word_bits = None, _style_search = None, _streamed_match = None
cdef frozenset _metadata_itemprops = frozenset(), _boilerplate_tags = frozenset(), _wordless_tags = frozenset()
cdef frozenset _code_tags = frozenset()
cdef bytes _article_mark = b""
cdef long _POSITIVE = 0, _NEGATIVE = 0, _MEDIA = 0, _NOTICE = 0, _BYLINE = 0, _BOILERPLATE = 0, _UNLIKELY = 0
cdef long _CANDIDATE = 0
cdef double _box_share = 0, _content_box_share = 0, _negative_box_share = 0
cdef Py_ssize_t _box_max_commas = 0, _box_min_links = 0
cdef bint _rules_set = False


def set_rules(word_bits, style_search, article_mark, metadata_itemprops, boilerplate_tags, dict bits,
              double box_share, double content_box_share, Py_ssize_t box_max_commas, Py_ssize_t box_min_links,
              double negative_box_share, streamed_match, wordless_tags, code_tags):
    """The reference's rules for :func:`blocks` with ``decide``: ``word_bits(words)`` (the word lists an
    element's class/id/role/itemprop/rel value matches, as bits named in ``bits``), ``style_search``
    (matches a style that hides), the article mark, the metadata itemprops, the boilerplate tags and
    the link-box and negative-box bounds, ``streamed_match`` (matches the id of a streamed segment,
    which its ``hidden`` attribute does not hide), the tags never dropped for their words and the code
    tags (with what they hold, dropped only when hidden)."""
    global _word_bits, _style_search, _streamed_match, _article_mark, _metadata_itemprops, _boilerplate_tags, _rules_set
    global _wordless_tags, _code_tags
    global _POSITIVE, _NEGATIVE, _MEDIA, _NOTICE, _BYLINE, _BOILERPLATE, _UNLIKELY, _CANDIDATE
    global _box_share, _content_box_share, _negative_box_share, _box_max_commas, _box_min_links
    _word_bits, _style_search, _streamed_match = word_bits, style_search, streamed_match
    _article_mark = article_mark.encode("ascii")
    _metadata_itemprops, _boilerplate_tags = frozenset(metadata_itemprops), frozenset(boilerplate_tags)
    _wordless_tags, _code_tags = frozenset(wordless_tags), frozenset(code_tags)
    _POSITIVE, _NEGATIVE, _MEDIA, _NOTICE = bits["positive"], bits["negative"], bits["media"], bits["notice"]
    _BYLINE, _BOILERPLATE, _UNLIKELY, _CANDIDATE = bits["byline"], bits["boilerplate"], bits["unlikely"], bits["candidate"]
    _box_share, _content_box_share, _negative_box_share = box_share, content_box_share, negative_box_share
    _box_max_commas, _box_min_links = box_max_commas, box_min_links
    _rules_set = True


cdef inline double _share(Py_ssize_t* stats) noexcept nogil:
    """``cleaning._stats_share``: the link share of (links, chars, linked, ...)."""
    return <double>stats[2] / <double>stats[1] if stats[1] else 0.0


cdef bint _invisible(xmlNode* c, dict styles) except -1:
    """``cleaning.invisible`` of the element's attributes (``styles`` memoises the style test)."""
    if _attr(c, b"hidden") is not None and _streamed_match(_attr(c, b"id") or "") is None:
        return True
    if _attr(c, b"aria-hidden") == "true":
        return True
    style = _attr(c, b"style")
    if style:
        hides = styles.get(style)
        if hides is None:
            hides = styles[style] = _style_search(style) is not None
        return hides
    return False


cdef int _decide(xmlNode* c, str tag, bint link_box_tag, dict memo, dict styles) except -2:
    """``cleaning.is_clutter(el, tag)`` where it is arithmetic on the element's words and link counts:
    1 clutter, 0 not, -1 ask the reference (a caption or byline test, which reads the element's text,
    or link counts :func:`_link_stats` declines).  The same rules in the same order as the reference."""
    cdef Py_ssize_t stats[6]
    cdef bint counted = False
    cdef long bits = 0
    if _attr(c, _article_mark) is not None:
        return 0
    if _invisible(c, styles):
        return 1
    itemprop = _attr(c, b"itemprop")
    values = [v for v in (_attr(c, b"class"), _attr(c, b"id"), _attr(c, b"role"), itemprop, _attr(c, b"rel")) if v]
    if values:
        words = " ".join(values)
        found = memo.get(words)
        if found is None:
            found = memo[words] = _word_bits(words)
        bits = found
    cdef bint wordless = tag in _wordless_tags
    if bits & _NOTICE and not wordless:
        return 1
    if values and not wordless and tag != "body" and tag != "html" and (  # is_boilerplate
            tag in _boilerplate_tags or bits & _BOILERPLATE or (bits & _UNLIKELY and not bits & _CANDIDATE)):
        return 1
    if link_box_tag:
        if not _link_stats(c, stats):
            return -1
        counted = True
        if stats[0] and _share(stats) > (_content_box_share if bits & _POSITIVE else _box_share) and (
                stats[3] < _box_max_commas) and (stats[0] >= _box_min_links or not stats[4] > stats[5]):
            return 1
    if not values:
        return 0
    if bits & _NEGATIVE and not bits & _POSITIVE and not wordless:
        if not counted and not _link_stats(c, stats):
            return -1
        if _share(stats) > _negative_box_share:
            return 1
    if bits & _MEDIA:
        return -1
    if itemprop is not None and itemprop.strip() in _metadata_itemprops:
        return 1
    return -1 if bits & _BYLINE else 0


def blocks(cetree._Element root not None, is_clutter, clutter_attrs, block_tags, skipped_tags, link_box_tags,
           double max_link_share, bint decide=False):
    """The blocks ``cleaning.blocks(root)`` returns, or None when the tree holds a node kind
    the reference would walk differently (then the caller runs the reference).

    ``is_clutter(element, tag)`` is asked only about elements that carry one of ``clutter_attrs``
    (the attribute names it reads) or are ``link_box_tags``; it must not change the tree (a change
    of the element's or an ancestor's place raises ``RuntimeError``, see the module's docstring).
    With ``is_clutter`` None, no skipped tags and ``max_link_share`` infinite it is the plain walk
    of ``parse.tree_paragraphs``: every block's text.  An element without a libxml2 node (made
    with ``_Element.__new__``) raises ``ValueError``.

    With ``decide`` (the rules given by :func:`set_rules`), the walk answers for the reference's
    ``is_clutter`` wherever :func:`_decide` can, and calls it only for the rest (captions, bylines).
    With the rules set, neither is asked about the code tags' elements or what lies inside them:
    those go only when hidden (``cleaning.invisible``), as in the reference."""
    if root._c_node is NULL:
        raise ValueError("blocks: the element has no libxml2 node (an _Element not made by lxml's parser or API)")
    block_tags, skipped_tags, link_box_tags = frozenset(block_tags), frozenset(skipped_tags), frozenset(link_box_tags)
    if decide and not _rules_set:
        raise ValueError("blocks: decide needs the rules (set_rules)")
    cdef frozenset code_tags = _code_tags if is_clutter is not None else frozenset()
    cdef dict memo = {}, styles = {}
    cdef int decided
    cdef list names = [name.encode("ascii") for name in clutter_attrs]  # kept alive for the C pointers
    cdef const char* attrs[MAX_CLUTTER_ATTRS]
    cdef int n_attrs = len(names), k
    if n_attrs > MAX_CLUTTER_ATTRS:
        raise ValueError(f"at most {MAX_CLUTTER_ATTRS} clutter attributes, not {n_attrs}")
    for k in range(n_attrs):
        attrs[k] = names[k]
    cdef xmlNode* top = root._c_node
    cdef xmlNode* c = top
    cdef xmlNode* nxt
    cdef _Walk w = _Walk()
    cdef bint skip, is_a, is_code, entered, odd = False
    cdef Py_ssize_t depth = 0  # levels below top: the walk's own account of where c hangs
    cdef Py_ssize_t in_code = 0  # code_tags elements open around c
    w.out, w.buf, w.linked, w.in_link = [], bytearray(), 0, 0
    w.max_link_share = max_link_share
    while True:
        # start event of c
        if c.type != tree.XML_ELEMENT_NODE or c.ns is not NULL:
            return None
        tag = PyUnicode_DecodeUTF8(<char*>c.name, strlen(<char*>c.name), NULL)
        block = tag in block_tags
        is_a = tag == "a"
        if block:
            w.flush()
        skip = tag in skipped_tags
        is_code = tag in code_tags
        if not skip and (is_code or in_code):
            skip = is_clutter is not None and _has_clutter_attr(c, attrs, n_attrs) and _invisible(c, styles)
        elif not skip and is_clutter is not None and (tag in link_box_tags or _has_clutter_attr(c, attrs, n_attrs)):
            decided = _decide(c, tag, tag in link_box_tags, memo, styles) if decide else -1
            if decided < 0:
                held = cetree.elementFactory(root._doc, c)  # keeps c's subtree allocated whatever the callback does
                decided = 1 if is_clutter(held, tag) else 0
                if not _still_under(c, top, depth):
                    raise RuntimeError("blocks: is_clutter changed the tree (moved or removed the element it was given "
                                       "or an ancestor); it must only read it")
                held = None
            skip = decided == 1
        if not skip:
            if is_a and _counts_as_link(c):
                w.in_link += 1
            if is_code:
                in_code += 1
            w.add(c.children)
            # descend to the first element child (text children were read as the text)
            nxt = _element_from(c.children, &odd)
            if odd:
                return None
            if nxt is not NULL:
                c = nxt
                depth += 1
                continue
        # end events: of c, then of each ancestor whose last element child has ended
        entered = not skip
        while True:
            tag = PyUnicode_DecodeUTF8(<char*>c.name, strlen(<char*>c.name), NULL)
            if tag == "a" and w.in_link and _counts_as_link(c):
                w.in_link -= 1
            if entered and tag in code_tags:
                in_code -= 1
            entered = True  # the ancestors ended next were all entered
            if tag in block_tags:
                w.flush()
            w.add(c.next)
            if c is top:
                w.flush()
                return w.out
            nxt = _element_from(c.next, &odd)
            if odd:
                return None
            if nxt is not NULL:
                c = nxt
                break
            c = c.parent
            depth -= 1


# The marks link_stats counts (code points), set once by the caller from the reference's own lists.
cdef enum:
    MAX_MARKS = 16
cdef unsigned int _ends[MAX_MARKS]
cdef unsigned int _commas[MAX_MARKS]
cdef int _n_ends = 0, _n_commas = 0


def set_marks(str sentence_ends, str commas):
    """The sentence-end and comma characters :func:`link_stats` counts (the reference's lists)."""
    global _n_ends, _n_commas
    if len(sentence_ends) > MAX_MARKS or len(commas) > MAX_MARKS:
        raise ValueError(f"at most {MAX_MARKS} marks of each kind")
    for i, ch in enumerate(sentence_ends):
        _ends[i] = ord(ch)
    for i, ch in enumerate(commas):
        _commas[i] = ord(ch)
    _n_ends, _n_commas = len(sentence_ends), len(commas)


cdef inline bint _in(unsigned int cp, unsigned int* marks, int n) noexcept nogil:
    cdef int i
    for i in range(n):
        if marks[i] == cp:
            return True
    return False


def link_stats(cetree._Element el not None):
    """``cleaning.link_stats(el)`` read from libxml2's nodes in one pass over the subtree: (links,
    non-whitespace characters, those inside links, commas, sentence ends, those inside links), all
    but the first 0 when there is no link; None when the subtree holds a node kind the reference
    reads differently (comment, processing instruction, entity, namespaced element)."""
    cdef Py_ssize_t out[6]
    if el._c_node is NULL:
        raise ValueError("link_stats: the element has no libxml2 node")
    if not _link_stats(el._c_node, out):
        return None
    return (out[0], out[1], out[2], out[3], out[4], out[5])


cdef bint _link_stats(xmlNode* top, Py_ssize_t* out) noexcept:
    """:func:`link_stats` into ``out``; False where it returns None."""
    cdef xmlNode* c = top.children
    cdef Py_ssize_t links = 0, chars = 0, linked = 0, commas = 0, ends = 0, linked_ends = 0, in_link = 0
    cdef Py_ssize_t i, n, k
    cdef const unsigned char* p
    cdef unsigned int cp
    while c is not NULL:
        if c.type == tree.XML_ELEMENT_NODE:
            if c.ns is not NULL:
                return False
            if strcmp(<const char*>c.name, b"a") == 0:
                links += 1
                in_link += 1
            if c.children is not NULL:
                c = c.children
                continue
            if strcmp(<const char*>c.name, b"a") == 0:
                in_link -= 1
        elif _is_text(c):
            if c.content is not NULL:
                p = <const unsigned char*>c.content
                n = <Py_ssize_t>strlen(<char*>c.content)
                i = 0
                while i < n:
                    k = _code_point(p, i, n, &cp)
                    if not _isspace(cp):
                        chars += 1
                        if in_link:
                            linked += 1
                    if _in(cp, _commas, _n_commas):
                        commas += 1
                    if _in(cp, _ends, _n_ends):
                        ends += 1
                        if in_link:
                            linked_ends += 1
                    i += k
        elif not _skippable(c):
            return False
        # next: the sibling, else up to the first ancestor (below top) with one, closing links on the way
        while c.next is NULL:
            c = c.parent
            if c is top or c is NULL:
                c = NULL
                break
            if strcmp(<const char*>c.name, b"a") == 0:
                in_link -= 1
        if c is not NULL:
            c = c.next
    if not links:
        chars = linked = commas = ends = linked_ends = 0
    out[0], out[1], out[2], out[3], out[4], out[5] = links, chars, linked, commas, ends, linked_ends
    return True



# --- the word lists over class/id/role/itemprop/rel values, in C ---------------------------------
# ``cleaning.word_bits`` for a value of ASCII tokens: the words found inside a token by one pass of an
# Aho-Corasick automaton over the lower-cased value (no word holds a space, so none spans two tokens),
# the whole-token words and the ad-slot rule at each token's end.  A value with another character or
# other whitespace is answered by the reference (``set_words``' ``reference``).

cdef enum:
    ASCII = 128
cdef int* _delta = NULL  # state * ASCII + byte -> state (the automaton's goto and fail links resolved)
cdef unsigned int* _found = NULL  # state -> bits of the words ending there (along its fail links)
cdef enum:
    MAX_WHOLE_WORDS = 64
cdef list _whole_words = []  # lower-case bytes of the words that are a whole token, kept alive for:
cdef const unsigned char* _whole_ptr[MAX_WHOLE_WORDS]
cdef Py_ssize_t _whole_len[MAX_WHOLE_WORDS]
cdef unsigned int _whole_bit[MAX_WHOLE_WORDS]
cdef int _n_whole = 0
cdef unsigned int _ad_slot_bit = 0
cdef object _reference_bits = None


def set_words(inside, whole, unsigned int ad_slot_bit, reference):
    """The word lists as ``cleaning.token_rules`` reads them: ``inside`` (word, bit) found inside a
    token, ``whole`` (word, bit) a whole token, the ad-slot rule's bit; ``reference``: the reference's
    ``word_bits``, for the values this matcher leaves to it."""
    global _delta, _found, _whole_words, _n_whole, _ad_slot_bit, _reference_bits
    if len(whole) > MAX_WHOLE_WORDS:
        raise ValueError(f"at most {MAX_WHOLE_WORDS} whole-token words")
    goto, found = [{}], [0]
    for word, bit in inside:
        state = 0
        for ch in word.encode("ascii"):
            if ch not in goto[state]:
                goto[state][ch] = len(goto)
                goto.append({})
                found.append(0)
            state = goto[state][ch]
        found[state] |= bit
    n = len(goto)
    fail, delta = [0] * n, [[0] * ASCII for _ in range(n)]
    queue, head = [], 0
    for ch, state in goto[0].items():
        delta[0][ch] = state
        queue.append(state)
    while head < len(queue):  # breadth first: a state's fail link is shallower, finished before it
        r = queue[head]
        head += 1
        found[r] |= found[fail[r]]
        for ch in range(ASCII):
            if ch in goto[r]:
                t = goto[r][ch]
                fail[t] = delta[fail[r]][ch]
                delta[r][ch] = t
                queue.append(t)
            else:
                delta[r][ch] = delta[fail[r]][ch]
    cdef int* new_delta = <int*>malloc(n * ASCII * sizeof(int))
    cdef unsigned int* new_found = <unsigned int*>malloc(n * sizeof(unsigned int))
    if new_delta is NULL or new_found is NULL:
        free(new_delta)
        free(new_found)
        raise MemoryError()
    cdef int s, c
    for s in range(n):
        new_found[s] = found[s]
        for c in range(ASCII):
            new_delta[s * ASCII + c] = delta[s][c]
    free(_delta)
    free(_found)
    _delta, _found = new_delta, new_found
    _whole_words = [w.encode("ascii") for w, _ in whole]
    for s, (_, bit) in enumerate(whole):
        _whole_ptr[s] = <const unsigned char*>(<bytes>_whole_words[s])
        _whole_len[s], _whole_bit[s] = len(_whole_words[s]), bit
    _n_whole = len(whole)
    _ad_slot_bit, _reference_bits = ad_slot_bit, reference


cdef inline unsigned char _lower(unsigned char c) noexcept nogil:
    return c + 32 if 65 <= c <= 90 else c


cdef inline bint _word_char(unsigned char c) noexcept nogil:
    """``\\w`` on ASCII."""
    return (48 <= c <= 57) or (65 <= c <= 90) or (97 <= c <= 122) or c == 95


cdef bint _ad_slot(const unsigned char* t, Py_ssize_t m) noexcept nogil:
    """``cleaning_words.AD_SLOT`` on one ASCII token: "ad", "ads" or "advert…" as a part of the token
    that starts it or follows "_"/"-", and ends it or is followed by "_"/"-" (``advert\\w*`` may stop at
    any "_" of the word characters after it)."""
    cdef Py_ssize_t i, j, k
    cdef bint underscore
    for i in range(m - 1):
        if (i and t[i - 1] != 95 and t[i - 1] != 45) or _lower(t[i]) != 97 or _lower(t[i + 1]) != 100:
            continue
        j = i + 2
        if j == m or t[j] == 95 or t[j] == 45:
            return True
        if _lower(t[j]) == 115 and (j + 1 == m or t[j + 1] == 95 or t[j + 1] == 45):
            return True
        if m - i >= 6 and _lower(t[j]) == 118 and _lower(t[j + 1]) == 101 and _lower(t[j + 2]) == 114 \
                and _lower(t[j + 3]) == 116:
            k, underscore = i + 6, False
            while k < m and _word_char(t[k]):
                underscore |= t[k] == 95
                k += 1
            if k == m or t[k] == 45 or underscore:
                return True
    return False


cdef unsigned int _token_end(const unsigned char* t, Py_ssize_t m) noexcept nogil:
    """The bits a whole ASCII token decides: the whole-token words and the ad-slot rule."""
    cdef unsigned int bits = 0
    cdef Py_ssize_t k
    cdef int j
    for j in range(_n_whole):
        if _whole_len[j] != m:
            continue
        for k in range(m):
            if _lower(t[k]) != _whole_ptr[j][k]:
                break
        else:
            bits |= _whole_bit[j]
    if _ad_slot_bit and _ad_slot(t, m):
        bits |= _ad_slot_bit
    return bits


def word_bits(str words not None):
    """``cleaning.word_bits(words)``: which word lists a class/id/role/itemprop/rel value matches."""
    if _delta is NULL:
        raise ValueError("word_bits: the word lists are not set (set_words)")
    if not words.isascii():
        return _reference_bits(words)
    cdef Py_ssize_t n = 0, i, start = 0
    cdef const unsigned char* p = <const unsigned char*>PyUnicode_AsUTF8AndSize(words, &n)
    cdef unsigned int bits = 0
    cdef int state = 0
    cdef unsigned char c
    for i in range(n):
        c = p[i]
        if c == 32:
            if i > start:
                bits |= _token_end(p + start, i - start)
            start, state = i + 1, 0
            continue
        if (9 <= c <= 13) or (28 <= c <= 31):  # other whitespace: the reference reads the whole value
            return _reference_bits(words)
        state = _delta[state * ASCII + _lower(c)]
        bits |= _found[state]
    if n > start:
        bits |= _token_end(p + start, n - start)
    return bits


# --- the page's chrome (chrome.py): its word counts and its walk, in C ------------------------------
# ``chrome.words`` joins an element's text pieces (lxml's itertext) with a space and splits them, one
# Python string per piece; the chrome walk asks each element's attributes through its lxml proxy.
# Both read libxml2's nodes here instead, with the reference's decisions (``judge``) asked once per
# distinct key, as the reference memoises them.

cdef inline void _count_text(xmlNode* c, Py_ssize_t* words, Py_ssize_t* joined, Py_ssize_t* chars,
                             bint* in_piece, bint* in_joined) noexcept nogil:
    """Add a text node's words (a piece runs on from the text node before it, ``in_piece``), its words
    joined with the text before it whatever lies between (``in_joined``) and its non-whitespace
    characters."""
    cdef const unsigned char* p
    cdef Py_ssize_t i = 0, n
    cdef unsigned int cp
    if c.content is NULL:
        return
    p = <const unsigned char*>c.content
    n = <Py_ssize_t>strlen(<char*>c.content)
    while i < n:
        i += _code_point(p, i, n, &cp)
        if _isspace(cp):
            in_piece[0] = in_joined[0] = False
        else:
            chars[0] += 1
            if not in_piece[0]:
                words[0] += 1
                in_piece[0] = True
            if not in_joined[0]:
                joined[0] += 1
                in_joined[0] = True


cdef int _text_counts(xmlNode* top, Py_ssize_t* out, dict table=None) except -1:
    """The text of ``top``'s subtree (its own tail not): ``out[0]`` its words with lxml's text pieces
    (``itertext``) joined by a space (``chrome.words``), ``out[1]`` with them joined by nothing
    (``chrome.least_words``), ``out[2]`` its non-whitespace characters.  A piece is lxml's: the text
    nodes between two element boundaries.  With ``table``, also the words of ``top`` and of every
    element below it, keyed by node address (an element's start and end end a piece, so its words
    are those counted between them).  0 on a node kind the reference reads differently (comment,
    processing instruction, entity), else 1."""
    cdef xmlNode* c = top.children
    cdef Py_ssize_t words = 0, joined = 0, chars = 0
    cdef bint in_piece = False, in_joined = False
    cdef list starts = [] if table is not None else None  # the words counted before each open element
    while c is not NULL:
        if c.type == tree.XML_ELEMENT_NODE:
            in_piece = False  # an element's start ends a piece
            if c.children is not NULL:
                if table is not None:
                    starts.append(words)
                c = c.children
                continue
            if table is not None:
                table[<size_t>c] = 0
        elif _is_text(c):
            _count_text(c, &words, &joined, &chars, &in_piece, &in_joined)
        elif not _skippable(c):
            return 0
        if c.type == tree.XML_ELEMENT_NODE:
            in_piece = False  # ... and so does its end
        while c.next is NULL:
            c = c.parent
            if c is top or c is NULL:
                c = NULL
                break
            if table is not None:
                table[<size_t>c] = words - <Py_ssize_t>starts.pop()  # c's children done: its words
            in_piece = False
        if c is not NULL:
            c = c.next
    out[0], out[1], out[2] = words, joined, chars
    if table is not None:
        table[<size_t>top] = words
    return 1


cdef dict _words_table(xmlNode* top):
    """``chrome.word_counts``: the words (:func:`_text_counts`' ``out[0]``) of ``top`` and of every
    element below it, keyed by node address, in one walk; None on a node kind the reference reads
    differently."""
    cdef Py_ssize_t counts[3]
    cdef dict table = {}
    return table if _text_counts(top, counts, table) else None


# chrome.LAYOUT_COUNTS: after this many chrome elements kept as layout, every element's words are
# counted once (:func:`_words_table`) rather than each kept element's subtree again.
LAYOUT_COUNTS = 16


def text_words(cetree._Element el not None):
    """``chrome.words(el)``: the words of the element's text, its own tail not; None when the subtree
    holds a node kind the reference reads differently."""
    cdef Py_ssize_t counts[3]
    if el._c_node is NULL:
        raise ValueError("text_words: the element has no libxml2 node")
    if not _text_counts(el._c_node, counts):
        return None
    return counts[0]


cdef bint _in_article_section(xmlNode* c) noexcept:
    """``chrome._section_of(el) == "article"``: the nearest ancestor among article, aside, nav,
    section and body is an article."""
    c = c.parent
    while c is not NULL and c.type == tree.XML_ELEMENT_NODE:
        if c.ns is NULL:
            if strcmp(<const char*>c.name, b"article") == 0:
                return True
            if (strcmp(<const char*>c.name, b"aside") == 0 or strcmp(<const char*>c.name, b"nav") == 0
                    or strcmp(<const char*>c.name, b"section") == 0 or strcmp(<const char*>c.name, b"body") == 0):
                return False
        c = c.parent
    return False


cdef bint _overlay(xmlNode* c, str tag, object role) except -1:
    """``chrome.overlay``: a modal dialog (an ARIA dialog role with ``aria-modal="true"``) or a
    ``<dialog>`` without ``open``."""
    if tag == "dialog" and _attr(c, b"open") is None:
        return True
    if role is None or not MODAL_ROLES.intersection(role.lower().split()):
        return False
    aria_modal = _attr(c, b"aria-modal")
    return aria_modal is not None and aria_modal.strip().lower() == "true"


def chrome_walk(cetree._Element body not None, judge, double limit, bint item_parts):
    """``chrome.chrome_walk(body, judge, limit, item_parts)``: ``(found, mains)``, the chrome to drop
    (an overlay, :func:`_overlay`, without asking ``judge``)
    as ``[element, its words or None, a lower bound of them]`` and the ``<main>``/``role=main``
    elements left, both in document order; None when the tree holds a node kind the reference walks
    differently (then the caller runs the reference).

    ``judge(element, in_content)`` is asked once per distinct key of the attributes it reads (the
    reference's memo); it must not change the tree (a change of the element's or an ancestor's place
    raises ``RuntimeError``, as :func:`blocks`' callback)."""
    if body._c_node is NULL:
        raise ValueError("chrome_walk: the element has no libxml2 node")
    cdef xmlNode* top = body._c_node
    cdef xmlNode* nxt
    cdef bint odd = False, in_content, main, descend, overlay
    cdef Py_ssize_t depth = 1, content_depth = 0  # content_depth: the open landmark's depth, 0 outside one
    cdef Py_ssize_t counts[3]
    cdef list found = [], mains = []
    cdef dict memo = {}
    cdef dict table = None  # every element's words, once LAYOUT_COUNTS chrome elements were kept
    cdef Py_ssize_t kept = 0
    cdef xmlNode* c = _element_from(top.children, &odd)
    if odd:
        return None
    while c is not NULL:
        if c.ns is not NULL:
            return None
        tag = PyUnicode_DecodeUTF8(<char*>c.name, strlen(<char*>c.name), NULL)
        role = _attr(c, b"role")
        in_content = content_depth > 0
        overlay = _overlay(c, tag, role)
        if overlay:
            known = True  # chrome at any size, not asked of judge
        else:
            style, hidden, aria_hidden = _attr(c, b"style"), _attr(c, b"hidden"), _attr(c, b"aria-hidden")
            if in_content and style is None and hidden is None and aria_hidden is None:
                key = (tag, role)  # visible, in content: its class/id are not read
            else:
                key = (tag, role, _attr(c, b"class"), _attr(c, b"id"), style, hidden, aria_hidden, in_content)
            known = memo.get(key)
            if known is None:
                held = cetree.elementFactory(body._doc, c)  # keeps c's subtree allocated whatever the callback does
                known = memo[key] = bool(judge(held, in_content))
                if not _still_under(c, top, depth):
                    raise RuntimeError("chrome_walk: judge changed the tree (moved or removed the element it was "
                                       "given or an ancestor); it must only read it")
                held = None
        main = tag == "main" or role == "main"
        descend = True
        if known and not (item_parts and (tag == "header" or tag == "footer") and _in_article_section(c)) \
                and (table is None or overlay or table[<size_t>c] < limit):
            if not _text_counts(c, counts):
                return None
            # a word is one non-space character at least: under the limit's characters, under its
            # words; at the limit's words joined, a layout wrapper (kept); between, counted
            n = None if counts[2] < limit else counts[0] if counts[1] < limit or overlay else counts[1]
            if n is None or n < limit or overlay:
                found.append([cetree.elementFactory(body._doc, c), n, counts[1]])
                descend = False
            else:
                kept += 1
                if kept == LAYOUT_COUNTS:
                    table = _words_table(top)
                    if table is None:
                        return None
        if descend:
            if main:
                mains.append(cetree.elementFactory(body._doc, c))
            if not in_content and (main or tag == "article"):
                content_depth = depth
            nxt = _element_from(c.children, &odd)
            if odd:
                return None
            if nxt is not NULL:
                c = nxt
                depth += 1
                continue
        # leave c, then each ancestor whose last element child it was
        while True:
            if depth == content_depth:
                content_depth = 0
            nxt = _element_from(c.next, &odd)
            if odd:
                return None
            if nxt is not NULL:
                c = nxt
                break
            c = c.parent
            depth -= 1
            if depth == 0:
                return found, mains
    return found, mains
