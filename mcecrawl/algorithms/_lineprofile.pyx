# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of the line profile's hot phases (reference: :mod:`mcecrawl.algorithms.lines`).

Every function here returns exactly what its reference twin in ``lines.py`` returns (the tests
compare both on every dev page and on a fuzz corpus); :mod:`mcecrawl.algorithms.profile_impl`
wraps the raw buffers into numpy arrays of the reference dtypes.  The loops are plain C over the
page's UTF-8 bytes: each is one pass, O(page size), and every index is checked against the
page's length by construction (``_at`` clamps like the reference's ``np.minimum(i, n - 1)``), since a
read past a buffer here is a crash of the whole crawl, not an exception.

The offsets a caller passes in (line starts, tag starts, spans) are checked at the boundary, one
cheap pass each (:func:`_check_offsets`): an offset outside the page, or arrays of unequal lengths,
raise ValueError instead of reading or writing past a buffer.  A failed allocation raises
MemoryError with every buffer of the call freed.

Outputs are ``bytearray`` buffers (int64 offsets, int32 counts, uint8 flags, uint64 keys) so the
build needs neither numpy's headers nor its C API.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from cpython.bytearray cimport PyByteArray_FromStringAndSize
from libc.string cimport memchr, memcpy, memset

ctypedef Py_ssize_t isize


cdef inline bint _alpha(uint8_t c) noexcept nogil:
    return (0x41 <= c <= 0x5A) or (0x61 <= c <= 0x7A)


cdef inline bint _word(uint8_t c) noexcept nogil:
    # \w of a bytes regex: [A-Za-z0-9_]
    return _alpha(c) or (0x30 <= c <= 0x39) or c == 0x5F


cdef inline bint _space(uint8_t c) noexcept nogil:
    # \s of a bytes regex: space, \t \n \v \f \r
    return c == 0x20 or (0x09 <= c <= 0x0D)


cdef inline uint8_t _lower(uint8_t c) noexcept nogil:
    return c | 0x20 if 0x41 <= c <= 0x5A else c


cdef inline bint _ieq(const uint8_t* p, isize avail, const char* word, isize k) noexcept nogil:
    """The next ``k`` bytes (``avail`` left) equal lower-case ASCII ``word``, case-insensitively."""
    cdef isize j
    if avail < k:
        return False
    for j in range(k):
        if _lower(p[j]) != <uint8_t>word[j]:
            return False
    return True


cdef struct Buf:
    int64_t* v
    isize n
    isize cap


cdef int _push(Buf* b, int64_t x) except -1 nogil:
    cdef int64_t* grown
    if b.n == b.cap:
        b.cap = b.cap * 2 if b.cap else 1024
        grown = <int64_t*>realloc(b.v, b.cap * sizeof(int64_t))
        if grown == NULL:
            with gil:
                raise MemoryError()
        b.v = grown
    b.v[b.n] = x
    b.n += 1
    return 0


cdef void _release(Buf* b) noexcept nogil:
    """Free a buffer not taken (a call that raised): ``_take`` already freed the others (NULL)."""
    free(b.v)
    b.v = NULL
    b.n = b.cap = 0


cdef int _check_offsets(const int64_t[::1] offsets, isize low, isize high, str name) except -1:
    """Every offset in ``[low, high]``, else ValueError naming ``name`` (one pass, no GIL)."""
    cdef isize i, m = offsets.shape[0], bad = -1
    with nogil:
        for i in range(m):
            if offsets[i] < low or offsets[i] > high:
                bad = i
                break
    if bad >= 0:
        raise ValueError(f"{name}[{bad}] = {offsets[bad]} is outside [{low}, {high}]")
    return 0


cdef int _check_length(isize got, isize want, str name) except -1:
    if got != want:
        raise ValueError(f"{name} has {got} entries, not {want}")
    return 0


cdef bytearray _take(Buf* b):
    """The buffer's values as a bytearray of int64 (the buffer is freed, also when the copy fails)."""
    cdef bytearray out
    try:
        out = PyByteArray_FromStringAndSize(<char*>b.v, b.n * sizeof(int64_t)) if b.n else bytearray()
    finally:
        _release(b)
    return out


cdef isize _find(const uint8_t* d, isize n, isize pos, uint8_t c) noexcept nogil:
    """First index >= pos of byte ``c``, else -1."""
    if pos >= n:
        return -1
    cdef const uint8_t* hit = <const uint8_t*>memchr(d + pos, c, n - pos)
    return -1 if hit == NULL else hit - d


cdef isize _find_comment_end(const uint8_t* d, isize n, isize pos) noexcept nogil:
    """End (exclusive) of the first "-->" at or after pos, else -1."""
    cdef isize i = pos
    while True:
        i = _find(d, n, i, 0x3E)  # ">"
        if i < 0:
            return -1
        if i - 2 >= pos and d[i - 1] == 0x2D and d[i - 2] == 0x2D:
            return i + 1
        i += 1


