"""Bodies past their bound in a real crawl, counted with a reason while the crawl goes on: an article
streamed without ``Content-Length`` (so the download handler only learns its size as it grows) past
``DOWNLOAD_MAXSIZE``, and a gzipped sitemap that inflates past the sitemap bound (a bomb served as
``.xml.gz``, undone by the spider, not by HTTP Content-Encoding)."""
from __future__ import annotations

import gzip
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from mcecrawl.demo.crawl import read_jsonl, run_crawl, stats_from_log
from mcecrawl.spiders.discovery import MAX_SITEMAP_BYTES
from synthetic_site import HOST, SyntheticSite

PARAS = ["وزارت امور خارجه ایران روز دوشنبه اعلام کرد که مذاکرات هفته آینده در وین ادامه خواهد یافت و "
         "سخنگوی این وزارتخانه گفت که طرف‌های مقابل باید با اراده سیاسی لازم شرکت کنند."] * 4
N_ARTICLES = 6
STREAMED = 2  # the article streamed without Content-Length
MAXSIZE = 2 * 2**20  # DOWNLOAD_MAXSIZE of the test crawl: a small limit, a quick test
CHUNK = 64 * 1024


def _sitemap_bomb() -> bytes:
    """A gzipped urlset inflating to just past MAX_SITEMAP_BYTES (~50 KB compressed)."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    head = f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://{HOST}/news/0</loc></url>'
    parts = [c.compress(head.encode())]
    filler = b"<!--" + b" " * (2**20 - 7) + b"-->"
    parts += [c.compress(filler) for _ in range(MAX_SITEMAP_BYTES // len(filler) + 2)]
    return b"".join(parts) + c.compress(b"</urlset>") + c.flush()


class BoundsSite(SyntheticSite):
    def sitemap_index(self) -> bytes:
        index = super().sitemap_index().decode()
        extra = f"<sitemap><loc>https://{HOST}/sitemap-bomb.xml.gz</loc></sitemap>\n"
        return index.replace("</sitemapindex>", extra + "</sitemapindex>").encode()


def _serve(site: BoundsSite, bomb: bytes):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # the body ends when the connection closes: no Content-Length

        def do_GET(self):  # noqa: N802 (http.server API)
            path, _, query = self.path.partition("?")
            if path == f"/news/{STREAMED}":
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                try:
                    self.wfile.write(b"<html><body>")
                    for _ in range(2 * MAXSIZE // CHUNK):
                        self.wfile.write(b"<p>" + b"x" * (CHUNK - 7) + b"</p>\n")
                except OSError:  # the crawler hangs up at its limit
                    pass
                return
            if path == "/sitemap-bomb.xml.gz":
                status, headers, body = 200, {"Content-Type": "application/x-gzip"}, bomb
            else:
                status, headers, body = site.resolver(path, query)
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def test_unbounded_body_and_sitemap_bomb_are_counted_and_the_crawl_goes_on(tmp_path):
    bomb = _sitemap_bomb()
    assert len(bomb) < 2**20 and len(gzip.decompress(bomb)) > MAX_SITEMAP_BYTES
    site = BoundsSite(N_ARTICLES, PARAS, size_kb=(4, 8), per_sitemap=100, per_listing=50)
    profile = site.write_profile(tmp_path / "bounds.json")
    out = tmp_path / "out.jsonl"
    httpd = _serve(site, bomb)
    try:
        host, port = httpd.server_address[:2]
        proc = run_crawl("profile", base_url=f"http://{host}:{port}", args={"profile": str(profile)}, output=out,
                         cwd=tmp_path, timeout=240,
                         settings={"MCE_EXTRACTION_WORKERS": "0", "DOWNLOAD_MAXSIZE": str(MAXSIZE),
                                   "MCE_DEDUP_DB": str(tmp_path / "dedup.sqlite")})
    finally:
        httpd.shutdown()
        httpd.server_close()
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    stats = stats_from_log(log)
    assert int(stats.get("mcecrawl/dropped/too_large", 0)) == 1, stats
    assert int(stats.get("mcecrawl/discovery/sitemap_too_large", 0)) == 1, stats
    assert "[too_large]" in log and f"news/{STREAMED}" in log
    written = {int(r["canonical_url"].rsplit("/", 1)[1]) for r in read_jsonl(out) if r["status"] == "ok"}
    assert written == set(range(N_ARTICLES)) - {STREAMED}
