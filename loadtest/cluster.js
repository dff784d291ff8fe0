// k6 load test of a deployed product search (any base URL: a NodePort, an
// Ingress, a port-forward): one mode per run, chosen by MODE.
//
//   k6 run -e BASE_URL=http://127.0.0.1:30080 -e API_KEY=... loadtest/cluster.js
//
// MODE      mix (default): lite and full searches over the query mix of
//           api.js, product detail and MCP tools/call (search_products,
//           get_product) in the proportions 50/15/20/15;
//           search, product or mcp: one kind only (for CPU per request);
//           limit: LIMIT_REQUESTS requests (default 200) with the public
//           key, one at a time, spread over new connections so that every
//           replica answers some; exactly LIMIT (default 50) must succeed
//           and the rest be refused with 429: the per-IP limit is shared.
// RATE      requests per second (constant arrival rate, default 20)
// DURATION  default 60s
// API_KEY   a key whose budget outlasts the run (mix, search, product, mcp)
// PUBLIC_KEY the shared public key (limit; default ps_public_demo_key)
// CLIENTS   simulated clients (default 0: none): each request carries an
//           X-Forwarded-For of one of CLIENTS addresses in 198.18.0.0/15, so
//           that behind a trusted proxy (TRUSTED_PROXIES) MCP calls, which
//           are charged to the client IP whatever the key, spread over
//           many budgets as real traffic does
// STRICT    1: no failed request at all is allowed (upgrades, pod loss)
// SUMMARY   path of the JSON summary to write
//
// Thresholds: fewer than 1% failed requests (none with STRICT=1), p95 under
// 500 ms for searches and product detail and 1 s for MCP calls.
import http from 'k6/http';
import { check, fail } from 'k6';
import { Counter } from 'k6/metrics';
import { MIX, searchURL } from './api.js';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:30080';
const KEY = __ENV.API_KEY || 'ps_public_demo_key';
const PUBLIC_KEY = __ENV.PUBLIC_KEY || 'ps_public_demo_key';
const MODE = __ENV.MODE || 'mix';
const RATE = parseInt(__ENV.RATE || '20', 10);
const DURATION = __ENV.DURATION || '60s';
const LIMIT = parseInt(__ENV.LIMIT || '50', 10);
const LIMIT_REQUESTS = parseInt(__ENV.LIMIT_REQUESTS || '200', 10);
const STRICT = __ENV.STRICT === '1';
const CLIENTS = parseInt(__ENV.CLIENTS || '0', 10);

const LITE = MIX.map((p) => searchURL(p, true, BASE));
const FULL = MIX.map((p) => searchURL(p, false, BASE));
const AUTH = { Authorization: `Bearer ${KEY}` };
const MCP_HEADERS = Object.assign({ 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, AUTH);

const allowed = new Counter('limit_allowed');
const refused = new Counter('limit_refused');

function loadOptions() {
  return {
    discardResponseBodies: true,
    summaryTrendStats: ['avg', 'med', 'p(95)', 'p(99)', 'max'],
    scenarios: {
      [MODE]: { executor: 'constant-arrival-rate', rate: RATE, timeUnit: '1s', duration: DURATION,
        preAllocatedVUs: 20, maxVUs: 200 },
    },
    thresholds: {
      http_req_failed: [STRICT ? 'rate==0' : 'rate<0.01'],
      'http_req_duration{kind:search}': ['p(95)<500'],
      'http_req_duration{kind:product}': ['p(95)<500'],
      'http_req_duration{kind:mcp}': ['p(95)<1000'],
      checks: [STRICT ? 'rate==1' : 'rate>0.99'],
    },
  };
}

export const options = MODE === 'limit'
  ? {
    scenarios: { limit: { executor: 'shared-iterations', vus: 1, iterations: LIMIT_REQUESTS, maxDuration: '5m' } },
    noConnectionReuse: true,
    thresholds: { limit_allowed: [`count==${LIMIT}`], limit_refused: [`count==${LIMIT_REQUESTS - LIMIT}`] },
  }
  : loadOptions();

export function setup() {
  const health = http.get(`${BASE}/api/health`);
  if (health.status !== 200) fail(`health: status ${health.status}: ${health.body}`);
  if (MODE === 'limit') return { ids: [] };
  const ids = [];
  for (const p of MIX.slice(0, 8)) {
    const r = http.get(searchURL(p, true, BASE).replace('limit=20', 'limit=50'), { headers: AUTH, responseType: 'text' });
    if (r.status !== 200) fail(`setup search: status ${r.status}: ${r.body}`);
    for (const prod of JSON.parse(r.body).products) ids.push(prod.id);
  }
  if (ids.length === 0) fail('setup found no products');
  return { ids };
}

// mcpArgs turns a search of the query mix into search_products arguments:
// constraints as an object, prices as numbers.
function mcpArgs(p) {
  const a = { limit: 10 };
  for (const [k, v] of Object.entries(p)) {
    if (k === 'constraints') a[k] = JSON.parse(v);
    else if (k.endsWith('_price')) a[k] = Number(v);
    else a[k] = v;
  }
  return a;
}

// client returns the headers of simulated client i.
function client(i, headers) {
  if (CLIENTS <= 0) return headers;
  const n = i % CLIENTS;
  return Object.assign({ 'X-Forwarded-For': `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}` }, headers);
}

// mcpCall posts one tools/call. Both tools only read, so the request is
// marked idempotent: like a GET, it is retried on a fresh connection when
// the server closed the reused one first (as a replica that is shutting
// down does with idle keep-alive connections).
function mcpCall(i, name, args) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name, arguments: args } });
  const headers = client(i, Object.assign({ 'Idempotency-Key': `${__VU}-${__ITER}` }, MCP_HEADERS));
  const res = http.post(`${BASE}/api/mcp`, body, { headers, tags: { kind: 'mcp' }, responseType: 'text' });
  check(res, {
    'mcp 200': (r) => r.status === 200,
    'mcp result': (r) => r.status === 200 && r.body.includes('"result"') && !r.body.includes('"isError":true'),
  });
}