cdef isize _end_tag_at(const uint8_t* d, isize n, isize i, const char* name, isize k) noexcept nogil:
    """At ``d[i] == "<"``: the end (exclusive) of a ``</name>`` end tag as lines._PROTECTED_CLOSE
    matches it (``</name`` then ``>``, or whitespace or "/" and anything up to ``>``); -2 if no
    such tag starts here, -1 if one does but no ">" follows (then no later one can close either)."""
    cdef isize j, gt
    if not (i + 1 < n and d[i + 1] == 0x2F and _ieq(d + i + 2, n - i - 2, name, k)):
        return -2
    j = i + 2 + k
    if j < n and d[j] == 0x3E:
        return j + 1
    if j < n and (_space(d[j]) or d[j] == 0x2F):
        gt = _find(d, n, j + 1, 0x3E)
        return -1 if gt < 0 else gt + 1
    return -2


cdef isize _find_end_tag(const uint8_t* d, isize n, isize pos, const char* name, isize k) noexcept nogil:
    """End (exclusive) of the first ``</name>`` at or after pos (:func:`_end_tag_at`), else -1."""
    cdef isize i = pos, end
    while True:
        i = _find(d, n, i, 0x3C)  # "<"
        if i < 0:
            return -1
        end = _end_tag_at(d, n, i, name, k)
        if end != -2:
            return end
        i += 1


cdef inline bint _script_name_end(const uint8_t* d, isize n, isize j) noexcept nogil:
    """Byte ``j`` (after a "script" tag name) is whitespace, "/" or ">"."""
    return j < n and (_space(d[j]) or d[j] == 0x2F or d[j] == 0x3E)


cdef isize _find_script_end(const uint8_t* d, isize n, isize pos) noexcept nogil:
    """Twin of ``lines._script_end``: end (exclusive) of the script's end tag at or after pos,
    read through escaped (after "<!--") and double escaped (after "<!--" and "<script") script
    data as the tokenizer reads it; -1 if none."""
    cdef isize i = pos, end
    cdef int state = 0  # 0 script data, 1 escaped, 2 double escaped
    while i < n:
        if state == 0:  # only a "<" can change anything: memchr to it
            i = _find(d, n, i, 0x3C)
            if i < 0:
                return -1
        if d[i] == 0x3C:  # "<"
            end = _end_tag_at(d, n, i, "script", 6) if state != 2 else -2
            if end != -2:
                return end
            if state == 0 and i + 3 < n and d[i + 1] == 0x21 and d[i + 2] == 0x2D and d[i + 3] == 0x2D:
                state = 1
                i += 2  # "<!-->" is escaped and ended at once: its dashes count for "-->"
                continue
            elif state == 1 and _ieq(d + i + 1, n - i - 1, "script", 6) and _script_name_end(d, n, i + 7):
                state = 2
                i += 8
                continue
            elif (state == 2 and i + 1 < n and d[i + 1] == 0x2F and _ieq(d + i + 2, n - i - 2, "script", 6)
                  and _script_name_end(d, n, i + 8)):
                state = 1
                i += 9
                continue
        elif d[i] == 0x2D and state != 0 and i + 2 < n and d[i + 1] == 0x2D and d[i + 2] == 0x3E:  # "-->"
            state = 0
            i += 3
            continue
        i += 1
    return -1


cdef isize _find_head_end(const uint8_t* d, isize n, isize pos) noexcept nogil:
    """Twin of ``lines._head_end``: end (exclusive) of the head's ``</head>`` at or after pos,
    scripts, styles and comments inside the head skipped whole; -1 if none (or one of those is
    unclosed)."""
    cdef isize i = pos, end, close
    while True:
        i = _find(d, n, i, 0x3C)  # "<"
        if i < 0:
            return -1
        close = -2  # not an opening of a body
        end = _end_tag_at(d, n, i, "head", 4)
        if end != -2:  # -1: no ">" after this point, so no body opened later can close either
            return end
        if i + 3 < n and d[i + 1] == 0x21 and d[i + 2] == 0x2D and d[i + 3] == 0x2D:
            close = _find_comment_end(d, n, i + 4)
        elif _ieq(d + i + 1, n - i - 1, "script", 6) and (i + 7 >= n or not _word(d[i + 7])):
            close = _find_script_end(d, n, i + 7)
        elif _ieq(d + i + 1, n - i - 1, "style", 5) and (i + 6 >= n or not _word(d[i + 6])):
            close = _find_end_tag(d, n, i + 6, "style", 5)
        if close == -1:
            return -1
        i = close if close >= 0 else i + 1


