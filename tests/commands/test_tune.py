"""``mcecrawl tune``: the HFF picks the best value by mean F1 and merges only the extraction key."""
from __future__ import annotations

import json

import pytest

from eval_fixtures import GOLD_PARAGRAPHS, install_fake_algorithms, make_dataset, run_command
from mcecrawl.commands.tune import choose, parse_range
from mcecrawl.evaluation.tuning import find_profiles, merge_extraction


@pytest.fixture
def fake_algorithms(monkeypatch):
    return install_fake_algorithms(monkeypatch)


def test_parse_range():
    assert parse_range("P=1..20") == ("P", list(range(1, 21)))
    assert parse_range("P=2..10:4") == ("P", [2, 6, 10])
    assert parse_range("w=0.5,1,x") == ("w", [0.5, 1, "x"])
    for bad in ("P", "P=", "P=5..1", "P=a..b"):
        with pytest.raises(Exception):
            parse_range(bad)


def test_choose_middle_of_best_plateau():
    assert choose([1, 2, 3, 4, 5], [0.1, 0.9, 0.5, 0.2, 0.1]) == 1
    assert choose([1, 2, 3, 4, 5, 6], [0.1, 0.9, 0.9, 0.9, 0.5, 0.9]) == 2  # longest run 2..4 -> 3
    assert choose([1, 2], [0.5, 0.5]) == 0


def test_tune_writes_profile_preserving_other_keys(tmp_path, fake_algorithms, capsys):
    root = make_dataset(tmp_path / "mini")
    profile = tmp_path / "fa_site.json"
    crawler_part = {"name": "fa_site", "site": "FA", "lang": "fa", "live_hosts": ["www.fa.example"],
                    "entry_points": {"feeds": ["https://www.fa.example/rss"]}, "articles": [{"pattern": "x"}]}
    profile.write_text(json.dumps({**crawler_part, "extraction": {"algorithm": "first", "params": {"keep": 1},
                                                                   "measured": "by hand"}}), encoding="utf-8")
    assert run_command("tune", root, "--site", "fa.example", "--algorithm", "first", "--param", "P=1..5",
                       "--profile", profile, "--json", tmp_path / "curve.json") == 0
    out = capsys.readouterr().out
    assert f"best P={GOLD_PARAGRAPHS}" in out
    data = json.loads(profile.read_text(encoding="utf-8"))
    assert {k: data[k] for k in crawler_part} == crawler_part  # the crawler's keys are untouched
    ext = data["extraction"]
    assert ext["algorithm"] == "first" and ext["params"] == {"keep": 1, "P": GOLD_PARAGRAPHS}
    assert ext["measured"].startswith(f"mcecrawl tune: P={GOLD_PARAGRAPHS} gives mean word-token LCS-F1 1.000")
    tuning = ext["tuning"]
    assert tuning["param"] == "P" and tuning["values"] == [1, 2, 3, 4, 5] and tuning["dataset"] == "mini"
    assert tuning["pages"] == 1  # the snippet page is not mixed with the full-gold one
    assert max(tuning["f1"]) == tuning["f1"][GOLD_PARAGRAPHS - 1] == 1.0
    assert json.loads((tmp_path / "curve.json").read_text())["best"] == GOLD_PARAGRAPHS


def test_tune_all_sites_dry_run_and_errors(tmp_path, fake_algorithms, capsys):
    root = make_dataset(tmp_path / "mini")
    assert run_command("tune", root, "--site", "*", "-a", "first", "--param", "P=1..4", "--dry-run") == 0
    assert "on 4 pages" in capsys.readouterr().out
    assert run_command("tune", root, "--site", "nowhere.example", "-a", "first", "--param", "P=1..3") == 2
    assert "sites: ar.example" in capsys.readouterr().err
    assert run_command("tune", root, "--site", "fa.example", "-a", "nope", "--param", "P=1..3") == 2
    assert run_command("tune", root, "--site", "fa.example", "-a", "first", "--param", "Q=1..3") == 2
    assert run_command("tune", root, "--site", "fa.example", "-a", "crash", "--param", "P=1..3") == 2
    # no matching bundled profile and no --profile: the curve is printed, nothing is written
    assert run_command("tune", root, "--site", "fa.example", "-a", "first", "--param", "P=1..3") == 0
    assert "nothing written" in capsys.readouterr().out


