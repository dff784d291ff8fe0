// Real-browser tests of the explorer (/) and the API reference (/docs),
// driving Debian's Chromium through playwright-core; no browser is
// downloaded. Run by scripts/test-browser.sh, which starts two API servers
// and sets:
//   BASE_URL       server over the demo catalog with a raised rate limit
//   LIMITED_URL    server over internal/explorer/testdata/catalog.snapshot
//                  (hostile feed titles) with a small rate limit: room for
//                  one page load with its assets, a search, a product and a
//                  few more searches
//   LIMITED_LIMIT  that server's RATE_LIMIT_PER_HOUR
//   API_KEY        the public API key both servers accept
//   CHROMIUM       the browser binary (default /usr/bin/chromium)
//   SCREENSHOTS    directory for the screenshots (test artifacts)
//
// Every request the pages make is watched: requests to 127.0.0.1 go
// through; retailer product images (https, from the API's image_url
// fields) are answered locally with a placeholder; anything else is
// aborted and fails the test. So no request leaves the machine.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const env = (name, fallback) => {
  const v = process.env[name] ?? fallback;
  if (v === undefined || v === '') throw new Error(`${name} is not set; run the tests with scripts/test-browser.sh`);
  return v;
};

const BASE = env('BASE_URL');
const LIMITED = env('LIMITED_URL');
const LIMITED_LIMIT = Number(env('LIMITED_LIMIT'));
const KEY = env('API_KEY');
const CHROMIUM = env('CHROMIUM', '/usr/bin/chromium');
const SHOTS = env('SCREENSHOTS');
mkdirSync(SHOTS, { recursive: true });

const SIZES = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
};

const PLACEHOLDER = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#d5dae1"/></svg>';

const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

let browser;

before(async () => {
  // launch() starts the browser on a fresh temporary profile
  // (--user-data-dir) that it deletes on close.
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-default-apps', '--disable-extensions', '--no-pings', '--metrics-recording-only',
      // Belt and braces: no host but 127.0.0.1 resolves, so nothing the
      // browser does on its own can reach another machine either.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
});

after(async () => {
  await browser?.close();
});

// openPage makes a page at one size that records every request, console
// error and page error, and keeps every request on this machine.
async function openPage(size, { allowStatuses = [] } = {}) {
  const context = await browser.newContext({ ...SIZES[size], locale: 'en-GB', serviceWorkers: 'block' });
  const page = await context.newPage();
  const log = { requests: [], offHost: [], blocked: [], errors: [], images: new Set(), pending: [] };
  await context.route('**/*', async (route) => {
    const req = route.request();
    const url = new URL(req.url());
    if (url.hostname === '127.0.0.1') return route.continue();
    if (url.protocol === 'data:') return route.continue();
    if (url.protocol === 'https:' && req.resourceType() === 'image') {
      log.offHost.push(req.url());
      return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: PLACEHOLDER });
    }
    log.blocked.push(`${req.resourceType()} ${req.url()}`);
    return route.abort('blockedbyclient');
  });
  page.on('request', (req) => log.requests.push(req.url()));
  // Product images the pages may show come from the explorer's answers.
  page.on('response', (res) => {
    if (!new URL(res.url()).pathname.startsWith('/api/explorer/') || res.status() !== 200) return;
    log.pending.push(res.json().then((body) => collectImages(body, log.images), () => {}));
  });
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    if (allowStatuses.some((s) => text.includes(`status of ${s}`))) return;
    log.errors.push(text);
  });
  page.on('pageerror', (err) => log.errors.push(`pageerror: ${err.message}`));
  return { context, page, log };
}

// finish asserts what every page visit must satisfy and closes it.
async function finish({ context, log }) {
  await Promise.all(log.pending);
  await context.close();
  assert.deepEqual(log.blocked, [], 'requests to other hosts were made');
  for (const u of log.offHost) {
    assert.ok(log.images.has(u), `an https request that is not a product image from the API: ${u}`);
  }
  for (const u of log.requests) {
    const p = new URL(u).protocol;
    assert.ok(new URL(u).hostname === '127.0.0.1' || log.offHost.includes(u) || p === 'data:', `request left 127.0.0.1: ${u}`);
  }
  assert.deepEqual(log.errors, [], 'console errors');
}