function get(i, url, kind) {
  const res = http.get(url, { headers: client(i, AUTH), tags: { kind } });
  check(res, { [`${kind} 200`]: (r) => r.status === 200 });
}

function limitProbe() {
  const res = http.get(`${BASE}/api/search?query=laptop&lite=true&limit=1`,
    { headers: { Authorization: `Bearer ${PUBLIC_KEY}` }, responseCallback: http.expectedStatuses(200, 429) });
  if (res.status === 200) allowed.add(1);
  else if (res.status === 429) refused.add(1);
  else fail(`limit: unexpected status ${res.status}`);
}

export default function (data) {
  if (MODE === 'limit') {
    limitProbe();
    return;
  }
  const i = (__VU * 7919 + __ITER) % 1000003;
  const id = data.ids[i % data.ids.length];
  let kind = MODE;
  if (MODE === 'mix') {
    const r = i % 20;
    kind = r < 10 ? 'search' : r < 13 ? 'full' : r < 17 ? 'product' : 'mcp';
  }
  switch (kind) {
    case 'search':
      get(i, LITE[i % LITE.length], 'search');
      break;
    case 'full':
      get(i, FULL[i % FULL.length], 'search');
      break;
    case 'product':
      get(i, `${BASE}/api/product/${encodeURIComponent(id)}`, 'product');
      break;
    case 'mcp':
      if (i % 2 === 0) mcpCall(i, 'search_products', mcpArgs(MIX[i % MIX.length]));
      else mcpCall(i, 'get_product', { product_id: id });
      break;
    default:
      fail(`unknown MODE ${MODE}`);
  }
}

function summary(data) {
  const m = data.metrics;
  if (MODE === 'limit') {
    const a = m.limit_allowed ? m.limit_allowed.values.count : 0;
    const r = m.limit_refused ? m.limit_refused.values.count : 0;
    return `limit: ${a} allowed, ${r} refused with 429 (want ${LIMIT} and ${LIMIT_REQUESTS - LIMIT})\n`;
  }
  const d = m.http_req_duration.values;
  const failed = m.http_req_failed ? m.http_req_failed.values.rate : 0;
  let s = `${MODE}: ${m.http_reqs.values.count} requests, ${m.http_reqs.values.rate.toFixed(1)}/s, ` +
    `p50 ${d.med.toFixed(1)} ms, p95 ${d['p(95)'].toFixed(1)} ms, p99 ${d['p(99)'].toFixed(1)} ms, failed ${(failed * 100).toFixed(2)}%\n`;
  for (const c of data.root_group.checks || []) {
    if (c.fails > 0) s += `  check "${c.name}" failed ${c.fails} of ${c.passes + c.fails}\n`;
  }
  for (const kind of ['search', 'product', 'mcp']) {
    const k = m[`http_req_duration{kind:${kind}}`];
    if (k && k.values.count !== 0) s += `  ${kind}: p95 ${k.values['p(95)'].toFixed(1)} ms\n`;
  }
  return s;
}

export function handleSummary(data) {
  const out = { stdout: summary(data) };
  if (__ENV.SUMMARY) out[__ENV.SUMMARY] = JSON.stringify(data);
  return out;
}