def test_find_profiles_and_merge(tmp_path):
    (tmp_path / "bbc_persian.json").write_text(json.dumps({"name": "bbc_persian", "live_hosts": ["www.bbc.com"]}))
    (tmp_path / "bbc_urdu.json").write_text(json.dumps({"name": "bbc_urdu", "live_hosts": ["www.bbc.com"]}))
    (tmp_path / "ahram.json").write_text(json.dumps({"name": "ahram", "live_hosts": ["gate.ahram.org.eg"]}))
    (tmp_path / "broken.json").write_text("{")
    assert find_profiles("ahram.org.eg", tmp_path) == []
    assert find_profiles("gate.ahram.org.eg", tmp_path) == [tmp_path / "ahram.json"]
    assert find_profiles("bbc.com", tmp_path) == [tmp_path / "bbc_persian.json", tmp_path / "bbc_urdu.json"]
    assert find_profiles("bbc_urdu", tmp_path) == [tmp_path / "bbc_urdu.json"]
    new = tmp_path / "sub" / "new.json"
    data = merge_extraction(new, "dana", {"P": 4}, {"param": "P"})
    assert json.loads(new.read_text()) == data == {"extraction": {"algorithm": "dana", "params": {"P": 4},
                                                                   "tuning": {"param": "P"}}}
    # another algorithm replaces the params instead of merging them
    data = merge_extraction(new, "r2l", {"P": 9}, {"param": "P"}, "note")
    assert data["extraction"]["params"] == {"P": 9} and data["extraction"]["measured"] == "note"


def test_merge_keeps_a_bundled_profile_byte_for_byte_outside_extraction(tmp_path):
    from mcecrawl.evaluation.tuning import PROFILES_DIR

    bundled = sorted(PROFILES_DIR.glob("*.json"))
    if not bundled:
        pytest.skip("no bundled profile yet")
    copy = tmp_path / bundled[0].name
    original = bundled[0].read_text(encoding="utf-8")
    copy.write_text(original, encoding="utf-8")
    merge_extraction(copy, "dana", {"P": 7}, {"param": "P"}, "tuned")
    before, after = json.loads(original), json.loads(copy.read_text(encoding="utf-8"))
    def unchanged(d):
        return {k: v for k, v in d.items() if k != "extraction"}
    assert unchanged(after) == unchanged(before)
    assert list(after) == list(before)  # key order kept
    unchanged = json.dumps({**before, "extraction": after["extraction"]}, ensure_ascii=False, indent=2) + "\n"
    assert copy.read_text(encoding="utf-8") == unchanged  # same formatting as the crawler's files
    from mcecrawl.profile import validate_profile

    validate_profile(after)  # still valid against the profile schema


def test_each_site_table(tmp_path, fake_algorithms, capsys):
    root = make_dataset(tmp_path / "mini")
    out = tmp_path / "sites.json"
    assert run_command("tune", root, "--each-site", "-a", "first", "--param", "P=1..5", "--json", out) == 0
    text = capsys.readouterr().out
    assert "fa.example" in text and "he.example" in text
    sites = json.loads(out.read_text(encoding="utf-8"))["sites"]
    assert {s["best"] for s in sites.values()} == {GOLD_PARAGRAPHS}
    assert sites["fa.example"]["pages"] == 1  # full gold preferred over the snippet page
    assert run_command("tune", root, "-a", "first", "--param", "P=1..5") == 2  # neither --site nor --each-site


def test_ambiguous_site_writes_nothing(tmp_path, fake_algorithms, capsys, monkeypatch):
    from mcecrawl.evaluation import tuning

    root = make_dataset(tmp_path / "mini")
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    for name in ("a", "b"):
        (profiles / f"{name}.json").write_text(json.dumps({"name": name, "live_hosts": ["www.fa.example"]}))
    monkeypatch.setattr(tuning, "PROFILES_DIR", profiles)
    monkeypatch.setattr(tuning.find_profiles, "__defaults__", (profiles,))
    assert run_command("tune", root, "--site", "fa.example", "-a", "first", "--param", "P=1..3") == 0
    assert "several bundled profiles match site 'fa.example' (a, b)" in capsys.readouterr().out
    assert all("extraction" not in json.loads(p.read_text()) for p in profiles.iterdir())


def test_installed_package_profiles_are_not_written_without_profile(tmp_path, fake_algorithms, capsys, monkeypatch):
    """As evaluate --update-baseline: outside a source checkout the bundled profiles are package
    files, so tune refuses (exit 2, nothing written) unless --profile PATH names where to write."""
    from mcecrawl.evaluation import gate, tuning

    root = make_dataset(tmp_path / "mini")
    profiles = tmp_path / "site-packages" / "mcecrawl" / "profiles"
    profiles.mkdir(parents=True)
    bundled = profiles / "fa_site.json"
    bundled.write_text(json.dumps({"name": "fa_site", "live_hosts": ["www.fa.example"]}), encoding="utf-8")
    before = bundled.read_bytes()
    monkeypatch.setattr(tuning, "PROFILES_DIR", profiles)
    monkeypatch.setattr(tuning.find_profiles, "__defaults__", (profiles,))
    monkeypatch.setattr(gate, "in_source_checkout", lambda: False)
    args = ("tune", root, "--site", "fa.example", "-a", "first", "--param", "P=1..3")
    assert run_command(*args) == 2
    err = capsys.readouterr().err
    assert "installed package's profiles" in err and "--profile PATH" in err
    assert bundled.read_bytes() == before
    assert run_command(*args, "--dry-run") == 0 and bundled.read_bytes() == before
    mine = tmp_path / "mine.json"
    assert run_command(*args, "--profile", mine) == 0
    assert json.loads(mine.read_text(encoding="utf-8"))["extraction"]["params"] == {"P": GOLD_PARAGRAPHS}
