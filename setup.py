"""Build of the optional compiled line profile (everything else is in pyproject.toml).

``mcecrawl/algorithms/_lineprofile.pyx`` is compiled with Cython when Cython and a C compiler are
there; the extension is ``optional``: where it cannot be built the package still installs and runs
the numpy reference (``mcecrawl --version`` says which one is in use).  A ``setup.py`` because the
machines' setuptools (65.x) predates ``ext-modules`` in ``pyproject.toml``.
"""
from setuptools import Extension, setup

try:
    from Cython.Build import cythonize
except ImportError:  # no Cython: the reference path only
    ext_modules = []
else:
    ext_modules = cythonize(
        [Extension("mcecrawl.algorithms._lineprofile", ["mcecrawl/algorithms/_lineprofile.pyx"], optional=True)],
        compiler_directives={"language_level": "3"},
    )
    for ext in ext_modules:  # cythonize copies most attributes, not always `optional`
        ext.optional = True

setup(ext_modules=ext_modules)