// pickMixedSearch finds, over REST, a Lenovo laptop search with two
// requirements whose first page holds both matched and unverified products,
// so that matched-first ordering is really exercised whatever the exact
// contents of the demo catalog.
async function pickMixedSearch(pageSize) {
  for (const query of ['ThinkPad T14', 'IdeaPad', 'ThinkBook', 'IdeaPad Gaming 3', 'ThinkPad', 'Legion', 'Yoga']) {
    for (const [memory, storage] of [[16, 1000], [32, 1000], [32, 512], [16, 512], [8, 512]]) {
      const params = new URLSearchParams({
        query, category: 'Laptops', brand: 'Lenovo', limit: String(pageSize || 20),
        constraints: JSON.stringify({ memory_gb: { gte: memory }, storage_gb: { gte: storage } }),
      });
      const { products } = JSON.parse((await restJSON(BASE, `/api/search?${params}`)).text);
      const kinds = new Set(products.map((p) => Object.values(p.constraint_status).every((s) => s === 'matched')));
      if (kinds.size === 2) return { query, memory, storage };
    }
  }
  assert.fail('no Lenovo laptop search in the demo catalog has matched and unverified products on its first page');
}

async function restJSON(base, path) {
  const res = await fetch(base + path, { headers: { Authorization: `Bearer ${KEY}` } });
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return { text: await res.text(), headers: res.headers };
}

function collectImages(json, into) {
  for (const p of json.products ?? [json]) {
    if (p.image_url) into.add(p.image_url);
    for (const o of p.offers ?? []) if (o.image_url) into.add(o.image_url);
  }
}

// checkAttributes compares the product page's attribute cards with the
// API's attributes: status, values, and the retailers and titles behind
// each value.
async function checkAttributes(page, product) {
  const cards = await page.$$eval('#product .attr', (els) => els.map((el) => ({
    name: el.dataset.attr,
    status: el.dataset.status,
    values: [...el.querySelectorAll('.attr-values > li')].map((li) => ({
      value: Number(li.dataset.value),
      sources: [...li.querySelectorAll('.sources > li')].map((s) => ({
        retailer: s.dataset.retailer,
        titles: s.querySelector('.source-title')?.textContent ?? '',
      })),
    })),
  })));
  const order = ['memory_gb', 'storage_gb', 'screen_in', 'resolution_p', 'refresh_hz', 'power_w', 'wifi_gen'];
  const attrs = product.attributes ?? {};
  const want = order.filter((n) => attrs[n]).map((name) => {
    const a = attrs[name];
    const groups = a.status === 'conflicting' ? a.values : [{ value: a.value, sources: a.sources }];
    return {
      name,
      status: a.status,
      values: groups.map((g) => ({ value: g.value, sources: g.sources.map((s) => s.retailer) })),
    };
  });
  assert.deepEqual(cards.map((c) => ({ ...c, values: c.values.map((v) => ({ value: v.value, sources: v.sources.map((s) => s.retailer) })) })), want,
    'attribute cards match the API');
  for (const c of cards) {
    for (const v of c.values) {
      for (const s of v.sources) {
        for (const o of product.offers.filter((o) => o.source === s.retailer)) {
          assert.ok(s.titles.includes(o.title), `${c.name}: ${s.retailer}'s title "${o.title}" not shown`);
        }
      }
    }
  }
  const missing = order.filter((n) => !attrs[n]).join(' ');
  assert.equal(await page.getAttribute('#product .not-stated', 'data-not-stated'), missing);
  const description = product.specs?.description;
  if (description) assert.equal(await page.textContent('#product .description'), description);
}

async function noHorizontalScroll(page, what) {
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(scroll <= client, `${what}: page scrolls sideways (${scroll} > ${client})`);
}

async function shot(page, name, fullPage = false) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}

async function openFilters(page) {
  const open = await page.$eval('#filters', (d) => d.open);
  if (!open) await page.click('#filters > summary');
}

// searchResponse waits for the page's next explorer search.
function searchResponse(page) {
  return page.waitForResponse((r) => new URL(r.url()).pathname === '/api/explorer/search');
}

