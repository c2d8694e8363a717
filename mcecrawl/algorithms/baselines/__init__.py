"""The baselines of the seed papers' comparison tables, selectable as ``-a NAME`` (never the default).

The DANA slides (F1 table over ten R2L sites, MB/s table) and DANAg's Table 2 compare their
methods with these; each follows its original publication (docs/algorithms.md says where a
definition was vague and what was chosen).  One small module per family:

==========  ===========================  =========================================================
name        module                       method
==========  ===========================  =========================================================
plain       :mod:`.plain`                all the text of the page
bte         :mod:`.bte`                  Finn et al. 2001, as a maximum subarray
dsc         :mod:`.dsc`                  Pinto et al. 2002, document slope curve
fe, kfe     :mod:`.fe`                   Debnath et al. 2005, (K-)FeatureExtractor
lqf         :mod:`.lqf`                  link quota filter, ``q`` = 25/50/75
crunch      :mod:`.crunch`               Gupta et al. 2003
ccb, accb,  :mod:`.ccb`                  Gottron 2008, content code blurring (``K`` = 40, 18, 25)
tccb
density     :mod:`.density`              Arias Moreno et al. 2009
==========  ===========================  =========================================================
"""
from __future__ import annotations

# name -> module of mcecrawl.algorithms.baselines defining the function ``name``.
BASELINE_MODULES = {"plain": "plain", "bte": "bte", "dsc": "dsc", "fe": "fe", "kfe": "fe", "lqf": "lqf",
                    "crunch": "crunch", "ccb": "ccb", "accb": "ccb", "tccb": "ccb", "density": "density"}
BASELINE_NAMES = tuple(BASELINE_MODULES)

__all__ = ["BASELINE_MODULES", "BASELINE_NAMES"]
