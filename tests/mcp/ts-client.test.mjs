// Scripted sessions of the official MCP TypeScript SDK client against the
// product search MCP servers: POST /api/mcp over Streamable HTTP (at
// protocol 2025-11-25, the SDK's own, and 2025-06-18) and the stdio server
// (cmd/mcp-stdio) spawned as a subprocess. Run by scripts/test-mcp.sh,
// which starts the API and sets:
//   MCP_URL                  http://127.0.0.1:<port>/api/mcp
//   MCP_STDIO_BIN            path of the built mcp-stdio binary
//   PRODUCT_SEARCH_BASE_URL  the REST API the stdio server calls
//   PRODUCT_SEARCH_API_KEY   its key
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set; run the tests with scripts/test-mcp.sh`);
  return v;
};

// A fetch that makes the client offer protocol 2025-06-18 in initialize,
// as a client of that revision does; the server answers with it and the
// SDK then sends MCP-Protocol-Version: 2025-06-18 on every request.
function fetchOffering(version) {
  return async (url, init) => {
    if (init?.body && typeof init.body === 'string') {
      const msg = JSON.parse(init.body);
      if (msg.method === 'initialize') {
        msg.params.protocolVersion = version;
        init = { ...init, body: JSON.stringify(msg) };
      }
    }
    return fetch(url, init);
  };
}

const sessions = [
  {
    name: 'streamable HTTP, protocol 2025-11-25',
    version: '2025-11-25',
    transport: () => new StreamableHTTPClientTransport(new URL(env('MCP_URL'))),
  },
  {
    name: 'streamable HTTP, protocol 2025-06-18',
    version: '2025-06-18',
    transport: () => new StreamableHTTPClientTransport(new URL(env('MCP_URL')), { fetch: fetchOffering('2025-06-18') }),
  },
  {
    name: 'stdio (cmd/mcp-stdio over the REST API)',
    version: '2025-11-25',
    transport: () => new StdioClientTransport({
      command: env('MCP_STDIO_BIN'),
      env: {
        PATH: process.env.PATH ?? '',
        PRODUCT_SEARCH_BASE_URL: env('PRODUCT_SEARCH_BASE_URL'),
        PRODUCT_SEARCH_API_KEY: env('PRODUCT_SEARCH_API_KEY'),
      },
      stderr: 'pipe',
    }),
  },
];

function textOf(result) {
  assert.equal(result.content.length, 1, 'one content block');
  assert.equal(result.content[0].type, 'text');
  return result.content[0].text;
}

// ok checks a successful tool result: text and structured content carry
// the same JSON, which conforms to the tool's output schema.
function ok(result, validate) {
  const text = textOf(result);
  assert.ok(!result.isError, `isError: ${text}`);
  assert.deepEqual(JSON.parse(text), result.structuredContent, 'text content equals structured content');
  assert.ok(validate(result.structuredContent), `output schema: ${JSON.stringify(validate.errors)}`);
  return result.structuredContent;
}

for (const s of sessions) {
  describe(s.name, () => {
    let client;
    let transport;
    const schemas = {};

    before(async () => {
      client = new Client({ name: 'productsearch-ts-client-test', version: '1.0.0' });
      transport = s.transport();
      await client.connect(transport);
    });

    after(async () => {
      await client?.close();
    });

    test('negotiates the protocol version', () => {
      if (transport.protocolVersion !== undefined) {
        assert.equal(transport.protocolVersion, s.version);
      }
      assert.equal(client.getServerVersion().name, 'productsearch');
    });

    test('lists the two tools with valid schemas and read-only annotations', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['get_product', 'search_products']);
      const ajv = new Ajv2020({ strict: true, allErrors: true });
      addFormats(ajv);
      for (const t of tools) {
        assert.ok(t.title, `${t.name} has a title`);
        assert.ok(t.description.length > 200, `${t.name} has a description`);
        assert.deepEqual(
          { readOnly: t.annotations.readOnlyHint, idempotent: t.annotations.idempotentHint, destructive: t.annotations.destructiveHint, openWorld: t.annotations.openWorldHint },
          { readOnly: true, idempotent: true, destructive: false, openWorld: false },
        );
        assert.equal(t.inputSchema.type, 'object');
        assert.equal(t.inputSchema.additionalProperties, false);
        schemas[t.name] = { input: ajv.compile(t.inputSchema), output: ajv.compile(t.outputSchema) };
      }
      const search = tools.find((t) => t.name === 'search_products');
      assert.equal(search.inputSchema.properties.category.enum.length, 19);
      assert.deepEqual(Object.keys(search.inputSchema.properties.constraints.properties).sort(),
        ['memory_gb', 'power_w', 'refresh_hz', 'resolution_p', 'screen_in', 'storage_gb', 'wifi_gen']);
      // The arguments used below conform to the advertised input schemas.
      for (const args of [{ category: 'Laptops', limit: 5 }, { category: 'Laptops', constraints: { memory_gb: { gte: 16 } }, limit: 100 }]) {
        assert.ok(schemas.search_products.input(args), JSON.stringify(schemas.search_products.input.errors));
      }
      assert.ok(!schemas.search_products.input({ category: 'Laptops', constraints: { ram: { gte: 16 } } }), 'ram is not in the schema');
      assert.ok(schemas.get_product.input({ product_id: 'x' }));
    });

    let first; // a product from the category search

    test('category search', async () => {
      const r = ok(await client.callTool({ name: 'search_products', arguments: { category: 'Laptops', limit: 5 } }), schemas.search_products.output);
      assert.ok(r.products.length > 0 && r.products.length <= 5, `got ${r.products.length} products`);
      assert.ok(r.total >= r.products.length);
      for (const p of r.products) {
        assert.equal(p.constraint_status, undefined, 'no constraint_status without constraints');
        assert.equal(p.offers, undefined, 'lite products by default');
      }
      assert.equal(r.constraints, undefined);
      assert.equal(r.unverified_total, undefined);
      first = r.products[0];
    });

    test('constraint search: statuses and counts', async () => {
      const r = ok(await client.callTool({
        name: 'search_products',
        arguments: { category: 'Laptops', constraints: { memory_gb: { gte: 16 } }, limit: 100 },
      }), schemas.search_products.output);
      assert.deepEqual(r.constraints, { memory_gb: { gte: 16 } });
      for (const k of ['total', 'unverified_total', 'excluded_by_constraints']) {
        assert.ok(Number.isInteger(r[k]) && r[k] >= 0, `${k} = ${r[k]}`);
      }
      const statuses = r.products.map((p) => p.constraint_status.memory_gb);
      for (const st of statuses) assert.ok(st === 'matched' || st === 'unverified', st);
      const matched = statuses.filter((st) => st === 'matched').length;
      assert.deepEqual(statuses.slice(0, matched), Array(matched).fill('matched'), 'matched products come first');
      if (r.products.length < 100) {
        assert.equal(matched, r.total, 'every match is on the page');
        assert.equal(r.products.length - matched, r.unverified_total, 'every unverified product is on the page');
      }
      assert.ok(r.total > 0, 'the catalog has laptops with at least 16 GB RAM');
      for (const p of r.products) {
        const a = p.attributes?.memory_gb;
        if (p.constraint_status.memory_gb === 'matched') {
          const values = a.status === 'conflicting' ? a.values.map((v) => v.value) : [a.value];
          for (const v of values) assert.ok(v >= 16, `${p.id}: matched with memory_gb ${v}`);
        } else if (a) {
          assert.equal(a.status, 'conflicting', `${p.id}: unverified with a stated value must be conflicting`);
        }
      }
    });

    test('invalid constraint gives an error result with the API message', async () => {
      const res = await client.callTool({ name: 'search_products', arguments: { category: 'Laptops', constraints: { ram: { gte: 16 } } } });
      assert.equal(res.isError, true);
      const text = textOf(res);
      assert.match(text, /unknown constraint name "ram"/);
      assert.match(text, /memory_gb, storage_gb, screen_in, resolution_p, refresh_hz, power_w, wifi_gen/);
    });

    let offerID;

    test('get_product by canonical id', async () => {
      const p = ok(await client.callTool({ name: 'get_product', arguments: { product_id: first.id } }), schemas.get_product.output);
      assert.equal(p.id, first.id);
      assert.ok(p.offers.length >= 1);
      assert.equal(p.offer_count, p.offers.length);
      const prices = p.offers.map((o) => o.price);
      assert.deepEqual(prices, [...prices].sort((a, b) => a - b), 'offers cheapest first');
      assert.equal(p.price, prices[0]);
      assert.equal(typeof p.attributes, 'object');
      offerID = p.offers[p.offers.length - 1].id;
    });

    test('get_product by retailer offer id', async () => {
      const p = ok(await client.callTool({ name: 'get_product', arguments: { product_id: offerID } }), schemas.get_product.output);
      assert.equal(p.id, first.id);
      assert.ok(p.offers.some((o) => o.id === offerID));
    });

    test('unknown product', async () => {
      const res = await client.callTool({ name: 'get_product', arguments: { product_id: 'no-such-product-42' } });
      assert.equal(res.isError, true);
      assert.match(textOf(res), /^Product not found: no-such-product-42\. .*search_products/);
    });

    test('unknown tool is a JSON-RPC invalid-params error', async () => {
      await assert.rejects(client.callTool({ name: 'search', arguments: {} }), (err) => {
        assert.ok(err instanceof McpError, String(err));
        assert.equal(err.code, -32602);
        assert.match(err.message, /unknown tool "search"/);
        return true;
      });
    });
  });
}
