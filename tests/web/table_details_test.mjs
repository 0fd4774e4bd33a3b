// table_details_test.mjs — details of the page of `houserules serve` as a game table (issue 34), in Debian's headless
// chromium driven by playwright-core (run by run.sh: `run.sh HOUSERULES SHOTS table_details_test.mjs`; env: BROWSER,
// URL, TMP, SHOTS, HR):
// - each seat's panel shows its score of the round as the terminal's table does (Rivals: `score 18`, where the match
//   total is still 0), counted on the viewer's own view, and says so where some of that seat's cards are hidden;
// - the seats' expedition columns stand at the same x on every seat's panel (same colour, same x);
// - Lost Valley: hovering a `lay Q,R rN` action (its button, or the place it names) draws the drawn tile, rotated, on
//   the faces it would cover — the faces the tile covers once the action is played;
// - a live game: clicking a log entry shows the table at that moment, read-only, as the seat saw it then (a card it
//   drew later is not in its hand; the other hand and the deck are backs), and "Back to the game" returns.
// Screenshots into SHOTS. Fails on any error in the page's console.
import { spawnSync } from 'node:child_process';
import { BROWSER, URL, TMP, SHOTS, HR, log, check, openTable } from './table_lib.mjs';
import fs from 'node:fs';
import path from 'node:path';

const { context, page, pageErrors, renders, waitForHuman, newGame } = await openTable();
async function clickActionText(text) {
  const before = await renders();
  await page.click(`#actions button.action:text-is("${text}")`);
  await waitForHuman(before);
}
async function shot(name) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  log(`screenshot ${name}.png`);
}
const game = () => page.evaluate(() => current.data);
const seatTitle = (s) => page.textContent(`.group[data-group="seat ${s}"] h3`);

await page.goto(`${URL}?delay=0`);
await page.waitForSelector('body[data-ready="1"]');

// ---- Rivals: each seat's score as the terminal's table shows it ---------------------------------------------------
await newGame('lost-cities-rivals', ['human', 'random'], 11);
const terminal = spawnSync(HR, ['play', 'lost-cities-rivals', '--players', 'human,random', '--seed', '11'],
  { input: '', encoding: 'utf8' }).stdout;
const termScores = [1, 2].map((s) => Number(terminal.match(new RegExp(`Seat ${s}( \\(you\\))?: .*, score (-?\\d+)`))[2]));
check(termScores.some((v) => v !== 0), `the terminal's scores are all 0: ${termScores}`);
for (const s of [1, 2]) {
  const title = await seatTitle(s);
  check(new RegExp(`: score ${termScores[s - 1]}$`).test(title), `Rivals: seat ${s}'s panel reads '${title}', the terminal 'score ${termScores[s - 1]}'`);
}
log(`Rivals: the seats' panels show score ${termScores.join(' and ')}, as the terminal`);

// ---- Lost Cities: the round's score beside the match total; a hidden hand is said not counted -------------------
await newGame('lost-cities', ['human', 'random'], 7);
let g = await game();
const t1 = await seatTitle(1), t2 = await seatTitle(2);
check(/: 0 points · this round score -?\d+$/.test(t1), `Lost Cities: seat 1's panel reads '${t1}'`);
check(/: 0 points · this round score -?\d+ \(of the cards you see\)$/.test(t2), `Lost Cities: seat 2's panel reads '${t2}' (its hand is hidden)`);
check(g.view.scores.length === 2 && g.view.scores.every((v) => Number.isInteger(v)), `Lost Cities: view.scores ${JSON.stringify(g.view.scores)}`);

// ---- the expedition columns: same colour, same x on every seat's panel ---------------------------------------------
const columns = await page.evaluate(() => [...document.querySelectorAll('[data-zone^="expedition."]')]
  .map((z) => ({ name: z.dataset.zone, x: Math.round(z.getBoundingClientRect().left) })));
const colours = [...new Set(columns.map((c) => c.name.split('.')[2]))];
check(colours.length === 5 && columns.length === 10, `Lost Cities: expedition zones drawn: ${columns.map((c) => c.name).join(', ')}`);
for (const colour of colours) {
  const xs = columns.filter((c) => c.name.split('.')[2] === colour).map((c) => c.x);
  check(xs.length === 2 && xs[0] === xs[1], `Lost Cities: the ${colour} expeditions stand at x ${xs.join(' and ')}`);
}
const xs = colours.map((colour) => columns.find((c) => c.name === `expedition.1.${colour}`).x);
check(xs.every((x, i) => i === 0 || x > xs[i - 1]), `Lost Cities: the columns are not side by side: ${xs.join(', ')}`);
log(`Lost Cities: the ${colours.length} expedition columns aligned at x ${xs.join(', ')}`);