def protected_spans(const uint8_t[::1] data not None):
    """Twin of :func:`lines.protected_spans`: flat int64 [start0, end0, start1, end1, ...]."""
    cdef const uint8_t* d = &data[0] if data.shape[0] else NULL
    cdef isize n = data.shape[0]
    cdef Buf spans = Buf(NULL, 0, 0)
    # Openings whose closing is nowhere after the scan position (0: comment, 1 head, 2 script,
    # 3 style, 4 template, 5 textarea).
    cdef bint unclosed[6]
    unclosed[0] = unclosed[1] = unclosed[2] = unclosed[3] = unclosed[4] = unclosed[5] = False
    try:
        _spans_into(d, n, &spans, unclosed)
        return _take(&spans)
    finally:  # on MemoryError: the buffer, if not taken
        _release(&spans)


cdef int _spans_into(const uint8_t* d, isize n, Buf* spans_buf, bint* unclosed) except -1:
    """The scan of :func:`protected_spans`, its spans pushed to ``spans_buf``."""
    cdef isize pos = 0, lt, end, close, kind
    with nogil:
        while pos < n:
            lt = _find(d, n, pos, 0x3C)
            if lt < 0:
                break
            kind = -1
            if lt + 3 < n and d[lt + 1] == 0x21 and d[lt + 2] == 0x2D and d[lt + 3] == 0x2D:
                kind = 0
            elif _ieq(d + lt + 1, n - lt - 1, "head", 4) and (lt + 5 >= n or not _word(d[lt + 5])):
                kind = 1
            elif _ieq(d + lt + 1, n - lt - 1, "script", 6) and (lt + 7 >= n or not _word(d[lt + 7])):
                kind = 2
            elif _ieq(d + lt + 1, n - lt - 1, "style", 5) and (lt + 6 >= n or not _word(d[lt + 6])):
                kind = 3
            elif _ieq(d + lt + 1, n - lt - 1, "template", 8) and (lt + 9 >= n or not _word(d[lt + 9])):
                kind = 4
            elif _ieq(d + lt + 1, n - lt - 1, "textarea", 8) and (lt + 9 >= n or not _word(d[lt + 9])):
                kind = 5
            if kind < 0:
                pos = lt + 1
                continue
            close = -1
            if not unclosed[kind]:
                if kind == 0:
                    close = _find_comment_end(d, n, lt + 4)
                elif kind == 1:
                    close = _find_head_end(d, n, lt + 5)
                elif kind == 2:
                    close = _find_script_end(d, n, lt + 7)
                elif kind == 3:
                    close = _find_end_tag(d, n, lt + 6, "style", 5)
                elif kind == 4:
                    close = _find_end_tag(d, n, lt + 9, "template", 8)
                else:
                    close = _find_end_tag(d, n, lt + 9, "textarea", 8)
                if close < 0:
                    unclosed[kind] = True
            if close < 0 and kind == 1:
                end = _find(d, n, lt + 5, 0x3E)  # no </head>: only the tag is protected
                end = n if end < 0 else end + 1
            else:
                end = close if close >= 0 else n
            _push(spans_buf, lt)
            _push(spans_buf, end)
            pos = end
    return 0


# Byte classes of the tokenizer's attribute states (a lookup table: one load per byte).
cdef enum:
    C_SPACE = 1  # \s of a bytes regex: space, \t \n \v \f \r
    C_SLASH = 2
    C_GT = 4
    C_EQ = 8
    C_QUOTE = 16
cdef uint8_t _CLASS[256]
memset(_CLASS, 0, 256)
for _b in (0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D):
    _CLASS[_b] = C_SPACE
_CLASS[0x2F] = C_SLASH
_CLASS[0x3E] = C_GT
_CLASS[0x3D] = C_EQ
_CLASS[0x22] = _CLASS[0x27] = C_QUOTE


cdef isize _tag_end(const uint8_t* d, isize n, isize lt) noexcept nogil:
    """Twin of :func:`lines.tag_end`: the ">" ending the tag at ``lt`` (``n - 1`` if none), a
    ">" inside a quoted attribute value ending nothing."""
    cdef isize pos = lt + 1, i
    if d[pos] == 0x21 or (d[pos] == 0x2F and (pos + 1 >= n or not _alpha(d[pos + 1]))):
        i = _find(d, n, pos, 0x3E)  # "<!…>", "</" + non-letter: bogus comments
        return n - 1 if i < 0 else i
    if d[pos] == 0x2F:
        pos += 1
    while pos < n and not (_CLASS[d[pos]] & (C_SPACE | C_SLASH | C_GT)):  # the tag name
        pos += 1
    while True:
        while pos < n and (_CLASS[d[pos]] & (C_SPACE | C_SLASH)):
            pos += 1
        if pos >= n:
            return n - 1
        if d[pos] == 0x3E:
            return pos
        pos += 1  # an attribute name: its first byte may be "=", the others not
        while pos < n and not (_CLASS[d[pos]] & (C_SPACE | C_SLASH | C_GT | C_EQ)):
            pos += 1
        while pos < n and (_CLASS[d[pos]] & C_SPACE):
            pos += 1
        if pos < n and d[pos] == 0x3D:
            pos += 1
            while pos < n and (_CLASS[d[pos]] & C_SPACE):
                pos += 1
            if pos >= n:
                return n - 1
            if _CLASS[d[pos]] & C_QUOTE:
                i = _find(d, n, pos + 1, d[pos])
                if i < 0:
                    return n - 1
                pos = i + 1
            else:
                while pos < n and not (_CLASS[d[pos]] & (C_SPACE | C_GT)):
                    pos += 1


