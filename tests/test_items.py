"""The item and its JSON Schema agree."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcecrawl.items import ITEM_STATUSES, SCHEMA_VERSION, ArticleItem

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "mcecrawl" / "schema" / "item.schema.json")
                    .read_text("utf-8"))


def test_every_required_schema_field_is_an_item_field():
    assert set(SCHEMA["required"]) <= set(ArticleItem.fields)
    assert "html" not in SCHEMA["properties"], "html is internal and never written"


def test_schema_version_and_statuses_match():
    assert SCHEMA["properties"]["schema_version"]["const"] == SCHEMA_VERSION
    assert tuple(SCHEMA["properties"]["status"]["enum"]) == ITEM_STATUSES


def test_schema_rejects_a_record_without_status():
    jsonschema = pytest.importorskip("jsonschema")
    record = {k: None for k in SCHEMA["required"]}
    record.pop("status")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(record, SCHEMA)


def test_schema_page_types_match_the_extraction():
    from mcecrawl.algorithms.result import PAGE_TYPES

    assert tuple(SCHEMA["properties"]["page_type"]["enum"]) == (*PAGE_TYPES, None)
    assert {"page_type", "page_type_reason"} <= set(SCHEMA["required"])
