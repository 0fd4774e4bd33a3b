// friends_test.mjs — friends at one table over a network (docs/serve.md, "Friends at one table"), in Debian's
// headless chromium driven by playwright-core (run by run.sh with `--host 127.0.0.2`; env: BROWSER, URL, TMP, SHOTS,
// SERVE_LOG). Three browser contexts (their own storage, as three machines): A starts a Lost Cities game of two
// people and plays seat 1; B opens seat 2's link, which A's page shows (and serve printed); C, an outsider, opens
// the game's address without a link.
//  1. each page shows its own seat's hand only (C: no hand at all, and says it is watching);
//  2. each of them tries to read another seat's hand and to act for another seat (fetch with its own key, as the
//     page would): 403, the game unchanged (its version and every log);
//  3. A plays a card and draws: B's and C's pages show it without a reload, and B is to move; B plays: A sees it;
//  4. A may not undo once B has moved (the page says why); a request with another site's Origin gets 403.
// Fails on any error in a page's console other than the refusals it provokes.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const { BROWSER, URL, SHOTS, SERVE_LOG } = process.env;
const started = Date.now();
const log = (...a) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s]`, ...a);
function check(cond, message) {
  if (!cond) throw new Error(message);
}

const browser = await chromium.launch({
  executablePath: BROWSER,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const errors = [];
async function person(name) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(`${name}: ${e}`));
  // the refusals this test provokes are logged by chromium as failed resources (403, 409): expected
  page.on('console', (m) => { if (m.type() === 'error' && !/status of (403|409)/.test(m.text())) errors.push(`${name}: ${m.text()}`); });
  return { context, page, name };
}
const A = await person('seat 1');
const B = await person('seat 2');
const C = await person('outsider');

const renders = (p) => p.evaluate(() => Number(document.body.dataset.renders || 0));
const logLength = (p) => p.locator('#log li').count();
const actionCount = (p) => p.locator('#actions button.action').count();
async function ready(p) {
  await p.waitForSelector('body[data-ready="1"]');
}
// The cards of `seat`'s hand that this page shows face up (with a name), and those it shows as backs.
async function hand(p, seat) {
  return {
    faces: await p.locator(`[data-zone="hand.${seat}"] .card[data-name]`).count(),
    backs: await p.locator(`[data-zone="hand.${seat}"] .card.back`).count(),
  };
}

// ---- A starts a game of two people ------------------------------------------------------------------------------
await A.page.goto(`${URL}?delay=0`);
await ready(A.page);
await A.page.selectOption('#ruleset', 'lost-cities');
await A.page.fill('#seat-count', '2');
await A.page.dispatchEvent('#seat-count', 'change');
await A.page.selectOption('.seat-player[data-seat="1"]', 'human');
await A.page.selectOption('.seat-player[data-seat="2"]', 'human');
let before = await renders(A.page);
await A.page.click('#start');
await A.page.waitForFunction((n) => Number(document.body.dataset.renders || 0) > n &&
  document.querySelectorAll('#actions button.action').length > 0, before, { timeout: 20000 });
const hashA = new URLSearchParams((await A.page.evaluate(() => location.hash)).slice(1));
const id = hashA.get('game');
check(id && /^[0-9a-f]{40}$/.test(hashA.get('key') || ''), `A's address holds no seat key: ${hashA}`);
check(await A.page.locator('#seat-links .seat-link').count() === 1, 'A\'s page does not show exactly one link (seat 2\'s)');
const link2 = await A.page.inputValue('#seat-links .seat-link[data-seat="2"] input');
const key2 = new URLSearchParams(link2.split('#')[1]).get('key');
check(link2.startsWith(`${URL}#game=${id}&key=`) && /^[0-9a-f]{40}$/.test(key2) && key2 !== hashA.get('key'),
  `seat 2's link on A's page: ${link2}`);
check(fs.readFileSync(SERVE_LOG, 'utf8').includes(link2), 'serve did not print seat 2\'s link on the terminal');
await A.page.screenshot({ path: path.join(SHOTS, 'friends-seat-links.png') });
log(`game ${id}: A plays seat 1, seat 2's link ${link2.replace(key2, key2.slice(0, 6) + '...')} (shown and printed)`);

// ---- 1. each page shows its own hand only --------------------------------------------------------------------------
await B.page.goto(link2.replace('#', '?delay=0#'));
await ready(B.page);
await C.page.goto(`${URL}?delay=0#game=${id}`);
await ready(C.page);
for (const p of [B.page, C.page]) await p.evaluate(() => { window.notReloaded = true; });
const seen = {
  A: [await hand(A.page, 1), await hand(A.page, 2)],
  B: [await hand(B.page, 1), await hand(B.page, 2)],
  C: [await hand(C.page, 1), await hand(C.page, 2)],
};
log(`hands (faces/backs) as each page shows them: ${JSON.stringify(seen)}`);
check(seen.A[0].faces === 8 && seen.A[1].faces === 0 && seen.A[1].backs === 1, 'A does not see exactly its own hand');
check(seen.B[1].faces === 8 && seen.B[0].faces === 0 && seen.B[0].backs === 1, 'B does not see exactly its own hand');
check(seen.C[0].faces === 0 && seen.C[1].faces === 0 && seen.C[0].backs === 1 && seen.C[1].backs === 1, 'the outsider sees a hand');
check(await actionCount(B.page) === 0 && await actionCount(C.page) === 0, 'B or the outsider has actions while seat 1 is to move');
check((await C.page.textContent('#seat-links')).includes('You are watching'), 'the outsider\'s page does not say it is watching');

