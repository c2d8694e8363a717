# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of py3langid's feature walk (reference: ``py3langid.langid.visit_counts``).

:func:`visit_counts` takes the same arguments and gives the same counts, in the same order (the
order a feature is first met, as ``collections.Counter`` keeps it: the model's scores sum the
features in that order, and float sums depend on it).  One plain C loop over the text's bytes
through the model's DFA, counting the features met in a hash table of at most twice as many slots
as the model has states (its memory does not grow with the text).  Every table read is checked
against its table's length, so a model whose tables do not fit each other raises ``ValueError``
instead of reading past a buffer (py3langid's own walk would raise ``IndexError``).
"""
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from cpython.dict cimport PyDict_SetItem

ctypedef Py_ssize_t isize


def visit_counts(const uint32_t[::1] nm, const int64_t[::1] rowbase, const int64_t[::1] out,
                 const unsigned char[::1] text):
    """``{feature: count}`` of the model's features met walking ``text`` (UTF-8 bytes) through the
    DFA ``nm`` (next state at ``rowbase[state] + byte``; ``out[state]``: the feature a state emits,
    or -1), in the order first met; None when none is met."""
    cdef isize n = text.shape[0], n_nm = nm.shape[0], n_states = rowbase.shape[0]
    cdef isize i, slot, size = 16, mask, distinct = 0
    cdef int64_t state = 0, at, feature
    cdef bint broken = False
    cdef int64_t* keys
    cdef isize* counts
    cdef isize* order
    if n == 0:
        return None
    if n_states == 0 or out.shape[0] < n_states:
        raise ValueError("py3langid model: its output table does not cover its states")
    while size < 2 * min(n, n_states):  # at most one distinct feature per byte and per state
        size <<= 1
    mask = size - 1
    keys = <int64_t*>malloc(size * sizeof(int64_t))
    counts = <isize*>malloc(size * sizeof(isize))
    order = <isize*>malloc(size * sizeof(isize))
    if keys == NULL or counts == NULL or order == NULL:
        free(keys); free(counts); free(order)
        raise MemoryError()
    try:
        with nogil:
            for i in range(size):
                keys[i] = -1
            for i in range(n):
                at = rowbase[state] + text[i]
                if at < 0 or at >= n_nm or nm[at] >= <uint64_t>n_states:
                    broken = True
                    break
                state = nm[at]
                feature = out[state]
                if feature < 0:
                    continue
                slot = <isize>((<uint64_t>feature * 0x9E3779B97F4A7C15ULL) >> 32) & mask
                while keys[slot] != -1 and keys[slot] != feature:  # linear probing; never full
                    slot = (slot + 1) & mask
                if keys[slot] == -1:
                    keys[slot] = feature
                    counts[slot] = 0
                    order[distinct] = slot
                    distinct += 1
                counts[slot] += 1
        if broken:
            raise ValueError("py3langid model: a transition leads outside its tables")
        if distinct == 0:
            return None
        visits = {}
        for i in range(distinct):
            slot = order[i]
            PyDict_SetItem(visits, keys[slot], counts[slot])
        return visits
    finally:
        free(keys); free(counts); free(order)