cdef uint64_t _name_key(const uint8_t* d, isize n, isize start) noexcept nogil:
    """lines._tag_name_keys for one tag: its first 8 name bytes lower-cased, little-endian."""
    cdef isize first = start + 1 + (d[start + 1 if start + 1 < n else n - 1] == 0x2F)
    cdef uint64_t key = 0
    cdef bint alive = True
    cdef uint8_t col
    cdef isize j, at
    for j in range(8):
        at = first + j
        if at > n - 1:
            at = n - 1
        col = d[at] | 0x20
        alive = alive and ((0x61 <= col <= 0x7A) or (0x30 <= col <= 0x39))
        if alive:
            key |= (<uint64_t>col) << (8 * j)
    return key


cdef bint _in_keys(uint64_t key, const uint64_t[::1] keys) noexcept nogil:
    cdef isize lo = 0, hi = keys.shape[0], mid
    while lo < hi:  # keys are sorted
        mid = (lo + hi) // 2
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo < keys.shape[0] and keys[lo] == key


cdef inline isize _next_mark(const uint8_t* mark, isize i, isize n) noexcept nogil:
    """The first i' >= i below n with the line-start bit set, else n (eight bytes at a time
    over the runs of zeros: most of the page is no line start)."""
    cdef uint64_t word
    while i + 8 <= n:
        memcpy(&word, mark + i, 8)
        if word & 0x0101010101010101ULL:
            break
        i += 8
    while i < n and not (mark[i] & 1):
        i += 1
    return i


def segment(const uint8_t[::1] data not None, const int64_t[::1] spans not None, bint block,
            const uint64_t[::1] block_keys not None, bint merge_blank):
    """Twin of :func:`lines.segment_lines` after ``protected_spans``: (starts, tag_starts, tag_ends),
    int64 bytearrays.  ``spans`` is the flat output of :func:`protected_spans`."""
    cdef isize n = data.shape[0]
    cdef const uint8_t* d = &data[0] if n else NULL
    cdef isize nspans = spans.shape[0] // 2
    if spans.shape[0] % 2:
        raise ValueError(f"spans has an odd number of offsets ({spans.shape[0]}): [start, end] pairs")
    _check_offsets(spans, 0, n, "spans")
    cdef Buf tag_starts = Buf(NULL, 0, 0), tag_ends = Buf(NULL, 0, 0), starts = Buf(NULL, 0, 0)
    cdef isize i, s, lt, prev_end = -1, end, k, line, nxt
    cdef bint first_candidate = True, solid
    cdef uint8_t c
    # Per position 0..n: 1 = a line starts here, 2 = a protected span starts or ends here.
    cdef uint8_t* mark = <uint8_t*>malloc(n + 1)
    if mark == NULL:
        raise MemoryError()
    try:
        with nogil:
            memset(mark, 0, n + 1)
            # Tag openings outside protected bodies; a "<" before the end of the last tag
            # (lines.tag_end) is inside an attribute value and opens nothing.
            s = 0
            lt = _find(d, n, 0, 0x3C)
            while lt >= 0:
                if lt + 1 >= n:
                    break
                c = d[lt + 1]
                if _alpha(c) or c == 0x2F or c == 0x21:
                    while s < nspans and spans[2 * s + 1] <= lt:
                        s += 1
                    if not (s < nspans and spans[2 * s] <= lt):
                        if first_candidate or lt > prev_end:
                            end = _tag_end(d, n, lt)
                            _push(&tag_starts, lt)
                            _push(&tag_ends, end)
                            if not block or _in_keys(_name_key(d, n, lt), block_keys):
                                mark[lt] |= 1
                            prev_end = end
                        first_candidate = False
                lt = _find(d, n, lt + 1, 0x3C)
            mark[0] |= 1
            mark[n] |= 1
            i = _find(d, n, 0, 0x0A)
            while i >= 0:
                mark[i + 1] |= 1
                i = _find(d, n, i + 1, 0x0A)
            for k in range(2 * nspans):
                mark[spans[k]] |= 3
            # Line starts; whitespace-only lines merged into the line before them.
            line = 0
            while line < n:
                nxt = _next_mark(mark, line + 1, n)
                if merge_blank and line > 0 and not (mark[line] & 2):
                    solid = False
                    for i in range(line, nxt):
                        if d[i] > 0x20:
                            solid = True
                            break
                    if not solid:
                        line = nxt
                        continue
                _push(&starts, line)
                line = nxt
        return _take(&starts), _take(&tag_starts), _take(&tag_ends)
    finally:  # on MemoryError (a push or a copy failed): the buffers not taken yet
        free(mark)
        _release(&starts)
        _release(&tag_starts)
        _release(&tag_ends)


