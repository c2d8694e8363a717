"""The base of every exception mcecrawl defines: ``except MceError`` catches all of them.

Each one is raised where its module's work fails, and also subclasses the builtin its callers
caught before it had this base (``ValueError``, ``LookupError``, ``RuntimeError``), so those
``except`` clauses keep working.  Scrapy's own control-flow exceptions (``NotConfigured``,
``DropItem``, ``IgnoreRequest``, ``CloseSpider``) are Scrapy's API and stay what they are.

=================================================  =================================================
``mcecrawl.algorithms.common.ParamError``          unknown algorithm parameter or bad value (ValueError)
``mcecrawl.evaluation.runner.UnknownAlgorithm``    neither an algorithm nor an installed peer (LookupError)
``mcecrawl.evaluation.plot.NoLineProfile``         an extraction without a line profile to draw (ValueError)
``mcecrawl.extraction.pool.WorkerDied``            an extraction worker process ended (RuntimeError)
``mcecrawl.search.documents.SearchIndexError``     a search index or corpus cannot be read or written
``mcecrawl.search.push.PushError``                 the search cluster refused or could not be reached
``mcecrawl.commands.tune.TuneError``               a usage problem of ``mcecrawl tune``
``mcecrawl.archives.reader.InflateError``          a Content-Encoding that cannot be undone (ValueError)
``mcecrawl.spiders.discovery.SitemapTooLarge``     a gzipped sitemap inflating past its bound (ValueError)
=================================================  =================================================

``tests/test_exceptions.py`` checks that every exception class in the package derives from
:class:`MceError`.
"""


class MceError(Exception):
    """Base class of every mcecrawl error."""
