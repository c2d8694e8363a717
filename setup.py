"""Build of the optional compiled modules (everything else is in pyproject.toml).

``mcecrawl/algorithms/_*.pyx`` and ``mcecrawl/corpus/_langid.pyx`` are compiled with Cython when
Cython and a C compiler are there; each extension is ``optional``: where it cannot be built the
package still installs and runs the reference (numpy and Python; py3langid's own walk), and
``mcecrawl --version`` says which one is in use.  A ``setup.py`` because the machines' setuptools
(65.x) predates ``ext-modules`` in ``pyproject.toml``.
"""
from setuptools import Extension, setup

EXTENSIONS = [
    # The line profile: plain C over the page's bytes, no dependency.
    ("mcecrawl.algorithms._lineprofile", "mcecrawl/algorithms/_lineprofile.pyx", False),
    # The cleaning walk: reads lxml's tree through lxml's public C API (its headers ship in lxml's wheel).
    ("mcecrawl.algorithms._cleaning", "mcecrawl/algorithms/_cleaning.pyx", True),
    # The page-type judgement's pass: plain C over the page's bytes, no dependency.
    ("mcecrawl.algorithms._pagescan", "mcecrawl/algorithms/_pagescan.pyx", False),
    # Language ID's feature walk (py3langid's DFA): plain C over the text's bytes, no dependency.
    ("mcecrawl.corpus._langid", "mcecrawl/corpus/_langid.pyx", False),
]


def extensions() -> list[Extension]:
    try:
        from Cython.Build import cythonize
    except ImportError:  # no Cython: the reference path only
        return []
    try:
        import lxml
        lxml_include = lxml.get_include()
    except ImportError:
        lxml_include = None
    wanted = [Extension(name, [source], optional=True, include_dirs=lxml_include if uses_lxml else [])
              for name, source, uses_lxml in EXTENSIONS if lxml_include or not uses_lxml]
    built = cythonize(wanted, compiler_directives={"language_level": "3"}, quiet=True)
    for ext in built:  # cythonize copies most attributes, not always `optional`
        ext.optional = True
    return built


setup(ext_modules=extensions())