// ---- a live game: a log entry shows the table at that moment, as seat 1 saw it then --------------------------------
for (let i = 0; i < 2; i++) {  // two turns of seat 1 (each: lay or discard, then draw from the deck)
  g = await game();
  const lay = g.legal.find((t) => /^(play|discard) /.test(t));
  await clickActionText(lay);
  g = await game();
  await clickActionText(g.legal.find((t) => t === 'draw deck') || g.legal[0]);
}
g = await game();
const mine = g.story.filter((t) => t.seat === 1);
const later = mine[1].summary.match(/drew (\S+) from the deck/);
check(later, `Lost Cities: seat 1's second turn drew no card from the deck: '${mine[1].summary}'`);
const firstEntry = g.story.indexOf(mine[0]);
let before = await renders();
await page.click(`#log li.turn >> nth=${firstEntry}`);
await page.waitForFunction((n) => Number(document.body.dataset.renders) > n && current.data.at !== undefined, before);
const moment = await game();
check(moment.at === mine[0].last && (await page.getAttribute('#status', 'data-at')) === String(mine[0].last),
  `Lost Cities: the first entry shows action ${moment.at}, not ${mine[0].last}`);
check(await page.isVisible('#moment') && (await page.textContent('#moment-text')).includes(`after action ${mine[0].last} of ${g.log.length}`),
  `Lost Cities: the moment is not said: '${await page.textContent('#moment-text')}'`);
const hand = moment.view.zones.find((z) => z.name === 'hand.1').cards;
check(hand.length === 8 && hand.every((c) => c), `Lost Cities: seat 1's hand then: ${JSON.stringify(hand)}`);
check(!hand.some((c) => c.name === later[1]), `Lost Cities: the hand then holds ${later[1]}, drawn only later`);
// (a number card is one of a kind: it lay in the deck then, so nothing the page received names it)
if (/\d$/.test(later[1])) check(!JSON.stringify(moment).includes(`"name":"${later[1]}"`), `Lost Cities: the moment's view names ${later[1]}`);
const other = moment.view.zones.find((z) => z.name === 'hand.2');
check(!other.cards || other.cards.every((c) => c === null), 'Lost Cities: the moment shows seat 2\'s hand');
check((moment.view.zones.find((z) => z.name === 'deck').cards || []).every((c) => c === null), 'Lost Cities: the moment shows the deck');
check(moment.legal.length === 0 && await page.locator('#actions button.action').count() === 0 && await page.isHidden('#action-form'),
  'Lost Cities: a past moment offers actions');
const shownHand = await page.evaluate(() => [...document.querySelectorAll('[data-zone="hand.1"] .card')].map((c) => c.dataset.name));
check(shownHand.length === 8 && !shownHand.includes(later[1]), `Lost Cities: the moment draws the hand ${shownHand.join(' ')}`);
await shot('table-lost-cities-moment');
before = await renders();
await page.click('#moment-back');
await waitForHuman(before);
check((await game()).at === undefined && await page.isHidden('#moment') && (await game()).legal.length > 0, 'Lost Cities: "Back to the game" did not return');
// a moment past the end is refused
const errorsBefore = pageErrors.length;
const past = await page.evaluate(async (id) => (await fetch(`/api/games/${id}?seat=1&at=999`)).status, g.id);
pageErrors.splice(errorsBefore);  // the refused request (400) is expected
check(past === 400, `Lost Cities: at=999 answered ${past}`);
log(`Lost Cities: log entry 1 showed action ${mine[0].last} with seat 1's hand then (no ${later[1]}), read-only`);

