"""Scripted sessions of the official MCP Python SDK client (mcp on PyPI)
against POST /api/mcp over Streamable HTTP.

Each test runs once with the initialize handshake ("legacy": protocol
2025-11-25) and once with the SDK's default negotiation ("auto": it probes
server/discover and speaks the newest revision both sides support). Run by
scripts/test-mcp.sh, which starts the API and sets MCP_URL.
"""

import asyncio
import json
import os

import pytest
from jsonschema import Draft202012Validator, FormatChecker
from mcp import Client
from mcp.shared.exceptions import MCPError

MODES = ["legacy", "auto"]
ATTRIBUTES = ["memory_gb", "power_w", "refresh_hz", "resolution_p", "screen_in", "storage_gb", "wifi_gen"]


def mcp_url() -> str:
    url = os.environ.get("MCP_URL")
    if not url:
        pytest.fail("MCP_URL is not set; run the tests with scripts/test-mcp.sh")
    return url


def run(mode, scenario):
    """Runs scenario(client, tools) in a fresh client session."""

    async def main():
        async with Client(mcp_url(), mode=mode) as client:
            listed = await client.list_tools()
            tools = {t.name: t for t in listed.tools}
            return await scenario(client, tools)

    return asyncio.run(main())


def text_of(result) -> str:
    assert len(result.content) == 1, result.content
    assert result.content[0].type == "text"
    return result.content[0].text


def ok(result, tool) -> dict:
    """Checks a successful result: the text is the structured content, and
    both conform to the tool's advertised output schema."""
    text = text_of(result)
    assert not result.is_error, text
    assert json.loads(text) == result.structured_content
    validator = Draft202012Validator(tool.output_schema, format_checker=FormatChecker())
    errors = sorted(validator.iter_errors(result.structured_content), key=str)
    assert not errors, errors[:3]
    return result.structured_content


@pytest.mark.parametrize("mode", MODES)
def test_tools_and_schemas(mode):
    async def scenario(client, tools):
        assert sorted(tools) == ["get_product", "search_products"]
        for t in tools.values():
            Draft202012Validator.check_schema(t.input_schema)
            Draft202012Validator.check_schema(t.output_schema)
            assert t.title
            assert t.input_schema["additionalProperties"] is False
            a = t.annotations
            assert (a.read_only_hint, a.idempotent_hint, a.destructive_hint, a.open_world_hint) == (True, True, False, False)
        search = tools["search_products"].input_schema
        assert len(search["properties"]["category"]["enum"]) == 19
        assert sorted(search["properties"]["constraints"]["properties"]) == ATTRIBUTES
        validator = Draft202012Validator(search)
        assert validator.is_valid({"category": "Laptops", "constraints": {"memory_gb": {"gte": 16}}, "limit": 100})
        assert not validator.is_valid({"category": "Laptops", "constraints": {"ram": {"gte": 16}}})
        assert not validator.is_valid({"category": "Smartphones"})

    run(mode, scenario)


@pytest.mark.parametrize("mode", MODES)
def test_category_search(mode):
    async def scenario(client, tools):
        r = ok(await client.call_tool("search_products", {"category": "Laptops", "limit": 5}), tools["search_products"])
        assert 0 < len(r["products"]) <= 5
        assert r["total"] >= len(r["products"])
        assert "constraints" not in r and "unverified_total" not in r
        for p in r["products"]:
            assert "constraint_status" not in p
            assert "offers" not in p  # lite by default

    run(mode, scenario)


@pytest.mark.parametrize("mode", MODES)
def test_constraint_search(mode):
    async def scenario(client, tools):
        args = {"category": "Laptops", "constraints": {"memory_gb": {"gte": 16}}, "limit": 100}
        r = ok(await client.call_tool("search_products", args), tools["search_products"])
        assert r["constraints"] == {"memory_gb": {"gte": 16}}
        for k in ("total", "unverified_total", "excluded_by_constraints"):
            assert isinstance(r[k], int) and r[k] >= 0, (k, r[k])
        statuses = [p["constraint_status"]["memory_gb"] for p in r["products"]]
        assert set(statuses) <= {"matched", "unverified"}
        matched = statuses.count("matched")
        assert statuses[:matched] == ["matched"] * matched, "matched products come first"
        if len(r["products"]) < 100:
            assert matched == r["total"]
            assert len(r["products"]) - matched == r["unverified_total"]
        assert r["total"] > 0
        for p in r["products"]:
            a = p.get("attributes", {}).get("memory_gb")
            if p["constraint_status"]["memory_gb"] == "matched":
                values = [v["value"] for v in a["values"]] if a["status"] == "conflicting" else [a["value"]]
                assert all(v >= 16 for v in values), (p["id"], values)
            elif a is not None:
                assert a["status"] == "conflicting", p["id"]

    run(mode, scenario)


@pytest.mark.parametrize("mode", MODES)
def test_invalid_constraint(mode):
    async def scenario(client, tools):
        res = await client.call_tool("search_products", {"category": "Laptops", "constraints": {"ram": {"gte": 16}}})
        assert res.is_error
        text = text_of(res)
        assert 'unknown constraint name "ram"' in text
        assert "memory_gb, storage_gb, screen_in, resolution_p, refresh_hz, power_w, wifi_gen" in text

    run(mode, scenario)


@pytest.mark.parametrize("mode", MODES)
def test_get_product(mode):
    async def scenario(client, tools):
        found = ok(await client.call_tool("search_products", {"category": "Laptops", "limit": 1}), tools["search_products"])
        pid = found["products"][0]["id"]
        p = ok(await client.call_tool("get_product", {"product_id": pid}), tools["get_product"])
        assert p["id"] == pid
        prices = [o["price"] for o in p["offers"]]
        assert prices == sorted(prices) and p["price"] == prices[0]
        assert p["offer_count"] == len(p["offers"])
        offer_id = p["offers"][-1]["id"]
        by_offer = ok(await client.call_tool("get_product", {"product_id": offer_id}), tools["get_product"])
        assert by_offer["id"] == pid
        missing = await client.call_tool("get_product", {"product_id": "no-such-product-42"})
        assert missing.is_error
        assert text_of(missing).startswith("Product not found: no-such-product-42.")

    run(mode, scenario)


@pytest.mark.parametrize("mode", MODES)
def test_unknown_tool(mode):
    async def scenario(client, tools):
        with pytest.raises(MCPError) as exc:
            await client.call_tool("search", {})
        assert exc.value.code == -32602
        assert 'unknown tool "search"' in exc.value.message

    run(mode, scenario)
