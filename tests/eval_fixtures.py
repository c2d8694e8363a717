"""Helpers shared by the evaluation/command/gate tests: a tiny dataset and fake algorithms.

(Imported by name: pytest puts ``tests/`` on sys.path for the top-level conftest.)
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from mcecrawl.algorithms.result import Extraction, Region

# Five short Persian/Arabic/Hebrew/English paragraphs: the fake algorithms return a prefix of them.
PARAGRAPHS = {
    "fa": ["خبرگزاری‌ها امروز گزارش دادند", "دولت برنامه تازه‌ای اعلام کرد", "کارشناسان نسبت به آن هشدار دادند",
           "تبلیغات", "پیوندهای مرتبط"],
    "ar": ["قالت وكالات الأنباء اليوم", "أعلنت الحكومة خطة جديدة", "وحذر الخبراء من عواقبها", "إعلانات",
           "روابط ذات صلة"],
    "he": ["סוכנויות הידיעות דיווחו היום", "הממשלה הודיעה על תוכנית חדשה", "מומחים הזהירו", "פרסומות", "קישורים"],
    "en": ["News agencies reported today", "The government announced a new plan", "Experts warned about it",
           "Advertisement", "Related links"],
}
GOLD_PARAGRAPHS = 3  # the first three paragraphs are the main content


def page_html(lang: str) -> str:
    paras = "\n".join(f"<p>{p}</p>" for p in PARAGRAPHS[lang])
    return f"<html><head><title>t</title></head><body>\n<div>menu</div>\n{paras}\n</body></html>"


def make_dataset(root: Path, langs=("fa", "ar", "he", "en"), snippets: bool = True) -> Path:
    """A dataset in the ../shared/data format: one full-gold page per language (+ a snippet page)."""
    (root / "pages").mkdir(parents=True)
    (root / "gold").mkdir()
    rows = []
    for lang in langs:
        pid = f"page-{lang}"
        rows.append({"id": pid, "url": f"https://www.{lang}.example/{pid}", "lang": lang, "gold_kind": "full"})
        (root / "pages" / f"{pid}.html").write_text(page_html(lang), encoding="utf-8")
        (root / "gold" / f"{pid}.txt").write_text("\n".join(PARAGRAPHS[lang][:GOLD_PARAGRAPHS]), encoding="utf-8")
    if snippets:
        rows.append({"id": "snip-fa", "url": "https://www.fa.example/s", "lang": "fa", "gold_kind": "snippets",
                     "with": [PARAGRAPHS["fa"][0]], "without": [PARAGRAPHS["fa"][4]]})
        (root / "pages" / "snip-fa.html").write_text(page_html("fa"), encoding="utf-8")
    (root / "manifest.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                                         encoding="utf-8")
    return root


_P_RE = re.compile(r"<p>(.*?)</p>")


def first_paragraphs(text: str, P: int = 2, **_) -> Extraction:
    """Fake line algorithm: the first ``P`` paragraphs, with a per-line profile for plotting."""
    paras = _P_RE.findall(text)[:P]
    lines = text.split("\n")
    content = tuple(float(sum(len(p) for p in _P_RE.findall(line))) for line in lines)
    code = tuple(float(len(line)) - c for line, c in zip(lines, content))
    hits = [i for i, c in enumerate(content) if c]
    region = Region(hits[0], hits[min(P, len(hits)) - 1], content, code,
                    tuple(c - k for c, k in zip(content, code))) if hits else None
    if not paras:
        return Extraction("", (), "first", {"P": P}, status="empty", reason="no paragraphs", region=region)
    return Extraction("\n".join(paras), tuple(paras), "first", {"P": P}, region=region)


def crashing(text: str, **_) -> Extraction:
    raise RuntimeError("boom")


def install_fake_algorithms(monkeypatch) -> dict:
    """Replace the algorithm registry by ``first`` (first P paragraphs) and ``crash``."""
    from mcecrawl import algorithms
    from mcecrawl.algorithms import ParamError

    def first(text, **params):
        unknown = set(params) - {"P"}
        if unknown:
            raise ParamError(f"first: unknown parameter(s) {', '.join(sorted(unknown))}")
        return first_paragraphs(text, **params)

    registry = {"first": first, "crash": crashing}
    monkeypatch.setattr(algorithms, "ALGORITHMS", registry)
    return registry


def run_command(name: str, *argv: str) -> int:
    """Parse ``argv`` with subcommand ``name``'s own arguments and run it (as ``mcecrawl NAME ...``)."""
    import argparse
    import importlib

    module = importlib.import_module(f"mcecrawl.commands.{name}")
    parser = argparse.ArgumentParser(prog=f"mcecrawl {name}")
    module.add_arguments(parser)
    return module.run(parser.parse_args([str(a) for a in argv]))
