// security_test.mjs — trick "a house rule's view makes the page fetch other sites" (issue 32, item 7), in Debian's
// headless chromium driven by playwright-core (run by run.sh with this script's name; env: BROWSER, URL, TMP,
// FIXTURES). Every request the page makes is recorded (page.on('request')):
//  1. the page and its API answers carry a Content-Security-Policy that allows nothing from outside the server;
//  2. a game of tests/fixtures/web-draw/tracker-colours.toml (its [view] colours are url(http://evil.example/...))
//     is drawn: the page says which hints were dropped, and no card's CSS names a URL;
//  3. a component colour that is not a colour (an attribute value url(...)) is never used as CSS (isColour);
// and no request left 127.0.0.1 for any of it; then
//  4. CSS, an image and a fetch pointing outside, put into the page by force, are blocked by the policy
//     (securitypolicyviolation), so even a value that got through would fetch nothing.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const { BROWSER, URL, TMP, FIXTURES } = process.env;
function check(cond, message) {
  if (!cond) throw new Error(message);
}
const context = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(TMP, 'profile-')), {
  executablePath: BROWSER,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const page = context.pages()[0] || (await context.newPage());
const requests = [];
page.on('request', (r) => requests.push(r.url()));
const origin = new globalThis.URL(URL).origin;

// 1. the policy on the page and on the API
const response = await page.goto(URL);
const csp = response.headers()['content-security-policy'] || '';
for (const part of ["default-src 'self'", "connect-src 'self'", "img-src 'self' data:", "script-src 'self'"])
  check(csp.includes(part), `the page's Content-Security-Policy lacks ${part}: '${csp}'`);
const api = await page.request.get(`${URL}api/rulesets`);
check((api.headers()['content-security-policy'] || '').includes("default-src 'self'"), 'an API answer has no Content-Security-Policy');
console.log(`ok  Content-Security-Policy: ${csp}`);

// 2. the tracker's colours
await page.waitForFunction(() => document.querySelectorAll('#ruleset option').length > 0);
await page.fill('#ruleset-path', path.join(FIXTURES, 'tracker-colours.toml'));
await page.fill('#seed', '7');
const before = await page.evaluate(() => Number(document.body.dataset.renders || 0));
await page.click('#start');
await page.waitForFunction((n) => Number(document.body.dataset.renders || 0) > n &&
  document.querySelectorAll('#actions button.action').length > 0, before, { timeout: 20000 });
const message = await page.textContent('#message');
check(message.includes('[view] colours.yellow') && message.includes('is not a colour'),
  `the dropped hints are not shown on the page: '${message}'`);
const styles = await page.evaluate(() => [...document.querySelectorAll('#table [style]')].map((e) => e.getAttribute('style')));
check(styles.length > 0, 'no card is coloured: the test proves nothing');
check(!styles.some((s) => /url\(|evil/.test(s)), `a card's CSS names a URL: ${styles.filter((s) => /url\(/.test(s)).join(' | ')}`);
console.log(`ok  tracker-colours: ${styles.length} coloured elements, none with a URL; the page says: ${message.slice(0, 100)}`);

// 3. a component's colour attribute is used as CSS only when it is a colour
const verdicts = await page.evaluate(() => ['url(http://evil.example/a.png)', 'red', '#12345z', '#123', 'rgb(1, 2, 3)',
  'rgb(1, 2, url(x))', 'var(--x)', 'hsl(120deg 50% 50%)', 'expression(alert(1))'].map((v) => [v, isColour(v)]));
const wrong = verdicts.filter(([v, ok]) => ok !== ['red', '#123', 'rgb(1, 2, 3)', 'hsl(120deg 50% 50%)'].includes(v));
check(wrong.length === 0, `isColour is wrong for ${JSON.stringify(wrong)}`);
const attr = await page.evaluate(() => cardColour({ name: 'X1', attrs: { colour: 'url(http://evil.example/attr.png)' } }));
check(attr === null, `a colour attribute url(...) became CSS: ${attr}`);
console.log('ok  a colour attribute that is not a colour is not used');

// what the ruleset's game made the page request: nothing outside the server
const outside = requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:'));
check(outside.length === 0, `requests left the server: ${outside.join(', ')}`);
console.log(`ok  ${requests.length} requests while the tracker's game was drawn, all to ${origin}`);

// 4. the policy blocks what would get through anyway (chromium reports each blocked load as a violation; the
// request events playwright shows for them end in failure, nothing is fetched)
const violations = await page.evaluate(async () => {
  const seen = [];
  document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  const d = document.createElement('div');
  d.style.cssText = 'width: 10px; height: 10px; background: url(http://evil.example/forced.png)';
  document.body.appendChild(d);
  const img = document.createElement('img');
  img.src = 'http://evil.example/forced-img.png';
  document.body.appendChild(img);
  try { await fetch('http://evil.example/forced-fetch'); } catch (e) { /* blocked */ }
  await new Promise((r) => setTimeout(r, 500));
  return seen;
});
check(violations.length >= 3, `the Content-Security-Policy did not block the forced requests: ${JSON.stringify(violations)}`);
console.log(`ok  the policy blocked: ${violations.join('; ')}`);
await context.close();
console.log('PASS');
