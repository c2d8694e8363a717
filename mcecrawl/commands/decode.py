"""``mcecrawl decode FILE...``: how saved pages decode, and their UTF-8 text.

Runs :func:`mcecrawl.encoding.decode`, the function the crawl's encoding middleware uses, so
a page that comes out garbled can be checked offline (with the header the server sent as
``--content-type``) and a fix tried with ``--force``.  Prints one JSON line per file with the
provenance the crawl puts into items; ``--output-dir`` also writes each page re-encoded as
UTF-8 with its charset declarations rewritten (as the middleware serves it to spiders).
"""
from __future__ import annotations

HELP = "show how saved pages decode (encoding, deciding step, labels, replacements); optionally write them as UTF-8"


def add_arguments(parser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="saved page (raw bytes as served)")
    parser.add_argument("--content-type", default=None,
                        help='the HTTP Content-Type the server sent, e.g. "text/html; charset=utf-8"')
    parser.add_argument("--force", default=None, metavar="LABEL", help="decode with this charset, e.g. windows-1256")
    parser.add_argument("--output-dir", default=None, metavar="DIR", help="write each page as UTF-8 into DIR")


def run(args) -> int:
    import json
    import sys
    from pathlib import Path

    from mcecrawl.encoding import decode, resolve_label, rewrite_declarations

    if args.force and not resolve_label(args.force):
        print(f"mcecrawl decode: unknown charset label {args.force!r}", file=sys.stderr)
        return 2
    out_dir = Path(args.output_dir) if args.output_dir else None
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
    status = 0
    for name in args.files:
        path = Path(name)
        try:
            body = path.read_bytes()
        except OSError as e:
            print(json.dumps({"file": name, "error": str(e)}, ensure_ascii=False))
            status = 1
            continue
        d = decode(body, args.content_type, force=args.force)
        print(json.dumps({"file": name, "bytes": len(body), "encoding_original": d.encoding,
                          "encoding_source": d.source, "encoding_declared_header": d.declared_header,
                          "encoding_declared_meta": d.declared_meta, "encoding_replacements": d.replacements},
                         ensure_ascii=False))
        if out_dir:
            (out_dir / path.name).write_bytes(rewrite_declarations(d.text)[0].encode("utf-8"))
    return status