def inside(const int64_t[::1] positions not None, const int64_t[::1] spans not None):
    """Twin of ``lines._inside``: uint8 flags of sorted ``positions`` inside the flat ``spans``."""
    cdef isize m = positions.shape[0], nspans = spans.shape[0] // 2, i, s = 0
    cdef bytearray out = bytearray(m)
    cdef uint8_t* o = <uint8_t*>(<char*>out) if m else NULL
    with nogil:
        for i in range(m):
            while s < nspans and spans[2 * s + 1] <= positions[i]:
                s += 1
            o[i] = s < nspans and spans[2 * s] <= positions[i]
    return out


cdef inline void _count(const uint8_t* d, isize a, isize b, uint8_t lead, int32_t* asc, int32_t* oth) noexcept nogil:
    """Visible ASCII (0x21-0x7E) and bytes >= ``lead`` in ``d[a:b]`` (a loop the compiler vectorises)."""
    cdef int32_t n_asc = 0, n_oth = 0
    cdef isize i
    cdef uint8_t c
    for i in range(a, b):
        c = d[i]
        n_asc += (<uint8_t>(c - 0x21)) < 0x5E
        n_oth += c >= lead
    asc[0] += n_asc
    oth[0] += n_oth


def count_lines(const uint8_t[::1] data not None, const int64_t[::1] starts not None,
                const int64_t[::1] tag_starts not None, const int64_t[::1] tag_ends not None,
                uint8_t lead):
    """Per line, int32 counts of: content and code characters (``lines.count_content_code``
    before zeroing protected lines), visible ASCII and bytes >= ``lead`` (0xC0: characters,
    0x80: UTF-8 bytes).  A counted byte is visible ASCII or >= ``lead``, never both; it is code
    inside a tag (``tag_starts[t] <= b <= tag_ends[t]``; tags are sorted and disjoint)."""
    cdef isize n = data.shape[0], m = starts.shape[0], ntags = tag_starts.shape[0]
    cdef const uint8_t* d = &data[0] if n else NULL
    _check_offsets(starts, 0, n, "starts")
    _check_length(tag_ends.shape[0], ntags, "tag_ends")
    cdef bytearray content = bytearray(4 * m), code = bytearray(4 * m)
    cdef bytearray ascii = bytearray(4 * m), other = bytearray(4 * m)
    cdef int32_t* co = <int32_t*>(<char*>content) if m else NULL
    cdef int32_t* cd = <int32_t*>(<char*>code) if m else NULL
    cdef int32_t* asc = <int32_t*>(<char*>ascii) if m else NULL
    cdef int32_t* oth = <int32_t*>(<char*>other) if m else NULL
    cdef isize line, pos, stop, a, b, t = 0
    cdef int32_t in_asc, in_oth, out_asc, out_oth
    with nogil:
        for line in range(m):
            pos = starts[line]
            stop = starts[line + 1] if line + 1 < m else n
            in_asc = in_oth = out_asc = out_oth = 0
            while pos < stop:
                while t < ntags and tag_ends[t] < pos:
                    t += 1
                if t < ntags and tag_starts[t] <= pos:  # inside tag t up to its end
                    b = tag_ends[t] + 1
                    if b > stop:
                        b = stop
                    _count(d, pos, b, lead, &in_asc, &in_oth)
                else:  # text up to the next tag
                    b = tag_starts[t] if t < ntags and tag_starts[t] < stop else stop
                    _count(d, pos, b, lead, &out_asc, &out_oth)
                pos = b
            co[line] = out_asc + out_oth
            cd[line] = in_asc + in_oth
            asc[line] = in_asc + out_asc
            oth[line] = in_oth + out_oth
    return content, code, ascii, other


cdef inline uint8_t _at(const uint8_t* d, isize n, isize i) noexcept nogil:
    return d[i] if i < n else 0


