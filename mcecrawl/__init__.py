"""mcecrawl: a Scrapy crawler and main-content extractor for right-to-left (R2L) news sites.

The algorithm core (:mod:`mcecrawl.algorithms`) is free of Scrapy::

    >>> import mcecrawl
    >>> result = mcecrawl.extract(html_bytes, algorithm="scored_regions")   # doctest: +SKIP
    >>> result.status, result.text                                  # doctest: +SKIP
"""
__version__ = "0.1.0"

from mcecrawl.algorithms import ALGORITHMS, extract  # noqa: E402
from mcecrawl.algorithms.result import Extraction, Region  # noqa: E402

__all__ = ["ALGORITHMS", "Extraction", "Region", "extract", "__version__"]
