// k6 load test of the REST API: one scenario per run, chosen by SCENARIO.
//
//   k6 run -e SCENARIO=lite -e BASE_URL=http://127.0.0.1:8080 -e API_KEY=... loadtest/api.js
//
// SCENARIO  lite (lite searches, limit 20, over a query mix), full (full
//           searches, limit 20), product (product detail of ids found in
//           setup), health, or raw: the Elasticsearch node alone answering
//           the equivalent of each lite search (ES_URL, ES_INDEX): the query
//           matched in the title, the filters and the sort, 20 lite products
//           from their stored field, constraints left out
// RATE      requests per second (constant arrival rate); unset or 0 runs
//           VUS closed-loop virtual users flat out to find the maximum
// VUS       virtual users (default 16)
// DURATION  default 15s
// SUMMARY   path of the JSON summary to write (default: stdout only)
//
// scripts/bench-api.sh runs every scenario against a local server and
// reports requests/s, p50/p99 and the share of request time in the engine.
import http from 'k6/http';
import { check, fail } from 'k6';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const KEY = __ENV.API_KEY || 'ps_public_demo_key';
const SCENARIO = __ENV.SCENARIO || 'lite';
const DURATION = __ENV.DURATION || '15s';
const VUS = parseInt(__ENV.VUS || '16', 10);
const RATE = parseInt(__ENV.RATE || '0', 10);

// A mix of the searches agents send: category and brand browsing, model
// lines, price ranges and spec constraints.
export const MIX = [
  { category: 'Laptops' },
  { query: 'ThinkPad', category: 'Laptops' },
  { query: 'IdeaPad', brand: 'Lenovo' },
  { category: 'Laptops', constraints: '{"memory_gb":{"gte":16},"storage_gb":{"gte":512}}' },
  { category: 'Laptops', max_price: '800', sort: 'price_asc' },
  { brand: 'Samsung', category: 'TVs' },
  { category: 'TVs', constraints: '{"screen_in":{"eq":55},"resolution_p":{"gte":2160}}' },
  { query: '65" 4K', category: 'TVs' },
  { category: 'Monitors', constraints: '{"refresh_hz":{"gte":144}}' },
  { query: 'UltraGear', brand: 'LG' },
  { query: 'iPhone 15' },
  { query: 'Galaxy S24', category: 'Phones' },
  { query: 'Pixel 8', sort: 'price_desc' },
  { category: 'Phones', min_price: '300', max_price: '900' },
  { query: 'WH-1000XM5' },
  { category: 'Headphones', max_price: '200' },
  { query: '990 PRO', category: 'Storage' },
  { category: 'Storage', constraints: '{"storage_gb":{"gte":2000}}' },
  { category: 'Networking', constraints: '{"wifi_gen":{"gte":6.5}}' },
  { query: 'Archer' },
  { category: 'Cables & Chargers', constraints: '{"power_w":{"gte":65}}' },
  { query: 'PlayStation 5' },
  { category: 'Gaming', sort: 'price_asc' },
  { query: 'MacBook Air', brand: 'Apple' },
  { brand: 'Dell' },
];

export function searchURL(params, lite, base = BASE) {
  const parts = [];
  for (const [k, v] of Object.entries(params)) {
    parts.push(`${k}=${encodeURIComponent(v)}`);
  }
  parts.push('limit=20');
  if (lite) parts.push('lite=true');
  return `${base}/api/search?${parts.join('&')}`;
}

// rawBody is the search a client of Elasticsearch alone sends for the
// lite search of params (as rawSearch in internal/search/elastic).
export function rawBody(params) {
  const filter = [];
  for (const field of ['category', 'brand', 'product_type']) {
    if (params[field]) filter.push({ term: { [field]: params[field] } });
  }
  if (params.min_price || params.max_price) {
    const r = {};
    if (params.min_price) r.gte = parseFloat(params.min_price);
    if (params.max_price) r.lte = parseFloat(params.max_price);
    filter.push({ range: { price: r } });
  }
  const q = { filter };
  if (params.query) q.must = { match: { title: params.query } };
  let sort = ['_score', { browse_rank: 'asc' }];
  if (params.sort === 'price_asc') sort = [{ price: 'asc' }, { id: 'asc' }];
  if (params.sort === 'price_desc') sort = [{ price: 'desc' }, { id: 'asc' }];
  return JSON.stringify({ from: 0, size: 20, track_total_hits: true, query: { bool: q },
    _source: false, stored_fields: ['lite'], sort });
}