// ---- Lost Valley: a tile placement drawn, rotated, where it would go ------------------------------------------------
await newGame('lost-valley', ['human', 'random', 'random'], 3);
await clickActionText('move 1,1');
g = await game();
const lays = g.legal.map((text, index) => ({ text, index })).filter((a) => /^lay \d+,\d+ r\d$/.test(a.text));
check(lays.length >= 2, `Lost Valley: after move 1,1 the actions are ${g.legal.join(', ')}`);
const drawn = g.view.zones.find((z) => z.name === 'drawn').cards[0];
const previewOf = async (index) => page.evaluate((i) => [...document.querySelectorAll(`svg.board g.preview[data-action="${i}"]`)]
  .map((p) => ({ card: p.dataset.card, rotation: p.dataset.rotation, faces: [...p.querySelectorAll('polygon')].map((f) => Number(f.dataset.face)).sort((a, b) => a - b) })), index);
const shown = [];
for (const a of lays) {
  await page.hover(`#actions button.action[data-index="${a.index}"]`);
  const p = await previewOf(a.index);
  check(p.length === 1 && p[0].card === drawn.name && p[0].rotation === a.text.split(' r')[1] && p[0].faces.length > 0,
    `Lost Valley: hovering '${a.text}' draws ${JSON.stringify(p)} (the drawn tile is ${drawn.name})`);
  shown.push(p[0].faces.join());
}
await page.mouse.move(0, 0);
check(await page.locator('svg.board g.preview').count() === 0, 'Lost Valley: the preview stays when the mouse leaves');
// hovering the place the action names draws it too
const place = lays[0].text.split(' ')[1];
await page.locator(`svg.board .place.target[data-place="${place}"]`).hover({ force: true });
check((await previewOf(lays[0].index)).length === 1, `Lost Valley: hovering the place ${place} draws no tile`);
await shot('table-lost-valley-lay');
// played: the tile covers the faces the preview showed
await page.mouse.move(0, 0);
await clickActionText(lays[0].text);
g = await game();
const laid = g.view.boards[0].tiles.find((t) => t.card && t.card.name === drawn.name);
check(laid && [...laid.faces].sort((a, b) => a - b).join() === shown[0], `Lost Valley: '${lays[0].text}' covered ${laid && laid.faces}, the preview showed ${shown[0]}`);
check(`r${laid.rotation}` === lays[0].text.split(' ')[2], `Lost Valley: '${lays[0].text}' laid the tile in rotation ${laid.rotation}`);
log(`Lost Valley: ${lays.length} placements of ${drawn.name} drawn in their rotation; '${lays[0].text}' covered faces ${shown[0]}`);

// ---- Lost Valley: an opponent's score is not counted from its face-down gold -----------------------------------------
// seat 1 pans, mines or ends its turn (the first of those) until seat 2 or 3 has a gold token, face down to seat 1
const errorsThen = pageErrors.length;
const found = await page.evaluate(async () => {
  const post = (p, b) => fetch(p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.json());
  const made = await post('/api/games', { ruleset: 'lost-valley', players: ['human', 'random', 'random'], seed: 5 });
  for (let i = 0; i < 60; i++) {
    await post(`/api/games/${made.id}/bot`, { until_human: true });
    const d = await (await fetch(`/api/games/${made.id}?seat=1`)).json();
    const bag = d.view.zones.find((z) => z.name === 'gold.2');
    if (bag.count > 0) return { id: made.id, seat: 2, bag, scores: d.view.scores };
    if (!d.legal.length) return null;
    const pick = d.legal.findIndex((t) => /^(pan|mine|end turn)/.test(t));
    await post(`/api/games/${made.id}/play`, { index: Math.max(0, pick) });
  }
  return null;
});
pageErrors.splice(errorsThen);  // (asking the bots to move when seat 1 is to move: 409, expected)
check(found, 'Lost Valley: seat 2 gathered no gold in 60 turns');
check(found.bag.cards.every((c) => c === null) && found.scores[1] === null,
  `Lost Valley: seat 1's view counts seat 2's face-down gold: ${JSON.stringify(found)}`);
await page.goto(`${URL}?delay=0#game=${found.id}`);
await page.reload();  // (only the part after # changed: no load without it)
await page.waitForSelector('body[data-ready="1"]');
await page.waitForFunction(() => current && current.data.view);
const bagTitle = await seatTitle(2);
check(/: score hidden$/.test(bagTitle), `Lost Valley: seat 2's panel reads '${bagTitle}' with ${found.bag.count} face-down gold token(s)`);
log(`Lost Valley: seat 2 with ${found.bag.count} face-down gold token(s): '${bagTitle}'`);

check(pageErrors.length === 0, `errors in the page: ${pageErrors.join(' | ')}`);
await context.close();
log('PASS');