// ---- 2. reading another seat's hand and acting for another seat: 403, nothing changed ------------------------------
async function tries(p, other) {
  return p.evaluate(async ({ game, seat }) => {
    const key = new URLSearchParams(location.hash.slice(1)).get('key');
    const headers = key ? { 'X-Seat-Key': key } : {};
    const read = await fetch(`/api/games/${game}?seat=${seat}`, { headers });
    const act = await fetch(`/api/games/${game}/play`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ seat, index: 0 }) });
    const undo = await fetch(`/api/games/${game}/undo`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ seat }) });
    return { read: read.status, readText: await read.text(), act: act.status, actText: await act.text(), undo: undo.status };
  }, { game: id, seat: other });
}
for (const [who, p, other] of [['A', A.page, 2], ['B', B.page, 1], ['C', C.page, 1], ['C', C.page, 2]]) {
  const r = await tries(p, other);
  check(r.read === 403 && r.act === 403 && r.undo === 403, `${who} reading/acting/undoing for seat ${other}: ${JSON.stringify(r)}`);
  check(!r.readText.includes('"view"'), `${who} got a view of seat ${other}`);
  log(`${who} for seat ${other}: read 403, play 403, undo 403 (${JSON.parse(r.actText).error.slice(0, 70)})`);
}
// the outsider types an action in the page's box: refused, said on the page
await C.page.fill('#action-text', 'draw deck');
await C.page.press('#action-text', 'Enter');
await C.page.waitForFunction(() => document.getElementById('message').textContent.includes('may watch but not play'), null, { timeout: 10000 });
const version = await C.page.evaluate(async (game) => (await (await fetch(`/api/games/${game}/version`)).json()).version, id);
check(version === 0, `the refused requests changed the game (version ${version})`);
for (const p of [A.page, B.page, C.page]) check(await logLength(p) === 0, 'a refused request put an action in a log');
check((await hand(A.page, 1)).faces === 8, 'A\'s hand changed');
log('every attempt refused with 403; the game is at version 0, every log empty');

// ---- 3. A moves: B's and C's pages follow without a reload ----------------------------------------------------------
before = await renders(A.page);
await A.page.click('#actions button.action[data-index="0"]');
await A.page.waitForFunction((n) => Number(document.body.dataset.renders || 0) > n, before);
await A.page.click('#actions button.action:text-is("draw deck")');
// the log has one entry per turn (issue 34): seat 1's turn of actions 1 and 2
await A.page.waitForFunction(() => document.querySelector('#log li[data-index="2"]') !== null, null, { timeout: 10000 });
const t0 = Date.now();
await B.page.waitForFunction(() => document.querySelector('#log li[data-index="2"]') !== null &&
  document.querySelectorAll('#actions button.action').length > 0, null, { timeout: 10000 });
const followed = Date.now() - t0;
await C.page.waitForFunction(() => document.querySelector('#log li[data-index="2"]') !== null, null, { timeout: 10000 });
check(await B.page.evaluate(() => window.notReloaded === true) && await C.page.evaluate(() => window.notReloaded === true),
  'a page was reloaded');
check((await B.page.textContent('#log')).includes('drew from the deck'), 'B\'s log does not show seat 1\'s draw');
check(await actionCount(C.page) === 0, 'the outsider got actions');
// the outsider's log is the public action texts: no turn_summary hook reads a state for it (issue 34's story)
const outsiderLog = await C.page.evaluate(() => current.data.story.map((t) => t.summary));
check(outsiderLog.length === 1 && /^play \S+, draw deck$/.test(outsiderLog[0]), `the outsider's story: ${outsiderLog}`);
check((await hand(C.page, 1)).faces === 0 && (await hand(B.page, 1)).faces === 0, 'seat 1\'s new hand is shown to another page');
log(`seat 1's move appeared on seat 2's page ${followed} ms after A's page showed it, and on the outsider's; no reload`);
before = await renders(B.page);
await B.page.click('#actions button.action[data-index="0"]');
await B.page.waitForFunction((n) => Number(document.body.dataset.renders || 0) > n, before);
await A.page.waitForFunction(() => document.querySelector('#log li[data-index="3"]') !== null, null, { timeout: 10000 });
log('seat 2\'s move appeared on seat 1\'s page');

// ---- 4. no undo of another person's move; another site's Origin -------------------------------------------------------
await A.page.click('#undo');
await A.page.waitForFunction(() => document.getElementById('message').textContent.includes('seat 2 has decided since'), null, { timeout: 10000 });
check(await logLength(A.page) === 2, 'A\'s refused undo changed the log');  // two turns: seat 1's, seat 2's
log(`A's undo refused: ${await A.page.textContent('#message')}`);
const forged = await C.context.request.post(`${URL}api/games`, { headers: { Origin: 'http://evil.example', 'Content-Type': 'text/plain' },
  data: '{"ruleset": "lost-cities"}' });
check(forged.status() === 403 && (await forged.text()).includes('header Origin'), `another site's Origin: ${forged.status()}`);
log('a POST with Origin http://evil.example: 403');

check(errors.length === 0, `errors in the pages: ${errors.join(' | ')}`);
await browser.close();
log('PASS');