const LITE = MIX.map((p) => searchURL(p, true));
const RAW = MIX.map(rawBody);
const RAW_URL = `${(__ENV.ES_URL || 'http://127.0.0.1:9200').split(',')[0]}/${__ENV.ES_INDEX || 'products'}/_search`;
const RAW_PARAMS = { headers: { 'Content-Type': 'application/json' } };
const FULL = MIX.map((p) => searchURL(p, false));
const PARAMS = { headers: { Authorization: `Bearer ${KEY}` } };

export const options = {
  discardResponseBodies: true,
  summaryTrendStats: ['avg', 'med', 'p(90)', 'p(99)', 'max'],
  scenarios: {
    [SCENARIO]: RATE > 0
      ? { executor: 'constant-arrival-rate', rate: RATE, timeUnit: '1s', duration: DURATION,
          preAllocatedVUs: VUS, maxVUs: VUS * 4 }
      : { executor: 'constant-vus', vus: VUS, duration: DURATION },
  },
};

export function setup() {
  if (SCENARIO === 'raw') {
    const r = http.post(RAW_URL, RAW[0], RAW_PARAMS);
    if (r.status !== 200) fail(`raw: status ${r.status}: ${r.body}`);
    return { ids: [] };
  }
  const health = http.get(`${BASE}/api/health`);
  if (health.status !== 200) fail(`health: status ${health.status}`);
  if (SCENARIO !== 'product') return { ids: [] };
  const ids = [];
  for (const p of MIX.slice(0, 12)) {
    const r = http.get(searchURL(p, true).replace('limit=20', 'limit=100'),
      Object.assign({ responseType: 'text' }, PARAMS));
    if (r.status !== 200) fail(`setup search: status ${r.status}: ${r.body}`);
    for (const prod of JSON.parse(r.body).products) ids.push(encodeURIComponent(prod.id));
  }
  if (ids.length === 0) fail('setup found no products');
  return { ids };
}

export default function (data) {
  const i = (__VU * 7919 + __ITER) % 1000003;
  let res;
  switch (SCENARIO) {
    case 'lite':
      res = http.get(LITE[i % LITE.length], PARAMS);
      break;
    case 'full':
      res = http.get(FULL[i % FULL.length], PARAMS);
      break;
    case 'product':
      res = http.get(`${BASE}/api/product/${data.ids[i % data.ids.length]}`, PARAMS);
      break;
    case 'health':
      res = http.get(`${BASE}/api/health`);
      break;
    case 'raw':
      res = http.post(RAW_URL, RAW[i % RAW.length], RAW_PARAMS);
      break;
    default:
      fail(`unknown SCENARIO ${SCENARIO}`);
  }
  check(res, { 'status 200': (r) => r.status === 200 });
}

export function handleSummary(data) {
  const out = { stdout: textSummary(data) };
  if (__ENV.SUMMARY) out[__ENV.SUMMARY] = JSON.stringify(data);
  return out;
}

function textSummary(data) {
  const d = data.metrics.http_req_duration.values;
  const reqs = data.metrics.http_reqs.values;
  const failed = data.metrics.http_req_failed ? data.metrics.http_req_failed.values.rate : 0;
  return `${SCENARIO}: ${reqs.count} requests, ${reqs.rate.toFixed(0)}/s, ` +
    `p50 ${d.med.toFixed(2)} ms, p99 ${d['p(99)'].toFixed(2)} ms, failed ${(failed * 100).toFixed(2)}%\n`;
}
