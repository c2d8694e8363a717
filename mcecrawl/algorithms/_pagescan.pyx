# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of the page-type judgement's pass (reference: :mod:`mcecrawl.algorithms.pagescan`).

:func:`scan` returns the fields of :class:`mcecrawl.algorithms.pagescan.PageScan`, in order, exactly
as the reference computes them with its regular expressions (the tests compare both on every dev
page and on a fuzz corpus).  Three plain C loops over the page's bytes: the structural tags with the
text after each, the runs of text, and the literal marks (found by a rare pair of bytes of each);
the class values and the class words are counted in C tables, with no Python object per tag.
Every read is bounded by the page's length by construction; the constants and the tag and word
lists are the reference's own, read at import.
"""
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport memchr, memcmp, memcpy

from mcecrawl.algorithms import pagescan as _reference

ctypedef Py_ssize_t isize

cdef extern from *:
    """
    /* The positions of a 16-byte block where one of the marks' first two bytes start: SSE2's byte
       compares (every x86-64 has them); elsewhere every position is a candidate, as the plain loop. */
    #if defined(__SSE2__)
    #include <emmintrin.h>
    static __m128i mce_firsts[16], mce_seconds[16];
    static int mce_pairs = 0;
    static void mce_set_pairs(const unsigned char* firsts, const unsigned char* seconds, int count) {
        for (int k = 0; k < count && k < 16; k++) {
            mce_firsts[k] = _mm_set1_epi8((char)firsts[k]);
            mce_seconds[k] = _mm_set1_epi8((char)seconds[k]);
        }
        mce_pairs = count < 16 ? count : 16;
    }
    static inline unsigned int mce_pair_starts(const unsigned char* p) {
        __m128i a = _mm_loadu_si128((const __m128i*)p), b = _mm_loadu_si128((const __m128i*)(p + 1));
        __m128i m = _mm_setzero_si128();
        for (int k = 0; k < mce_pairs; k++)
            m = _mm_or_si128(m, _mm_and_si128(_mm_cmpeq_epi8(a, mce_firsts[k]), _mm_cmpeq_epi8(b, mce_seconds[k])));
        return (unsigned int)_mm_movemask_epi8(m);
    }
    #else
    static void mce_set_pairs(const unsigned char* firsts, const unsigned char* seconds, int count) {
        (void)firsts; (void)seconds; (void)count;
    }
    static inline unsigned int mce_pair_starts(const unsigned char* p) {
        (void)p;
        return 0xFFFFu;
    }
    #endif
    static inline int mce_lowest_bit(unsigned int x) {
    #if defined(__GNUC__) || defined(__clang__)
        return __builtin_ctz(x);
    #else
        int k = 0;
        while (!(x & 1u)) { x >>= 1; k++; }
        return k;
    #endif
    }
    static inline int mce_lowest_bit64(unsigned long long x) {
    #if defined(__GNUC__) || defined(__clang__)
        return __builtin_ctzll(x);
    #else
        int k = 0;
        while (!(x & 1ull)) { x >>= 1; k++; }
        return k;
    #endif
    }
    """
    void mce_set_pairs(const uint8_t* firsts, const uint8_t* seconds, int count)
    unsigned int mce_pair_starts(const uint8_t* p) nogil
    int mce_lowest_bit(unsigned int x) nogil
    int mce_lowest_bit64(uint64_t x) nogil

cdef isize TEXT_AFTER = _reference.TEXT_AFTER
cdef int64_t LONG_PARAGRAPH = _reference.LONG_PARAGRAPH
cdef int64_t HEADLINE_MIN = _reference.HEADLINE_MIN
cdef int64_t HEADLINE_MAX = _reference.HEADLINE_MAX
cdef int64_t RUN_CHARS = _reference.RUN_CHARS
cdef int64_t RUN_GAP = _reference.RUN_GAP
cdef int64_t LONG_RUN = _reference.LONG_RUN
cdef int64_t TEMPLATE_REPEAT = _reference.TEMPLATE_REPEAT

# The tag names, as bytes kept alive here, and the indices the loop treats apart.
DEF MAX_TAGS = 64
DEF MAX_NAME = 16
cdef tuple _TAG_NAMES = tuple(t.encode("ascii") for t in _reference.TAGS)
cdef isize N_TAGS = len(_TAG_NAMES)
cdef const char* _tag_ptr[MAX_TAGS]
cdef isize _tag_len[MAX_TAGS]
cdef isize _i, _k
if N_TAGS > MAX_TAGS or max(len(t) for t in _TAG_NAMES) >= MAX_NAME:
    raise ImportError("pagescan.TAGS outgrew the compiled scan's tables; raise MAX_TAGS/MAX_NAME")
for _i in range(N_TAGS):
    _tag_ptr[_i] = _TAG_NAMES[_i]
    _tag_len[_i] = len(_TAG_NAMES[_i])
cdef uint64_t _tags_from[256]  # the tags whose name starts with a byte, as bits (in TAGS' order)
for _i in range(N_TAGS):
    _tags_from[<uint8_t>_tag_ptr[_i][0]] |= (<uint64_t>1) << _i
cdef int TAG_A = _reference.TAGS.index("a")
cdef int TAG_P = _reference.TAGS.index("p")
cdef int TAG_H2 = _reference.TAGS.index("h2")
cdef int TAG_H3 = _reference.TAGS.index("h3")
cdef int TAG_H4 = _reference.TAGS.index("h4")
cdef int TAG_PRE = _reference.TAGS.index("pre")
cdef int TAG_CODE = _reference.TAGS.index("code")

cdef tuple _WORD_BYTES = tuple(w.encode("ascii") for w in _reference.CLASS_WORDS)
cdef isize N_WORDS = len(_WORD_BYTES)
# The class words in an open-addressing table keyed by their FNV-1a hash: slot -> index in CLASS_WORDS, -1 empty.
DEF WORD_SLOTS = 512  # a power of two, at least twice the words
DEF MAX_WORDS = 256  # WORD_SLOTS / 2: the most words the table (and _class_counts' arrays) take
DEF MAX_WORD = 64  # no class word is this long; a longer token is none of them
cdef int _word_slot[WORD_SLOTS]
cdef const char* _word_ptr[WORD_SLOTS]  # each word's bytes (kept alive by _WORD_BYTES) and length
cdef isize _word_len[WORD_SLOTS]
if N_WORDS > MAX_WORDS or any(len(w) >= MAX_WORD or w != w.lower() or not w.isalpha() for w in _WORD_BYTES):
    raise ImportError("pagescan.CLASS_WORDS outgrew the compiled scan's word table (or holds a non-letter)")
for _i in range(WORD_SLOTS):
    _word_slot[_i] = -1
for _i in range(N_WORDS):
    _word_ptr[_i] = _WORD_BYTES[_i]
    _word_len[_i] = len(_WORD_BYTES[_i])


cdef inline uint8_t _lower(uint8_t c) noexcept nogil:
    """An ASCII letter in lower case; any other byte as it is (what ``bytes.lower`` does)."""
    return c | 0x20 if 0x41 <= c <= 0x5A else c


cdef inline uint64_t _fnv_lower(const uint8_t* v, isize size) noexcept nogil:
    """FNV-1a of ``size`` bytes with ASCII letters folded to lower case (a class word's key)."""
    cdef uint64_t h = 14695981039346656037ULL
    cdef isize k
    for k in range(size):
        h = (h ^ _lower(v[k])) * 1099511628211ULL
    return h


cdef inline uint64_t _hash(const uint8_t* v, isize size) noexcept nogil:
    """A hash of ``size`` bytes read eight at a time (a class value's key; values run to hundreds of bytes)."""
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL ^ <uint64_t>size
    cdef uint64_t w
    while size >= 8:
        memcpy(&w, v, 8)
        h = (h ^ w) * 0xFF51AFD7ED558CCDULL
        h ^= h >> 32
        v += 8
        size -= 8
    w = 0
    memcpy(&w, v, size)
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ULL
    return h ^ (h >> 29)


cdef bytes _w
for _i in range(N_WORDS):
    _w = _WORD_BYTES[_i]
    _k = _fnv_lower(<const uint8_t*><const char*>_w, len(_w)) & (WORD_SLOTS - 1)
    while _word_slot[_k] >= 0:
        _k = (_k + 1) & (WORD_SLOTS - 1)
    _word_slot[_k] = _i


cdef inline int _word_index(const uint8_t* v, isize size) noexcept nogil:
    """Index in CLASS_WORDS of the token ``v[:size]`` (ASCII letters, any case), -1 if it is none."""
    cdef isize k
    cdef int w
    if size >= MAX_WORD:
        return -1
    k = _fnv_lower(v, size) & (WORD_SLOTS - 1)
    while True:
        w = _word_slot[k]
        if w < 0:
            return -1
        if _word_len[w] == size and _same_lower(v, _word_ptr[w], size):
            return w
        k = (k + 1) & (WORD_SLOTS - 1)


cdef inline bint _same_lower(const uint8_t* v, const char* word, isize size) noexcept nogil:
    """Whether ``v[:size]`` with ASCII letters folded to lower case is ``word``."""
    cdef isize k
    for k in range(size):
        if _lower(v[k]) != <uint8_t>word[k]:
            return False
    return True


cdef tuple _BEFORE = tuple(c.encode("utf-8") for c in _reference.CURRENCY_BEFORE)
cdef tuple _AFTER = tuple(c.encode("utf-8") for c in _reference.CURRENCY_AFTER)
# The marks counted anywhere in the page: their bytes kept alive here, and the pair of bytes each is
# found by: the first of RARE_PAIRS it holds, else its first two bytes.  Any pair gives the same
# counts (every candidate is compared whole); a rare one makes few candidates.  Measured on the dev
# pages (wcxb_dev, r2l, scrapinghub_aeb, 452 MB): the marks' first two bytes ("da", "ar", "it", ...)
# occur 12.5 times per KB, these 1.2 times.
RARE_PAIRS = (b"Pu", b":p", b"<t", b"au", b"by", b"@t", b"mt", b"g:")
DEF MAX_MARKS = 16
# (the ANCHORS follow the MARKS in one table: every offset of each is what is kept)
cdef tuple _MARK_BYTES = tuple(m.encode("utf-8") for m in _reference.MARKS + _reference.ANCHORS)
cdef isize N_COUNTED = len(_reference.MARKS)
cdef isize N_MARKS = len(_MARK_BYTES)
cdef const char* _mark_ptr[MAX_MARKS]
cdef isize _mark_len[MAX_MARKS]
cdef isize _mark_off[MAX_MARKS]  # where a mark's pair sits in it
cdef uint16_t _pair_marks[65536]  # the marks found by each pair of bytes, as bits (one-byte marks: every pair it starts)
if N_MARKS > MAX_MARKS or any(len(m) == 0 for m in _MARK_BYTES):
    raise ImportError("pagescan.MARKS outgrew the compiled scan's table (or holds an empty mark)")
cdef bytes _m, _pair
for _i in range(N_MARKS):
    _m = _MARK_BYTES[_i]
    _mark_ptr[_i] = _m
    _mark_len[_i] = len(_m)
    _pair = next((r for r in RARE_PAIRS if r in _m), _m[:2])
    _mark_off[_i] = _m.index(_pair)
    if len(_pair) == 1:  # the table starts zeroed (a C global)
        for _k in range(256):
            _pair_marks[(_pair[0] << 8) | _k] |= 1 << _i
    else:
        _pair_marks[(_pair[0] << 8) | _pair[1]] |= 1 << _i
# The distinct pairs, for the 16-byte blocks (mce_pair_starts).
cdef uint8_t _pair_first[MAX_MARKS]
cdef uint8_t _pair_second[MAX_MARKS]
cdef int _n_pairs = 0
for _k in range(65536):
    if _pair_marks[_k] and _n_pairs < MAX_MARKS:
        _pair_first[_n_pairs], _pair_second[_n_pairs] = _k >> 8, _k & 0xFF
        _n_pairs += 1
cdef bint _blocks = all(len(_m) > 1 for _m in _MARK_BYTES)  # a mark of one byte: the plain loop only
mce_set_pairs(_pair_first, _pair_second, _n_pairs)
cdef bint _first_of_sign[256]  # 1 where a byte starts a currency sign written before the amount
for _m in _BEFORE:
    _first_of_sign[_m[0]] = 1
cdef bint _first_of_word[256]  # 1 where a byte starts a currency word written after the amount
for _m in _AFTER:
    _first_of_word[_m[0]] = 1


cdef inline bint _space(uint8_t c) noexcept nogil:
    # \s of a bytes regex, and what bytes.strip() strips: space, \t \n \v \f \r
    return c == 0x20 or (0x09 <= c <= 0x0D)


cdef inline bint _digit(uint8_t c) noexcept nogil:
    return 0x30 <= c <= 0x39


cdef inline bint _word(const uint8_t* s, isize n, isize i) noexcept nogil:
    # \w of a bytes regex at i ([A-Za-z0-9_]); outside the text: not a word byte
    if i < 0 or i >= n:
        return False
    cdef uint8_t c = s[i]
    return (0x41 <= c <= 0x5A) or (0x61 <= c <= 0x7A) or _digit(c) or c == 0x5F


cdef inline bint _delimiter(uint8_t c) noexcept nogil:
    # the lookahead after a tag name: (?=[\s>/])
    return _space(c) or c == 0x3E or c == 0x2F


cdef inline int64_t _chars(const uint8_t* s, isize start, isize end) noexcept nogil:
    cdef int64_t k = 0
    cdef isize i
    for i in range(start, end):
        k += (s[i] & 0xC0) != 0x80
    return k


cdef inline isize _starts_with(const uint8_t* s, isize n, isize i, bytes word):
    """Length of ``word`` when the text at ``i`` starts with it, else 0."""
    cdef isize k = len(word)
    if k == 0 or n - i < k or memcmp(s + i, <const char*>word, k) != 0:
        return 0
    return k


cdef isize _price_at(const uint8_t* s, isize n, isize i):
    """End of the reference's price pattern matched at ``i``, or -1 (alternatives in its order)."""
    cdef isize k, j, m
    cdef bytes c
    for c in (_BEFORE if _first_of_sign[s[i]] else ()):  # [sign]\s?\d
        k = _starts_with(s, n, i, c)
        if k:
            j = i + k
            if j + 1 < n and _space(s[j]) and _digit(s[j + 1]):
                return j + 2
            if j < n and _digit(s[j]):
                return j + 1
            break  # the signs share no prefix that would let another one match here
    if _digit(s[i]):  # \d\s?(word)\b, the space taken first
        for j in ((i + 2) if i + 1 < n and _space(s[i + 1]) else -1, i + 1):
            if j < 0 or j >= n or not _first_of_word[s[j]]:  # most digits: no currency word after them
                continue
            for c in _AFTER:
                k = _starts_with(s, n, j, c)
                if k:
                    m = j + k
                    if _word(s, n, m - 1) != _word(s, n, m):
                        return m
    return -1


cdef int64_t _prices(const uint8_t* s, isize start, isize end):
    """Non-overlapping matches of the price pattern in s[start:end], as ``findall`` counts them."""
    cdef int64_t count = 0
    cdef isize i = 0, m
    cdef const uint8_t* t = s + start
    cdef isize n = end - start
    while i < n:
        if not (_digit(t[i]) or _first_of_sign[t[i]]):  # no match can start here
            i += 1
            continue
        m = _price_at(t, n, i)
        if m > i:
            count += 1
            i = m
        else:
            i += 1
    return count


cdef int _tag_at(const uint8_t* s, isize n, isize i):
    """The index in TAGS of the tag opening at ``s[i] == '<'``, followed by a delimiter; -1 if none."""
    cdef isize j = i + 1, k
    while j < n and j - i - 1 < MAX_NAME and not _delimiter(s[j]):
        j += 1
    if j >= n or not _delimiter(s[j]):
        return -1
    k = j - i - 1
    cdef int t
    cdef uint64_t candidates = _tags_from[s[i + 1]]
    while candidates:
        t = mce_lowest_bit64(candidates)
        if _tag_len[t] == k and memcmp(s + i + 1, _tag_ptr[t], k) == 0:
            return t
        candidates &= candidates - 1
    return -1


cdef isize _class_value(const uint8_t* s, isize start, isize end, isize* value_end):
    """Start of the first ``class="...`` (or ``'``) value in s[start:end], its end in ``value_end``; -1 if none."""
    cdef isize k = start, v
    cdef const void* hit
    while k + 6 < end:
        hit = memchr(s + k, 0x63, end - 6 - k)  # the next 'c' that leaves room for 'lass="'
        if hit == NULL:
            return -1
        k = <const uint8_t*>hit - s
        if memcmp(s + k, b"class=", 6) == 0 and (s[k + 6] == 0x22 or s[k + 6] == 0x27):
            v = k + 7
            value_end[0] = v
            while value_end[0] < end and s[value_end[0]] != 0x22 and s[value_end[0]] != 0x27:
                value_end[0] += 1
            return v
        k += 1
    return -1


cdef uint8_t _NOTHING = 0


cdef struct ClassValue:
    isize start  # where the value is in the page
    isize size
    uint64_t hash
    int64_t count  # 0: an empty slot


cdef struct ClassValues:  # the page's distinct class values and how often each occurs (open addressing)
    ClassValue* slots
    isize capacity  # a power of two
    isize used


cdef bint _count_value(ClassValues* t, const uint8_t* s, isize start, isize size) noexcept nogil:
    """One more occurrence of the class value ``s[start:start + size]`` (compared as bytes, as the
    reference's Counter keys are); False when memory ran out."""
    cdef uint64_t h = _hash(s + start, size)
    cdef isize k, m
    cdef ClassValue* slot
    cdef ClassValue* old
    cdef isize old_capacity
    if (t.used + 1) * 2 > t.capacity:  # grow to keep the table at most half full
        old, old_capacity = t.slots, t.capacity
        t.capacity = old_capacity * 2 if old_capacity else 256
        t.slots = <ClassValue*>calloc(t.capacity, sizeof(ClassValue))
        if t.slots == NULL:
            t.slots, t.capacity = old, old_capacity
            return False
        for m in range(old_capacity):
            if old[m].count:
                k = old[m].hash & (t.capacity - 1)
                while t.slots[k].count:
                    k = (k + 1) & (t.capacity - 1)
                t.slots[k] = old[m]
        free(old)
    k = h & (t.capacity - 1)
    while True:
        slot = &t.slots[k]
        if not slot.count:
            slot.start, slot.size, slot.hash, slot.count = start, size, h, 1
            t.used += 1
            return True
        if slot.hash == h and slot.size == size and memcmp(s + slot.start, s + start, size) == 0:
            slot.count += 1
            return True
        k = (k + 1) & (t.capacity - 1)


def scan(const uint8_t[::1] body):
    """The fields of :class:`mcecrawl.algorithms.pagescan.PageScan` for ``body`` (bytes, or any
    contiguous buffer of bytes), as a tuple."""
    cdef isize n = body.shape[0]
    cdef const uint8_t* s = &body[0] if n else &_NOTHING
    cdef ClassValues values
    values.slots, values.capacity, values.used = NULL, 0, 0
    try:
        return _scan(s, n, &values)
    finally:
        free(values.slots)


cdef tuple _scan(const uint8_t* s, isize n, ClassValues* values):
    """:func:`scan` of the ``n`` bytes at ``s``, counting the class values in ``values``."""
    cdef int64_t tags[MAX_TAGS]
    cdef isize i = 0, j, gt, end, ts, te, vs, ve
    cdef int t, prev = -1
    cdef bint prev_empty = False
    cdef int64_t c, p_text = 0, long_p = 0, a_text = 0, headline_links = 0, short_links = 0
    cdef int64_t linked_headlines = 0, code_text = 0, prices = 0
    cdef const void* hit
    for t in range(N_TAGS):
        tags[t] = 0
    while i < n:
        hit = memchr(s + i, 0x3C, n - i)  # '<'
        if hit == NULL:
            break
        i = <const uint8_t*>hit - s
        t = _tag_at(s, n, i)
        if t < 0:
            i += 1
            continue
        j = i + 1 + _tag_len[t]
        hit = memchr(s + j, 0x3E, n - j)  # '>' ends the attributes; none left: no tag can close
        if hit == NULL:
            break
        gt = <const uint8_t*>hit - s
        end = gt + 1 + TEXT_AFTER if gt + 1 + TEXT_AFTER < n else n
        hit = memchr(s + gt + 1, 0x3C, end - gt - 1)
        if hit != NULL:
            end = <const uint8_t*>hit - s
        tags[t] += 1
        ts, te = gt + 1, end
        while ts < te and _space(s[ts]):
            ts += 1
        while te > ts and _space(s[te - 1]):
            te -= 1
        c = _chars(s, ts, te)
        if t == TAG_P:
            p_text += c
            long_p += c >= LONG_PARAGRAPH
        elif t == TAG_A:
            a_text += c
            if HEADLINE_MIN <= c <= HEADLINE_MAX:
                headline_links += 1
            elif 0 < c < HEADLINE_MIN:
                short_links += 1
            if (prev == TAG_H2 or prev == TAG_H3 or prev == TAG_H4) and prev_empty:
                linked_headlines += 1
        elif (t == TAG_H2 or t == TAG_H3 or t == TAG_H4) and prev == TAG_A and prev_empty:
            linked_headlines += 1
        elif t == TAG_PRE or t == TAG_CODE:
            code_text += c
        vs = _class_value(s, j, gt, &ve)
        if vs >= 0 and ve > vs:
            if not _count_value(values, s, vs, ve - vs):
                raise MemoryError("pagescan: no memory for the class values")
        if c:
            prices += _prices(s, gt + 1, end)
        prev, prev_empty = t, c == 0
        i = end
    class_words, top, fifth, repeated = _class_counts(s, values)
    runs = _runs(s, n) + _marks(s, n)
    return ((tuple([tags[t] for t in range(N_TAGS)]), p_text, long_p, a_text, headline_links, short_links,
             linked_headlines, code_text, prices, top, fifth, repeated, class_words) + runs)


cdef tuple _class_counts(const uint8_t* s, ClassValues* values):
    """Each class word's tags (words of a distinct value counted once, as often as the value
    occurs), and the most, the fifth most repeated value's count and the values repeated as templates."""
    cdef int64_t words[MAX_WORDS]  # N_WORDS at most, checked at import
    cdef int64_t seen[MAX_WORDS]
    cdef int64_t best[5]
    cdef isize k, a, b, slot, serial = 0
    cdef int w
    cdef int64_t count, repeated = 0, x
    cdef const uint8_t* v
    cdef isize m
    for k in range(N_WORDS):
        words[k] = 0
        seen[k] = -1
    for k in range(5):
        best[k] = 0
    for slot in range(values.capacity):
        count = values.slots[slot].count
        if not count:
            continue
        repeated += count >= TEMPLATE_REPEAT
        x = count
        for k in range(5):  # keep the five largest counts, in order
            if x > best[k]:
                x, best[k] = best[k], x
        v = s + values.slots[slot].start
        m = values.slots[slot].size
        serial += 1
        a = 0
        while a < m:  # the value's runs of ASCII letters, each looked up once in lower case
            if not _letter(v[a]):
                a += 1
                continue
            b = a
            while b < m and _letter(v[b]):
                b += 1
            w = _word_index(v + a, b - a)
            if w >= 0 and seen[w] != serial:
                seen[w] = serial
                words[w] += count
            a = b
    return tuple([words[k] for k in range(N_WORDS)]), best[0], best[4], repeated


cdef inline bint _letter(uint8_t c) noexcept nogil:
    return (0x41 <= c <= 0x5A) or (0x61 <= c <= 0x7A)


cdef tuple _runs(const uint8_t* s, isize n):
    """Runs of text (``>`` then RUN_CHARS bytes or more up to ``<``, at least RUN_CHARS characters,
    no ``{`` nor ``":``) and their regions."""
    cdef isize i = 0, q, e, size
    cdef const void* hit
    cdef int64_t runs = 0, long_runs = 0, run_chars = 0, longest = 0, best = 0, cur = 0, regions = 0
    cdef int64_t last_end = -RUN_GAP - 1, c
    while i < n:
        hit = memchr(s + i, 0x3E, n - i)  # '>'
        if hit == NULL:
            break
        q = <const uint8_t*>hit - s
        hit = memchr(s + q + 1, 0x3C, n - q - 1)
        e = <const uint8_t*>hit - s if hit != NULL else n
        size = e - q - 1
        if size < RUN_CHARS:
            i = q + 1
            continue
        i = e
        # a script's or a style's body: its braces, or a JSON key, found with memchr before any byte loop
        if memchr(s + q + 1, 0x7B, size) != NULL or _has_json_key(s, q + 1, e):
            continue
        c = _chars(s, q + 1, e)
        if c < RUN_CHARS:
            continue
        runs += 1
        long_runs += c >= LONG_RUN
        run_chars += c
        if c > longest:
            longest = c
        if q - last_end > RUN_GAP:
            regions += 1
            cur = 0
        cur += c
        if cur > best:
            best = cur
        last_end = q + size
    return runs, long_runs, run_chars, longest, best, regions


cdef inline bint _has_json_key(const uint8_t* s, isize start, isize end) noexcept nogil:
    """Whether s[start:end] holds ``":``."""
    cdef const void* hit
    cdef isize k = start
    while k < end - 1:
        hit = memchr(s + k, 0x22, end - 1 - k)  # a '"' with a byte after it in the span
        if hit == NULL:
            return False
        k = <const uint8_t*>hit - s
        if s[k + 1] == 0x3A:
            return True
        k += 1
    return False


cdef struct Offsets:  # a growing array of the offsets where an anchor is found
    int64_t* at
    isize size
    isize capacity


cdef inline bint _push(Offsets* o, int64_t offset) noexcept nogil:
    """Append ``offset``; False when memory ran out."""
    cdef int64_t* grown
    if o.size == o.capacity:
        grown = <int64_t*>realloc(o.at, (o.capacity * 2 + 16) * sizeof(int64_t))
        if grown == NULL:
            return False
        o.at, o.capacity = grown, o.capacity * 2 + 16
    o.at[o.size] = offset
    o.size += 1
    return True


cdef inline bint _mark_at(const uint8_t* s, isize n, isize i, int64_t* counts, isize* free_from,
                          Offsets* found_at) noexcept nogil:
    """Count the marks whose pair of bytes is at ``s[i]`` (not overlapping themselves, as ``bytes.count``)
    and note every offset of each anchor there.  A mark's pair sits at a fixed place in it, so each
    mark's starts come in order.  False when memory ran out."""
    cdef uint16_t found = _pair_marks[(<isize>s[i] << 8) | (s[i + 1] if i + 1 < n else 0)]
    cdef isize k, start
    while found:
        k = mce_lowest_bit(found)
        found &= found - 1
        start = i - _mark_off[k]
        if (start >= 0 and start >= free_from[k] and n - start >= _mark_len[k]
                and memcmp(s + start, _mark_ptr[k], _mark_len[k]) == 0):
            if k < N_COUNTED:
                counts[k] += 1
                free_from[k] = start + _mark_len[k]
            elif not _push(&found_at[k], start):
                return False
    return True


cdef tuple _marks(const uint8_t* s, isize n):
    """Occurrences of each of MARKS in s[:n], each counted as ``bytes.count`` does (not overlapping
    itself), and every offset of each of ANCHORS (overlapping ones too), in order."""
    cdef int64_t counts[MAX_MARKS]
    cdef isize free_from[MAX_MARKS]
    cdef Offsets found_at[MAX_MARKS]
    cdef isize i, k
    cdef unsigned int bits
    cdef bint ok = True
    for k in range(N_MARKS):
        counts[k] = free_from[k] = 0
        found_at[k].at, found_at[k].size, found_at[k].capacity = NULL, 0, 0
    try:
        i = 0
        if _blocks:  # 16 positions at a time: the few where a mark's pair of bytes starts are looked at
            while ok and i + 17 <= n:
                bits = mce_pair_starts(s + i)
                while ok and bits:
                    ok = _mark_at(s, n, i + mce_lowest_bit(bits), counts, free_from, found_at)
                    bits &= bits - 1
                i += 16
        while ok and i < n:
            ok = _mark_at(s, n, i, counts, free_from, found_at)
            i += 1
        if not ok:
            raise MemoryError("pagescan: no memory for the anchors' offsets")
        return (tuple([counts[k] for k in range(N_COUNTED)]),
                tuple([tuple([found_at[k].at[i] for i in range(found_at[k].size)]) for k in range(N_COUNTED, N_MARKS)]))
    finally:
        for k in range(N_MARKS):
            free(found_at[k].at)