def count_r2l(const uint8_t[::1] data not None, const int64_t[::1] starts not None, bint hebrew, bint whole):
    """Twin of ``lines.count_r2l`` before zeroing protected lines: int32 R2L characters per line
    (their lead bytes), or with ``whole`` all their UTF-8 bytes."""
    cdef isize n = data.shape[0], m = starts.shape[0]
    cdef const uint8_t* d = &data[0] if n else NULL
    _check_offsets(starts, 0, n, "starts")
    cdef bytearray out = bytearray(4 * m)
    cdef int32_t* o = <int32_t*>(<char*>out) if m else NULL
    cdef isize line, b, stop, carry = 0
    cdef int32_t count
    cdef uint8_t c, b1, b2
    cdef bint lead
    with nogil:
        for line in range(m):
            stop = starts[line + 1] if line + 1 < m else n
            count = 0
            for b in range(starts[line], stop):
                c = d[b]
                b1 = _at(d, n, b + 1)
                b2 = _at(d, n, b + 2)
                lead = (0xD8 <= c <= 0xDB) or (c == 0xDD and b1 >= 0x90)
                lead = lead or (c == 0xE0 and ((b1 == 0xA1 and b2 >= 0xB0) or b1 == 0xA2 or b1 == 0xA3))
                lead = lead or (c == 0xEF and ((b1 == 0xAD and b2 >= 0x90) or (0xAE <= b1 <= 0xB7)))
                lead = lead or (c == 0xEF and ((b1 == 0xB9 and b2 >= 0xB0) or b1 == 0xBA or (b1 == 0xBB and b2 != 0xBF)))
                lead = lead or (c == 0xE2 and b1 == 0x80 and b2 == 0x8C)
                if hebrew:
                    lead = lead or (c == 0xD6 and b1 >= 0x90) or c == 0xD7
                    lead = lead or (c == 0xEF and ((b1 == 0xAC and b2 >= 0x9D) or (b1 == 0xAD and b2 < 0x90)))
                if whole:
                    # The lead and its continuation bytes (0x80-0xBF; 1 after a lead below 0xE0, 2
                    # after a 0xE0-0xEF lead): a cut sequence ends at the first other byte, so no
                    # count runs past a line start ("<", or after "\n") into the next line.
                    if lead:
                        count += 1
                        carry = 2 if c >= 0xE0 else 1
                    elif carry and 0x80 <= c <= 0xBF:
                        count += 1
                        carry -= 1
                    else:
                        carry = 0
                else:
                    count += lead
            o[line] = count
    return out


def tag_keys(const uint8_t[::1] data not None, const int64_t[::1] tag_starts not None):
    """Twin of :func:`lines.tag_keys`: (uint64 name keys, uint8 closing flags) per tag."""
    cdef isize n = data.shape[0], m = tag_starts.shape[0], i, s
    cdef bytearray keys = bytearray(8 * m), closing = bytearray(m)
    cdef uint64_t* k = <uint64_t*>(<char*>keys) if m else NULL
    cdef uint8_t* cl = <uint8_t*>(<char*>closing) if m else NULL
    cdef const uint8_t* d = &data[0] if n else NULL
    _check_offsets(tag_starts, 0, n - 1, "tag_starts")  # a tag starts at a "<" inside the page
    with nogil:
        for i in range(m):
            s = tag_starts[i]
            k[i] = _name_key(d, n, s)
            cl[i] = d[s + 1 if s + 1 < n else n - 1] == 0x2F
    return keys, closing


cdef int32_t _container(int32_t box, isize t, uint64_t key, uint8_t closing, const uint64_t[::1] container_keys,
                        Buf* open_depth, Buf* open_idx) except? -1 nogil:
    """The container depth after tag ``t``; an opening is recorded with the depth after it."""
    if not _in_keys(key, container_keys):
        return box
    if closing:
        return box - 1
    _push(open_depth, box + 1)
    _push(open_idx, t)
    return box + 1


def links_and_depth(const int64_t[::1] line_starts not None, const int64_t[::1] tag_starts not None,
                    const uint64_t[::1] keys not None, const uint8_t[::1] closing not None,
                    const int32_t[::1] content not None, uint64_t a_key,
                    const uint64_t[::1] block_end_keys not None, const uint64_t[::1] container_keys not None):
    """Twin of ``lines.link_chars`` and ``lines.container_depth``: per line its content
    characters inside a link and its container depth (int32), and per container opening its
    depth after it and its tag index (int32, int64)."""
    cdef isize m = line_starts.shape[0], ntags = tag_starts.shape[0]
    _check_length(keys.shape[0], ntags, "keys")
    _check_length(closing.shape[0], ntags, "closing")
    _check_length(content.shape[0], m, "content")
    cdef bytearray link = bytearray(4 * m), depth = bytearray(4 * m)
    cdef int32_t* lk = <int32_t*>(<char*>link) if m else NULL
    cdef int32_t* dp = <int32_t*>(<char*>depth) if m else NULL
    cdef Buf open_depth = Buf(NULL, 0, 0), open_idx = Buf(NULL, 0, 0)
    try:
        _links_into(line_starts, tag_starts, keys, closing, content, a_key, block_end_keys, container_keys,
                    lk, dp, &open_depth, &open_idx)
        return link, depth, _take(&open_depth), _take(&open_idx)
    finally:  # on MemoryError: the buffers not taken yet
        _release(&open_depth)
        _release(&open_idx)


