"""Scrapy settings for mcecrawl.

Grouped by component; each group starts with its enable flag.  Every MCE_* setting can be
overridden per spider (``custom_settings``), per site profile, or on the command line (``-s``).
"""
BOT_NAME = "mcecrawl"
SPIDER_MODULES = ["mcecrawl.spiders"]
NEWSPIDER_MODULE = "mcecrawl.spiders"

# --- Crawling: politeness and robustness (issue 5) ---

# --- Encoding normalisation (issue 4) ---

# --- Extraction pipeline and feeds (issue 5) ---

# --- Corpus quality: normalisation, language ID, dedup, dates, WARC (issue 6) ---

# --- Search index (issue 7) ---
