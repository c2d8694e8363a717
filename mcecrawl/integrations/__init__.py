"""Adapters that run mcecrawl inside other engines (each imports its engine lazily)."""