cdef int _links_into(const int64_t[::1] line_starts, const int64_t[::1] tag_starts, const uint64_t[::1] keys,
                     const uint8_t[::1] closing, const int32_t[::1] content, uint64_t a_key,
                     const uint64_t[::1] block_end_keys, const uint64_t[::1] container_keys,
                     int32_t* lk, int32_t* dp, Buf* open_depth, Buf* open_idx) except -1:
    """The pass of :func:`links_and_depth` (its buffers pushed to ``open_depth``/``open_idx``)."""
    cdef isize m = line_starts.shape[0], ntags = tag_starts.shape[0], line, t = 0
    cdef int32_t box = 0
    cdef int in_link = 0  # the last <a>, </a> or closing block tag read is an opening <a>
    cdef uint64_t key
    with nogil:
        for line in range(m):
            while t < ntags and tag_starts[t] <= line_starts[line]:
                key = keys[t]
                if key == a_key:
                    in_link = not closing[t]
                elif closing[t] and _in_keys(key, block_end_keys):
                    in_link = 0
                box = _container(box, t, key, closing[t], container_keys, open_depth, open_idx)
                t += 1
            lk[line] = content[line] if in_link else 0
            dp[line] = box
        while t < ntags:  # container openings after the last line start
            box = _container(box, t, keys[t], closing[t], container_keys, open_depth, open_idx)
            t += 1
    return 0


def count_punctuation(const uint8_t[::1] data not None, const int64_t[::1] text_starts not None,
                      const int64_t[::1] text_ends not None):
    """Twin of ``lines.count_punctuation``: int32 sentence punctuation marks (ASCII . , ! ?;
    U+060C 061B 061F 06D4 0964 3002 FF0C FF01 FF1F) in each byte range."""
    cdef isize n = data.shape[0], m = text_starts.shape[0], row, b
    cdef const uint8_t* d = &data[0] if n else NULL
    _check_length(text_ends.shape[0], m, "text_ends")
    _check_offsets(text_starts, 0, n, "text_starts")
    _check_offsets(text_ends, 0, n, "text_ends")
    cdef bytearray out = bytearray(4 * m)
    cdef int32_t* o = <int32_t*>(<char*>out) if m else NULL
    cdef int32_t count
    cdef uint8_t c, b1, b2
    with nogil:
        for row in range(m):
            count = 0
            for b in range(text_starts[row], text_ends[row]):
                c = d[b]
                if c < 0x80:
                    count += c == 0x2E or c == 0x2C or c == 0x21 or c == 0x3F
                elif c == 0xD8 or c == 0xDB or c == 0xE0 or c == 0xE3 or c == 0xEF:
                    b1 = d[b + 1 if b + 1 < n else n - 1]
                    b2 = d[b + 2 if b + 2 < n else n - 1]
                    if c == 0xD8:
                        count += b1 == 0x8C or b1 == 0x9B or b1 == 0x9F
                    elif c == 0xDB:
                        count += b1 == 0x94
                    elif c == 0xE0:
                        count += b1 == 0xA5 and b2 == 0xA4
                    elif c == 0xE3:
                        count += b1 == 0x80 and b2 == 0x82
                    else:
                        count += b1 == 0xBC and (b2 == 0x8C or b2 == 0x81 or b2 == 0x9F)
            o[row] = count
    return out