for (const size of Object.keys(SIZES)) {
  describe(`explorer at ${size} size`, () => {
    test('search, filters, constraint statuses, product offers and attributes', async () => {
      const visit = await openPage(size);
      const { page } = visit;

      await page.goto(`${BASE}/`);
      await page.waitForFunction(() => document.getElementById('catalog-status').textContent.includes('products'));
      assert.ok(await page.isVisible('#start'), 'start screen');
      await noHorizontalScroll(page, 'start');
      await shot(page, `${size}-start`);

      // A plain search from the search box.
      await page.fill('#query', 'ThinkPad');
      let waiting = searchResponse(page);
      await page.press('#query', 'Enter');
      let res = await waiting;
      assert.equal(res.status(), 200);
      await page.waitForSelector('.result');
      assert.match(await page.textContent('#summary'), /products? match/);
      const plain = await res.json();

      // Paging through the plain search, and back.
      assert.ok(plain.total > plain.products.length, 'the plain search has a second page');
      waiting = searchResponse(page);
      await page.click('#pager a[rel=next]');
      res = await waiting;
      assert.equal(new URL(res.url()).searchParams.get('offset'), String(plain.products.length));
      await page.waitForFunction((n) => document.querySelector('#summary .range')?.textContent.startsWith(`Showing ${n + 1}–`), plain.products.length);
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'results', 'paging moves the focus to the results');
      await page.goBack();
      await page.waitForFunction(() => document.querySelector('#summary .range')?.textContent.startsWith('Showing 1–'));

      // Narrower words, a category, a brand and two requirements.
      const mixed = await pickMixedSearch(Number(await page.getAttribute('#search-form', 'data-limit')));
      await page.fill('#query', mixed.query);
      await openFilters(page);
      await page.selectOption('#category', 'Laptops');
      await page.fill('#brand', 'Lenovo');
      await page.selectOption('#op-memory_gb', 'gte');
      await page.fill('#val-memory_gb', String(mixed.memory));
      await page.selectOption('#op-storage_gb', 'gte');
      await page.fill('#val-storage_gb', String(mixed.storage));
      waiting = searchResponse(page);
      await page.click('.form-actions button[type=submit]');
      res = await waiting;
      assert.equal(res.status(), 200);
      const explorerText = await res.text();
      const data = JSON.parse(explorerText);
      const sent = new URL(res.url()).searchParams;
      assert.equal(sent.get('category'), 'Laptops');
      assert.equal(sent.get('brand'), 'Lenovo');
      assert.deepEqual(JSON.parse(sent.get('constraints')), { memory_gb: { gte: mixed.memory }, storage_gb: { gte: mixed.storage } });
      assert.equal(sent.get('query'), mixed.query);

      // The explorer endpoint answers exactly like the REST API.
      const rest = await restJSON(BASE, `/api/search?${sent}`);
      assert.equal(explorerText, rest.text, 'explorer and REST bodies differ');

      await page.waitForFunction(() => !document.getElementById('results').hasAttribute('aria-busy'));
      assert.ok(data.products.length > 0, 'the search found products');
      const names = ['memory_gb', 'storage_gb'];
      const isMatch = (p) => names.every((n) => p.constraint_status[n] === 'matched');
      const ids = await page.$$eval('.result', (els) => els.map((e) => e.dataset.id));
      assert.deepEqual(ids, data.products.map((p) => p.id), 'results in API order');
      const groups = await page.$$eval('.result', (els) => els.map((e) => e.closest('[data-group]').dataset.group));
      // pickMixedSearch chose a search with both kinds on this page, so the
      // order is really tested.
      assert.ok(groups.includes('matched') && groups.includes('unverified'), `groups: ${groups}`);
      const firstUnverified = groups.indexOf('unverified');
      assert.ok(groups.slice(firstUnverified).every((g) => g === 'unverified'), 'matched results come first');
      assert.deepEqual(groups, data.products.map((p) => (isMatch(p) ? 'matched' : 'unverified')));
      const checks = await page.$$eval('.result', (els) => els.map((e) => [...e.querySelectorAll('.check')].map((c) => [c.dataset.constraint, c.dataset.status, c.dataset.reason ?? '', c.textContent])));
      data.products.forEach((p, i) => {
        assert.deepEqual(checks[i].map((c) => c[0]), names, `${p.id}: one status per requirement`);
        checks[i].forEach(([name, status, reason, text]) => {
          assert.equal(status, p.constraint_status[name], `${p.id} ${name}`);
          if (status === 'unverified') {
            const attr = p.attributes?.[name];
            const want = !attr ? 'absent' : attr.status === 'conflicting' ? 'conflicting' : 'unconfirmed';
            assert.equal(reason, want, `${p.id} ${name} reason`);
            assert.match(text, want === 'absent' ? /not stated/ : want === 'conflicting' ? /retailers disagree/ : /not confirmed/);
          }
        });
      });
      const summary = await page.textContent('#summary');
      assert.match(summary, new RegExp(`${data.total === 0 ? 'No product is known' : data.total.toLocaleString('en-GB')}`));
      if (data.unverified_total > 0) assert.match(summary, new RegExp(`${data.unverified_total.toLocaleString('en-GB')} (more )?products? (is|are) unverified`));
      if (data.excluded_by_constraints > 0) assert.match(summary, new RegExp(`${data.excluded_by_constraints.toLocaleString('en-GB')} products? (was|were) left out`));
      await page.waitForFunction(() => /Showing \d+ on this page/.test(document.getElementById('announce').textContent));
      assert.match(await page.textContent('#filter-count'), /4 active/);
      await noHorizontalScroll(page, 'results');
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `${size}-results`);
      if (size === 'desktop') await shot(page, `${size}-results-full`, true);

      // A product: offers against GET /api/product/<id>.
      const pick = data.products.find((p) => p.offer_count > 1) ?? data.products[0];
      const productWait = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/api/explorer/product/'));
      await page.click(`.result[data-id="${pick.id}"] .result-title a`);
      const pres = await productWait;
      assert.equal(pres.status(), 200);
      const restProduct = await restJSON(BASE, `/api/product/${encodeURIComponent(pick.id)}`);
      assert.equal(await pres.text(), restProduct.text, 'explorer and REST product bodies differ');
      const product = JSON.parse(restProduct.text);
      await page.waitForSelector('#product h1');
      assert.equal(await page.textContent('#product h1'), product.title);
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H1', 'focus moves to the product title');
      const rows = await page.$$eval('table.offers tbody tr', (trs) => trs.map((tr) => ({
        id: tr.dataset.offerId,
        retailer: tr.querySelector('.retailer').firstChild.textContent,
        title: tr.querySelector('.listing').textContent,
        price: tr.querySelector('.price').textContent,
        href: tr.querySelector('a.offer-link')?.href ?? null,
      })));
      assert.deepEqual(rows, product.offers.map((o) => ({ id: o.id, retailer: o.source, title: o.title, price: gbp.format(o.price), href: o.purchase_url })),
        'offers table matches the API, cheapest first');
      const prices = product.offers.map((o) => o.price);
      assert.deepEqual(prices, [...prices].sort((a, b) => a - b));
      const links = await page.$$eval('table.offers a.offer-link', (as) => as.map((a) => [a.target, a.rel]));
      for (const [target, rel] of links) {
        assert.equal(target, '_blank');
        assert.match(rel, /noopener/);
      }
      await checkAttributes(page, product);
      await noHorizontalScroll(page, 'product');
      await shot(page, `${size}-product`);
      if (size === 'desktop') await shot(page, `${size}-product-full`, true);

      // Back to the results: answered from memory, no new request.
      const before = visit.log.requests.filter((u) => u.includes('/api/explorer/')).length;
      await page.click('#product .back a');
      await page.waitForSelector('.result');
      const afterCount = visit.log.requests.filter((u) => u.includes('/api/explorer/')).length;
      assert.equal(afterCount, before, 'going back re-fetched the results');

      // A product whose retailers disagree, when the results hold one.
      const conflicted = data.products.find((p) => names.some((n) => p.attributes?.[n]?.status === 'conflicting'));
      if (conflicted) {
        await page.click(`.result[data-id="${conflicted.id}"] .result-title a`);
        await page.waitForSelector('#product h1');
        const full = JSON.parse((await restJSON(BASE, `/api/product/${encodeURIComponent(conflicted.id)}`)).text);
        await checkAttributes(page, full);
        assert.match(await page.textContent('#product .callout'), /Retailers disagree on/);
        await shot(page, `${size}-product-conflicting`);
      }
      if (size === 'phone') {
        await page.setViewportSize({ width: 375, height: 812 });
        await noHorizontalScroll(page, 'product at 375px');
        await page.goBack();
        await page.waitForSelector('.result');
        await noHorizontalScroll(page, 'results at 375px');
      }
      await finish(visit);
    });

    test('validation errors next to the form, and the empty state', async () => {
      const visit = await openPage(size, { allowStatuses: [400] });
      const { page } = visit;
      await page.goto(`${BASE}/`);
      await openFilters(page);
      await page.selectOption('#op-storage_gb', 'gte');
      await page.fill('#val-storage_gb', '1000');
      const waiting = searchResponse(page);
      await page.click('.form-actions button[type=submit]');
      const res = await waiting;
      assert.equal(res.status(), 400);
      const { error } = await res.json();
      await page.waitForSelector('#form-error:not([hidden])');
      assert.match(await page.textContent('#form-error'), /could not run\. See Spec requirements\./);
      assert.ok((await page.textContent('#err-constraints')).includes(error), 'the message is shown next to the requirements');
      assert.ok((await page.textContent('#notice')).includes(error), 'the results area says why there are no results');
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `${size}-validation-error`);

      // A requirement without a value is caught before any request.
      await page.selectOption('#op-memory_gb', 'gte');
      const count = visit.log.requests.length;
      await page.click('.form-actions button[type=submit]');
      await page.waitForSelector('#err-memory_gb:not([hidden])');
      assert.equal(await page.getAttribute('#val-memory_gb', 'aria-invalid'), 'true');
      assert.equal(visit.log.requests.length, count, 'an incomplete form was sent');

      // Nothing found: suggestions to broaden.
      await page.goto(`${BASE}/#/search?query=zzqx%20wvkj&category=Laptops&brand=Lenovo`);
      await page.waitForSelector('[data-empty]');
      const suggestions = await page.$$eval('.broaden a', (as) => as.map((a) => a.textContent));
      assert.ok(suggestions.some((s) => /Remove the brand/.test(s)), `suggestions: ${suggestions}`);
      assert.ok(suggestions.some((s) => /search words/.test(s)), `suggestions: ${suggestions}`);
      await noHorizontalScroll(page, 'empty state');
      await page.locator('#summary, [data-empty]').last().scrollIntoViewIfNeeded();
      await shot(page, `${size}-empty`);
      await finish(visit);
    });

    test('API reference renders and its console runs a real search', async () => {
      const visit = await openPage(size);
      const { page } = visit;
      const authHeaders = [];
      page.on('request', (req) => {
        if (new URL(req.url()).pathname === '/api/search') authHeaders.push(req.headers().authorization);
      });
      await page.goto(`${BASE}/docs`);
      await page.waitForSelector('#operations-search-searchProducts');
      const examples = await page.$$eval('.example-code', (els) => els.map((e) => e.textContent));
      assert.ok(examples.length >= 4);
      for (const text of examples) {
        assert.ok(!text.includes('{base_url}'), 'placeholder left in an example');
      }
      assert.ok(examples.some((t) => t.includes(`${BASE}/api/mcp`) && t.includes('tools/call')));
      assert.ok(examples.some((t) => t.includes('"mcpServers"') && t.includes('"mcp-stdio"')));
      assert.ok(examples.some((t) => t.includes(`Authorization: Bearer ${KEY}`)));
      await noHorizontalScroll(page, 'docs');
      await shot(page, `${size}-docs`);

      await page.click('#operations-search-searchProducts .opblock-summary');
      const tryOut = page.locator('#operations-search-searchProducts .try-out__btn');
      await tryOut.click();
      const row = page.locator('#operations-search-searchProducts tr[data-param-name="category"]');
      await row.locator('select').selectOption('Laptops');
      await page.locator('#operations-search-searchProducts tr[data-param-name="limit"] input').fill('3');
      const waiting = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/search');
      await page.click('#operations-search-searchProducts .execute');
      const res = await waiting;
      assert.equal(res.status(), 200);
      const body = await res.json();
      assert.ok(body.products.length > 0 && body.products.length <= 3, 'the console search found products');
      assert.deepEqual(authHeaders, [`Bearer ${KEY}`], 'the console sends the prefilled public key');
      await page.waitForSelector('#operations-search-searchProducts .live-responses-table tr.response .response-col_status');
      assert.match(await page.textContent('#operations-search-searchProducts .live-responses-table tr.response .response-col_status'), /200/);
      assert.match(await page.textContent('#operations-search-searchProducts .live-responses-table tr.response .response-col_description'), /"products"/);
      await noHorizontalScroll(page, 'docs console');
      await page.locator('#operations-search-searchProducts .live-responses-table').scrollIntoViewIfNeeded();
      await shot(page, `${size}-docs-console`);
      assert.equal(visit.log.offHost.length, 0, '/docs loaded something from another host');
      await finish(visit);
    });
  });
}

