"""WARCs the archive tests write themselves (warcio's writer), and real-looking R2L pages."""
from __future__ import annotations

import gzip
from io import BytesIO
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

PARAS_FA = ["وزارت امور خارجه ایران روز دوشنبه اعلام کرد که مذاکرات هسته\u200cای هفته آینده در وین ادامه خواهد یافت.",
            "سخنگوی این وزارتخانه گفت که طرف\u200cهای مقابل باید با اراده سیاسی لازم در گفت\u200cوگوها شرکت کنند.",
            "او افزود که ایران همواره به تعهدات خود پایبند بوده و اکنون نوبت کشورهای اروپایی است."]
PARAS_AR = ["أعلنت وزارة الصحة المصرية اليوم عن افتتاح مستشفى جديد في محافظة الجيزة لخدمة آلاف المواطنين.",
            "وقال المتحدث باسم الوزارة إن المستشفى يضم أقساما متخصصة في أمراض القلب والأطفال والطوارئ.",
            "وأضاف أن الحكومة تخطط لبناء عشرة مستشفيات أخرى خلال العامين المقبلين في مختلف المحافظات."]
PARAS_EN = ["The city council approved the new budget on Monday after a long debate about public transport.",
            "Officials said the plan would add bus lines and repair roads in the northern districts next year.",
            "Opponents argued that the spending was too high given the uncertain economic outlook for the region."]


def page(paras: list[str], title: str = "خبر", meta_charset: str | None = None, extra: str = "") -> str:
    head = f"<meta charset='{meta_charset}'>" if meta_charset else ""
    return (f"<html><head>{head}<title>{title}</title>"
            "<meta property='article:published_time' content='2023-11-06T08:00:00Z'></head><body><ul>"
            + "".join(f"<li><a href='/{i}'>{title} {i}</a></li>" for i in range(6)) + "</ul><div>"
            + "".join(f"<p>{p}</p>" for p in paras) + f"</div>{extra}<footer>(c)</footer></body></html>")


def response(writer: WARCWriter, url: str, body: bytes, *, status: str = "200 OK", ctype: str | None = "text/html",
             headers: list[tuple[str, str]] | None = None, date: str | None = None):
    hdrs = ([("Content-Type", ctype)] if ctype else []) + list(headers or [])
    rec = writer.create_warc_record(url, "response", payload=BytesIO(body),
                                    http_headers=StatusAndHeaders(status, hdrs, protocol="HTTP/1.1"),
                                    warc_headers_dict={"WARC-Date": date} if date else None)
    writer.write_record(rec)
    return rec.rec_headers.get_header("WARC-Record-ID")


def metadata(writer: WARCWriter, url: str, refers_to: str, body: bytes) -> None:
    """Common Crawl's metadata record after a response (charset-detected, languages-cld2)."""
    writer.write_record(writer.create_warc_record(url, "metadata", payload=BytesIO(body),
                                                  warc_content_type="application/warc-fields",
                                                  warc_headers_dict={"WARC-Concurrent-To": refers_to}))


def write_warc(path: Path, pages: list[tuple[str, bytes]], *, gzip_records: bool = True, ctype: str = "text/html"
               ) -> list[int]:
    """A WARC of HTML responses ``(url, body)``; returns each record's offset."""
    offsets = []
    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=gzip_records, warc_version="1.1")
        for url, body in pages:
            offsets.append(f.tell())
            response(writer, url, body, ctype=ctype)
    return offsets


def gzip_whole(path: Path, target: Path) -> None:
    """The same WARC as one gzip stream (whole-file gzip)."""
    target.write_bytes(gzip.compress(path.read_bytes()))


def variant(paras, tag):
    """``paras`` with a paragraph of random words only this ``tag`` has (no near-duplicate of the others)."""
    import random

    rnd = random.Random(str(tag))
    letters = "ابپتثجچحخدذرزژسشصطعغفقکگلمنوهی" if paras is PARAS_FA else "abcdefghijklmnopqrstuvwxyz"
    return [*paras, " ".join("".join(rnd.choice(letters) for _ in range(rnd.randint(3, 7))) for _ in range(80))]


def make_warcs(root: Path, n_files=3, per_file=6) -> list[Path]:
    """``root/crawl/w<k>.warc.gz``: per file ``per_file`` Persian and English pages and one copy of
    ``site0.ir/0`` (the duplicate across files)."""
    (root / "crawl").mkdir(parents=True, exist_ok=True)
    warcs = []
    for k in range(n_files):
        pages = []
        for i in range(per_file):
            pages.append((f"http://site{k}.ir/{i}", page(variant(PARAS_FA, f"{k}-{i}")).encode()))
            pages.append((f"http://site{k}.com/{i}", page(variant(PARAS_EN, f"{k}-{i}"), title="x").encode()))
        pages.append((f"http://copy{k}.ir/0", page(variant(PARAS_FA, "0-0")).encode()))  # a copy of site0.ir/0
        path = root / "crawl" / f"w{k}.warc.gz"
        write_warc(path, pages)
        warcs.append(path)
    return warcs


def kill_half_way(cmd: list[str], state: Path, total: int) -> dict[str, str]:
    """Start an archive command, SIGKILL it once ``state`` records 2 WARCs done, check it died half-way
    (2 <= done < ``total``); the environment it ran in is returned for the re-run."""
    import json
    import os
    import signal
    import subprocess
    import time

    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if state.is_file() and len(json.loads(state.read_text() or "{}").get("done", {})) >= 2:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = len(json.loads(state.read_text())["done"])
    assert 2 <= done < total, "the run was not killed half-way"
    return env