cdef inline isize _upper_bound(const uint64_t[::1] a, uint64_t v) noexcept nogil:
    """The first index of the sorted ``a`` whose value is greater than ``v`` (numpy's searchsorted, right)."""
    cdef isize lo = 0, hi = a.shape[0], mid
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if a[mid] <= v:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef inline isize _lower_bound(const int32_t[::1] a, int64_t v) noexcept nogil:
    """The first index of the sorted ``a`` whose value is not less than ``v`` (searchsorted, left)."""
    cdef isize lo = 0, hi = a.shape[0], mid
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if a[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo


def enclosing_tags(const uint64_t[::1] opens not None, const int32_t[::1] tag_starts not None,
                   const int32_t[::1] tag_ends not None, int64_t top, int64_t at, int64_t limit):
    """``lines.enclosing_tags``: (start, end) of the opening tags around byte ``at`` at depth ``top``,
    innermost first, at most ``limit``; one binary search per depth."""
    cdef list out = []
    cdef int64_t d, stop = top - limit if top - limit > 0 else 0
    cdef uint64_t key, found
    cdef isize i, k
    if opens.shape[0] == 0:
        return out
    d = top
    while d > stop:
        key = (<uint64_t>d) << 32 | (<uint64_t>at & 0xFFFFFFFFFFFFFFFF)
        i = _upper_bound(opens, key) - 1
        if i >= 0 and (opens[i] >> 32) == <uint64_t>d:
            found = opens[i] & 0xFFFFFFFF
            k = _lower_bound(tag_starts, <int64_t>found)
            if k >= tag_starts.shape[0]:
                raise IndexError("enclosing_tags: an opening that is no tag start")
            out.append((<int64_t>found, <int64_t>tag_ends[k]))
        d -= 1
    return out


cdef isize _utf8_error_at(const uint8_t* d, isize n) noexcept nogil:
    """The first offset where ``d[:n]`` is not well-formed UTF-8, the start of the bad sequence as
    Python's strict codec reports it; -1 if there is none.  Unicode 15, Table 3-7: a lead byte
    C2-F4, then 1-3 continuation bytes 80-BF, the second one narrower after E0 and F0 (no overlong
    form), ED (no surrogate) and F4 (nothing past U+10FFFF).  ASCII runs are skipped 16 bytes at a time."""
    cdef isize i = 0, j, k
    cdef uint64_t lo, hi
    cdef uint8_t c, second
    while i < n:
        while i + 16 <= n:  # the markup of a page: mostly ASCII
            memcpy(&lo, d + i, 8)
            memcpy(&hi, d + i + 8, 8)
            if (lo | hi) & 0x8080808080808080ULL:
                break
            i += 16
        if i >= n:
            break
        c = d[i]
        if c < 0x80:
            i += 1
            continue
        if c < 0xC2 or c > 0xF4:  # a continuation byte without a lead, an overlong pair, past U+10FFFF
            return i
        k = 1 if c < 0xE0 else (2 if c < 0xF0 else 3)  # continuation bytes
        if i + k >= n:
            return i
        second = d[i + 1]
        if second < (0xA0 if c == 0xE0 else (0x90 if c == 0xF0 else 0x80)):
            return i
        if second > (0x9F if c == 0xED else (0x8F if c == 0xF4 else 0xBF)):
            return i
        for j in range(2, k + 1):
            if (d[i + j] & 0xC0) != 0x80:
                return i
        i += k + 1
    return -1


ctypedef isize (*OffsetScan)(const uint8_t* d, isize n) noexcept nogil


cdef isize _scan_for(const uint8_t[::1] data, OffsetScan scan):
    """``scan`` over the bytes of ``data`` without the GIL: the offset it finds, or -1 (none in no bytes)."""
    cdef isize n = data.shape[0], at
    if n == 0:
        return -1
    with nogil:
        at = scan(&data[0], n)
    return at


def utf8_error_at(const uint8_t[::1] data not None):
    """Twin of :func:`lines.utf8_error_at`: where ``data`` stops being UTF-8, or -1."""
    return _scan_for(data, _utf8_error_at)


cdef isize _title_meta_at(const uint8_t* d, isize n) noexcept nogil:
    """The first ``<meta`` (any case, then a non-word byte) whose bytes up to its next ``>`` hold
    ``og:title`` or ``twitter:title`` (any case), or -1.  A ``<meta`` between that one and its ``>``
    shares the ``>`` and holds a part of the same bytes, so the scan goes on after the ``>``."""
    cdef isize i = 0, s, a, end, c
    cdef const void* hit
    while i < n:
        hit = memchr(d + i, 0x3C, n - i)  # '<'
        if hit == NULL:
            return -1
        s = <const uint8_t*>hit - d
        if not (_ieq(d + s + 1, n - s - 1, b"meta", 4) and (s + 5 == n or not _word(d[s + 5]))):
            i = s + 1
            continue
        a = s + 5
        hit = memchr(d + a, 0x3E, n - a)  # '>'
        end = <const uint8_t*>hit - d if hit != NULL else n
        c = a
        while c < end:
            hit = memchr(d + c, 0x3A, end - c)  # ':' of "og:title" / "twitter:title"
            if hit == NULL:
                break
            c = <const uint8_t*>hit - d
            if _ieq(d + c + 1, end - c - 1, b"title", 5) and (
                    (c - 2 >= a and _ieq(d + c - 2, 2, b"og", 2))
                    or (c - 7 >= a and _ieq(d + c - 7, 7, b"twitter", 7))):
                return s
            c += 1
        i = end + 1
    return -1


def title_meta_at(const uint8_t[::1] data not None):
    """Twin of :func:`lines.title_meta_at`: the first ``<meta`` that can be an og:title or
    twitter:title tag, or -1."""
    return _scan_for(data, _title_meta_at)