describe('hostile feed text and the rate limit', () => {
  test('titles with markup are text, pages and assets are charged, and a spent budget says when it resets', async () => {
    const visit = await openPage('desktop', { allowStatuses: [429] });
    const { page } = visit;
    let resetAt = null;
    const assets = [];
    page.on('response', async (r) => {
      if (new URL(r.url()).pathname.startsWith('/assets/')) assets.push(r);
      if (r.status() === 429 && r.request().resourceType() !== 'document') resetAt = (await r.json()).resetAt;
    });

    // The page is this address's first charged request on this server
    // (the health checks that waited for it are not charged), and each of
    // its assets is charged too (spec 8: every endpoint except health).
    const doc = await page.goto(`${LIMITED}/#/search?query=hostile`);
    assert.equal(doc.status(), 200);
    assert.equal(doc.headers()['x-ratelimit-limit'], String(LIMITED_LIMIT));
    assert.equal(doc.headers()['x-ratelimit-remaining'], String(LIMITED_LIMIT - 1));
    await page.waitForSelector('.result');
    assert.ok(assets.length >= 2, `assets seen: ${assets.map((r) => r.url())}`);
    for (const r of assets) {
      assert.equal(r.status(), 200, r.url());
      assert.equal(r.headers()['x-ratelimit-limit'], String(LIMITED_LIMIT), `${r.url()} is not charged`);
      assert.ok(Number(r.headers()['x-ratelimit-remaining']) < LIMITED_LIMIT - 1, `${r.url()} remaining ${r.headers()['x-ratelimit-remaining']}`);
      assert.match(r.headers()['cache-control'], /max-age=31536000/, `${r.url()} is not cached for long`);
    }
    const titles = await page.$$eval('.result-title a', (as) => as.map((a) => a.textContent));
    assert.ok(titles.includes('<script>window.__xss = 1</script> Hostile Laptop 16GB RAM 512GB SSD'), `titles: ${titles}`);
    assert.ok(titles.includes('"><img src=x onerror="window.__xss = 2"> Hostile Monitor 27" 144Hz'), `titles: ${titles}`);
    await shot(page, 'hostile-results');

    await page.click('.result[data-id="hostile-laptop"] .result-title a');
    await page.waitForSelector('#product h1');
    assert.equal(await page.textContent('#product h1'), '<script>window.__xss = 1</script> Hostile Laptop 16GB RAM 512GB SSD');
    assert.equal(await page.textContent('#product .description'), '<img src=x onerror="window.__xss = 3"> Ports: <b>2x USB-C</b> & HDMI');
    assert.match(await page.textContent('#product .eyebrow'), /<b>Evil<\/b>/);
    const listings = await page.$$eval('table.offers .listing', (tds) => tds.map((td) => td.textContent));
    assert.ok(listings.includes('"><img src=x onerror="window.__xss = 2"> Hostile Monitor 27" 144Hz'));
    await shot(page, 'hostile-product');

    const state = await page.evaluate(() => ({
      xss: window.__xss,
      scripts: [...document.scripts].filter((s) => s.textContent.includes('__xss')).length,
      imgs: document.querySelectorAll('img[src="x"], img[onerror]').length,
      bold: document.querySelectorAll('#product b, .result b').length,
      jsLinks: document.querySelectorAll('a[href^="javascript:"]').length,
    }));
    assert.deepEqual(state, { xss: undefined, scripts: 0, imgs: 0, bold: 0, jsLinks: 0 }, 'feed markup became DOM');

    // Spend the rest of the budget with new searches until one is refused.
    let refused = false;
    for (let i = 0; i < LIMITED_LIMIT + 2 && !refused; i++) {
      const waiting = searchResponse(page);
      await page.goto(`${LIMITED}/#/search?query=laptop&min_price=${i + 1}`);
      refused = (await waiting).status() === 429;
    }
    assert.ok(refused, 'the limit was never reached');
    await page.waitForSelector('#reset-time');
    assert.ok(resetAt, 'no resetAt in the 429 body');
    assert.equal(await page.getAttribute('#reset-time', 'datetime'), resetAt);
    const wantClock = await page.evaluate((iso) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' }).format(new Date(iso)), resetAt);
    assert.equal(await page.textContent('#reset-time'), wantClock);
    assert.match(await page.textContent('#notice'), new RegExp(`Request limit reached\\. Each address may make ${LIMITED_LIMIT} requests per hour`));
    assert.match(await page.textContent('#budget'), new RegExp(`0 of ${LIMITED_LIMIT}`));
    await shot(page, 'rate-limited');

    // The page itself is refused now, with the interface's 429.
    const again = await page.reload();
    assert.equal(again.status(), 429);
    assert.equal(again.headers()['x-ratelimit-remaining'], '0');
    assert.equal((await again.json()).resetAt, resetAt);
    await finish(visit);
  });
});
