"""One small exception hierarchy; the boundaries (pipeline, CLI) turn these into statuses."""


class MceError(Exception):
    """Base class of every mcecrawl error."""


class DecodingError(MceError):
    """Bytes could not be turned into text."""


class ExtractionError(MceError):
    """The main content could not be extracted."""
