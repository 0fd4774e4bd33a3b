// table_test.mjs — the page of `houserules serve` as a game table (issue 34), in Debian's headless chromium driven by
// playwright-core (run by run.sh: `run.sh HOUSERULES SHOTS table_test.mjs`; env: BROWSER, URL, TMP, SHOTS, HR).
// For every ruleset and variant, at 1400×1000: a game starts and a few moves are played by clicking; the map or
// tracks take at least half of the table's width; no counter the ruleset's [view] leaves out (its bookkeeping) and no
// raw zone name is in the visible text unless "debug" is on (then they are); the hands are in the terminal's order;
// each log entry is the turn's summary; a game played to its end shows the winner and the score breakdown. Then:
// Lost Valley's map (places the legal actions name outlined, a click plays the action, figures never on top of each
// other, coordinates, legend); the seat's secrets (debug shows nothing of another hand; a table of bots hides its
// face-down things until "reveal all"); a replay's header, five quick clicks on ▶ = five actions, the download's
// name, a 64-bit seed kept exact, number keys; a 390 px wide window still plays. Screenshots of each ruleset go
// into SHOTS. Fails on any error in the page's console.
import { spawnSync } from 'node:child_process';
import { BROWSER, URL, TMP, SHOTS, HR, log, check, openTable } from './table_lib.mjs';
import fs from 'node:fs';
import path from 'node:path';

const { context, page, pageErrors, renders, waitForHuman, newGame } = await openTable({ acceptDownloads: true });
const status = () => page.textContent('#status');
async function clickAction(index) {
  const before = await renders();
  await page.click(`#actions button.action[data-index="${index}"]`);
  await waitForHuman(before);
}
async function setDebug(on) {
  if ((await page.isChecked('#debug')) !== on) await page.click('#debug');
}
async function shot(name) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  log(`screenshot ${name}.png`);
}
/// What the page holds of the game: the view's counters and zones, the hints, the story.
const game = () => page.evaluate(() => ({ view: current.data.view, hints: current.data.hints || {}, story: current.data.story,
  legal: current.data.legal, seed: current.data.seed, players: current.data.players }));
const tableText = () => page.evaluate(() => document.getElementById('table').innerText);
const words = (text) => new Set(text.split(/[^A-Za-z0-9_.]+/).filter((w) => w));

/// The checks every ruleset's table passes (see the head of this file).
async function checkTable(name) {
  const g = await game();
  const view = g.view;
  // the map or the tracks: at least half of the table's width
  if (view.boards.length || view.tracks.length) {
    const widths = await page.evaluate(() => ({
      table: document.getElementById('table').getBoundingClientRect().width,
      main: document.getElementById('main-area').getBoundingClientRect().width,
      board: Math.max(0, ...[...document.querySelectorAll('svg.board, .main-area .track')].map((e) => e.getBoundingClientRect().width)),
    }));
    check(widths.main >= widths.table / 2 && widths.board >= widths.table / 2 - 30,
      `${name}: the map/tracks are ${Math.round(widths.board)} px (main area ${Math.round(widths.main)}) of a ${Math.round(widths.table)} px table`);
  }
  // counters the ruleset leaves out, and raw zone names, are not in the visible text; debug shows them
  const visible = Array.isArray(g.hints.counters) ? new Set(g.hints.counters) : null;
  const internal = visible ? view.counters.map((c) => c.name).filter((n) => !visible.has(n)) : [];
  const labelled = view.zones.filter((z) => z.name.includes('.')).map((z) => z.name);
  let text = words(await tableText());
  // (a counter named like a word of the game's labels, Rivals' `pile` and its "draw pile 1", is checked by element)
  const labelWords = words(Object.values(g.hints.labels || {}).concat(Object.values(g.hints.counter_labels || {})).join(' '));
  for (const n of internal) check(labelWords.has(n) || !text.has(n), `${name}: the internal counter '${n}' is shown without debug`);
  check(await page.locator(internal.map((n) => `[data-counter="${n}"]`).join(',') || '#none').count() === 0, `${name}: an internal counter is drawn`);
  const raw = labelled.filter((n) => text.has(n));
  check(raw.length === 0, `${name}: raw zone names shown: ${raw.join(', ')}`);
  await setDebug(true);
  text = words(await tableText());
  for (const n of internal) check(text.has(n), `${name}: debug does not show the counter '${n}'`);
  for (const n of labelled) check(text.has(n), `${name}: debug does not show the zone '${n}'`);
  await setDebug(false);
  // each log entry is a turn with its summary (the ruleset's turn_summary line)
  const entries = await page.evaluate(() => [...document.querySelectorAll('#log li.turn')].map((li) => li.querySelector('.summary').textContent));
  check(entries.length === g.story.length && entries.length > 0, `${name}: ${entries.length} log entries for ${g.story.length} turns`);
  entries.forEach((e, i) => check(e === g.story[i].summary && e.length > 0, `${name}: log entry ${i + 1} is '${e}', not the turn's summary`));
  log(`${name}: ${internal.length} internal counters hidden, ${labelled.length} zones labelled, ${entries.length} turns in the log`);
  return g;
}

await page.goto(`${URL}?delay=0`);
await page.waitForSelector('body[data-ready="1"]');
const rulesets = await page.evaluate(() => rulesetList.flatMap((r) => [{ id: r.id, n: r.default_players }, ...r.variants.map((v) => ({ id: v.id, n: r.default_players }))]));
log(`rulesets and variants: ${rulesets.map((r) => r.id).join(', ')}`);

// The header links to the chosen ruleset's rules (issue 38): a variant's link is its base's README.
for (const [choice, base] of [['lost-valley', 'lost-valley'], ['lost-cities/nothing-in-hand', 'lost-cities']]) {
  await page.selectOption('#ruleset', choice);
  const href = await page.getAttribute('#rules-link', 'href');
  check(href === `/api/rulesets/${base}/rules`, `${choice}: the rules link is '${href}'`);
  const text = await page.evaluate(async (h) => (await fetch(h)).text(), href);
  check(text.startsWith('# '), `${choice}: the rules link gives no README: '${text.slice(0, 80)}'`);
}

// ---- every ruleset and variant: a few moves by clicking, the table's checks, the end of a game --------------------
/// Starts `id` with the first seat count of `counts` it takes (a variant may need other counts than its base; the
/// ruleset list does not say): each count is tried by the API first. Returns the count used.
async function startAny(id, counts, players) {
  for (const n of counts) {
    const errors = pageErrors.length;
    const ok = await page.evaluate(async ([r, k]) => (await fetch('/api/games', { method: 'POST',
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ruleset: r, players: Array(k).fill('random'), seed: 1 }) })).ok, [id, n]);
    pageErrors.splice(errors);  // the refused tries (400) are expected
    if (!ok) continue;
    await newGame(id, players(n), 11);
    return n;
  }
  throw new Error(`${id}: starts with none of ${counts.join(', ')} seats`);
}
for (const { id, n: base } of rulesets) {
  const n = await startAny(id, [base, 2, 3, 4], (k) => ['human', ...Array(k - 1).fill('random')]);
  for (let i = 0; i < 3; i++) {
    const legal = (await game()).legal;
    if (!legal.length) break;
    await clickAction(Math.min(1, legal.length - 1));
  }
  await checkTable(id);
  if (!id.includes('/')) await shot(`table-${id}`);
  // bots only, to the end: the winner and the score breakdown on the table
  await startAny(id, [n], (k) => Array(k).fill('random'));
  await page.waitForFunction(() => document.getElementById('status').dataset.over === '1', null, { timeout: 120000 });
  const g = await game();
  const winner = await page.textContent('#result .winner');
  check(/^(Winner|Tie): seat \d/.test(winner), `${id}: the end shows no winner: '${winner}'`);
  const rows = await page.locator('#result .breakdown tr[data-seat]').count();
  check(rows === g.view.seats, `${id}: the breakdown has ${rows} rows for ${g.view.seats} seats`);
  const last = g.story.at(-1).round_end;
  check(last && last.breakdown.every((b) => b), `${id}: the last turn carries no score breakdown`);
  const how = await page.locator('#result .breakdown td.how').first().textContent();
  check(how === last.breakdown[0], `${id}: the breakdown shown is '${how}', not the ruleset's '${last.breakdown[0]}'`);
  if (!id.includes('/')) await shot(`table-${id}-end`);
  log(`${id}: ${winner}`);
}

// ---- the hand in the terminal's order (the describe hook sorts it: "Your hand: ...") -------------------------------
await newGame('lost-cities', ['human', 'random'], 7);
const hand = await page.evaluate(() => [...document.querySelectorAll('[data-zone="hand.1"] .card')].map((c) => c.dataset.name));
const terminal = spawnSync(HR, ['play', 'lost-cities', '--players', 'human,random', '--seed', '7'], { input: '', encoding: 'utf8' }).stdout;
const termHand = terminal.match(/Your hand: (.*)/)[1].trim().split(/\s+/);
check(hand.join(' ') === termHand.join(' '), `the hand reads ${hand.join(' ')}, the terminal ${termHand.join(' ')}`);
log(`hand in the terminal's order: ${hand.join(' ')}`);

// ---- secrets: debug shows no card of another seat's hand; bots only: face-down things only with "reveal all" -------
await setDebug(true);
const other = await page.evaluate(() => current.data.view.zones.find((z) => z.name === 'hand.2'));
check(!other.cards || other.cards.every((c) => c === null), 'the page received a card of seat 2\'s hand');
check(await page.locator('[data-zone="hand.2"] .card:not(.back)').count() === 0, 'debug draws a card of seat 2\'s hand');
const rawText = await page.textContent('.group.debug pre.raw');
check(/hand\.2 \[owner\] 8: \?( \?){7}$/m.test(rawText), `debug shows seat 2's hand as: ${rawText.match(/hand\.2.*/)}`);
await setDebug(false);
await page.fill('#delay', '60000');  // the bots wait: the table of bots stays mid-game
await newGame('lost-cities', ['random', 'random'], 7, (n) => page.waitForFunction((k) =>
  Number(document.body.dataset.renders) > k && current.kind === 'game' && current.data.view.viewer === 0, n));
check(await page.isVisible('#reveal-box'), 'a table of bots offers no "reveal all"');
check(await page.locator('[data-zone="deck"] .card:not(.back)').count() === 0, 'bots only: the deck is face up without "reveal all"');
check(await page.locator('[data-zone="hand.1"] .card:not(.back)').count() === 0, 'bots only: a hand is face up without "reveal all"');
await page.click('#reveal');
check(await page.locator('[data-zone="deck"] .card:not(.back)').count() === 44, 'bots only: "reveal all" does not show the deck');
check(await page.locator('[data-zone="hand.1"] .card:not(.back)').count() === 8, 'bots only: "reveal all" does not show the hands');
await page.click('#reveal');
await page.fill('#delay', '0');
log('secrets: debug shows no other hand; a table of bots hides its deck and hands until "reveal all"');

// ---- Lost Valley's map: places to click, figures apart, coordinates, legend -------------------------------------
await newGame('lost-valley', ['human', 'random', 'random'], 3);
let g = await game();
const figs = await page.evaluate(() => [...document.querySelectorAll('svg.board g.figure circle')].map((c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]));
check(figs.length === 3, `Lost Valley: ${figs.length} prospectors drawn`);
for (let i = 0; i < figs.length; i++)
  for (let j = i + 1; j < figs.length; j++)
    check(Math.hypot(figs[i][0] - figs[j][0], figs[i][1] - figs[j][1]) >= 0.25, 'Lost Valley: two prospectors overlap on the start vertex');
check(await page.locator('.legend .legend-item').count() === 3, 'Lost Valley: no legend of the three seats');
check(await page.locator('svg.board .rim').count() >= 4, 'Lost Valley: no coordinates on the rims');
const moves = g.legal.filter((t) => /^move \d+,\d+$/.test(t));
const targets = await page.evaluate(() => [...document.querySelectorAll('svg.board .place.target')].map((p) => p.dataset.place));
for (const m of moves) check(targets.includes(m.slice(5)), `Lost Valley: '${m}' does not highlight its vertex`);
const place = moves.at(-1).slice(5);
await page.hover(`#actions button.action:text-is("${moves.at(-1)}")`).catch(() => {});
check(await page.locator(`svg.board .place.hover[data-place="${place}"]`).count() === 1, 'Lost Valley: hovering a move does not highlight its vertex');
let before = await renders();
await page.locator(`svg.board .place.target[data-place="${place}"]`).click({ force: true });
if (await page.locator('#place-menu').count()) await page.click(`#place-menu button:text-is("move ${place}")`);
await waitForHuman(before);
g = await game();
const mine = g.view.boards[0].figures.find((f) => f.owner === 1);
const w = g.view.boards[0].width + 1;
check(`${mine.site % w},${Math.floor(mine.site / w)}` === place, `Lost Valley: clicking ${place} did not move the prospector there`);
log(`Lost Valley: clicking vertex ${place} played 'move ${place}'`);
await shot('table-lost-valley-play');
// hovering a vertex names it
await page.locator('svg.board .place.vertex').first().hover({ force: true });
check(/^vertex \d+,\d+$/.test(await page.textContent('#board-hover')), 'Lost Valley: hovering a vertex shows no coordinates');

// ---- number keys choose actions, as at the terminal --------------------------------------------------------------
await newGame('lost-cities', ['human', 'random'], 5);
g = await game();
const firstText = g.legal[0];
before = await renders();
await page.keyboard.press('1');
await waitForHuman(before);
const afterKey = await game();
check(afterKey.story[0].summary.length > 0 && afterKey.legal.join() !== g.legal.join(), `key 1 did not play '${firstText}'`);
log(`key 1 played '${firstText}': ${afterKey.story[0].summary}`);

// ---- downloads named <ruleset>-<seed>.jsonl; a 64-bit seed stays exact -------------------------------------------
await newGame('lost-cities', ['human', 'random'], '18446744073709551557');
check((await status()).includes('seed 18446744073709551557'), `the 64-bit seed is not exact: ${await status()}`);
const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
check(download.suggestedFilename() === 'lost-cities-18446744073709551557.jsonl', `the transcript downloads as ${download.suggestedFilename()}`);
const saved = path.join(TMP, 'download.jsonl');
await download.saveAs(saved);
check(fs.readFileSync(saved, 'utf8').includes('"seed":18446744073709551557'), 'the transcript header lost the seed');
log(`download: ${download.suggestedFilename()}`);

// ---- a replay: the header names its ruleset and players; five quick clicks are five actions -----------------------
const valley = fs.readFileSync(path.join(TMP, 'lost-valley.jsonl'), 'utf8');
await page.setInputFiles('#transcript-file', { name: 'lost-valley.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(valley) });
await page.waitForFunction(() => (document.getElementById('status').textContent || '').includes('lost-valley.jsonl'));
const header = await page.textContent('#replay-header');
check(header.includes('lost-valley') && header.includes('seat 3 random'), `the replay's header: ${header}`);
check(await page.inputValue('#ruleset') === 'lost-valley', `the form still offers ${await page.inputValue('#ruleset')}`);
check(await page.locator('.seat-player').count() === 3, 'the form does not show the transcript\'s three seats');
const replayStep = /\/api\/replays\/[^/?]+\?at=/;
await page.route(replayStep, async (route) => { await new Promise((r) => setTimeout(r, 150)); await route.continue(); });
for (let i = 0; i < 5; i++) await page.click('#forward');
await page.waitForFunction(() => document.getElementById('status').dataset.at === '5', null, { timeout: 10000 });
await page.waitForTimeout(500);
check(await page.getAttribute('#status', 'data-at') === '5', `five clicks on > went to action ${await page.getAttribute('#status', 'data-at')}`);
await page.unroute(replayStep);
// face-down piles and pools are backs until "reveal all"
check(await page.locator('[data-zone="pool.green"] .card:not(.back)').count() === 0, 'the replay shows the gold pool face up');
await page.click('#reveal');
check(await page.locator('[data-zone="pool.green"] .card:not(.back)').count() > 0, '"reveal all" does not show the gold pool');
await page.click('#reveal');
await page.click('#last');
await page.waitForFunction(() => document.getElementById('status').textContent.includes('game over'), null, { timeout: 10000 });
check(/^(Winner|Tie)/.test(await page.textContent('#result .winner')), 'the replay\'s end shows no winner');
await shot('table-lost-valley-replay');
log('replay: header, five quick steps, reveal all, the end');

// ---- 390 px wide: still plays -------------------------------------------------------------------------------------
await page.setViewportSize({ width: 390, height: 844 });
await newGame('lost-cities', ['human', 'random'], 9);
const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
check(overflow <= 392, `at 390 px the page is ${overflow} px wide`);
before = await renders();
await page.click('#actions button.action[data-index="0"]');
await waitForHuman(before);
check(await page.locator('#log li.turn').count() >= 1, 'at 390 px a click played nothing');
await shot('table-phone-lost-cities');

check(pageErrors.length === 0, `errors in the page: ${pageErrors.join(' | ')}`);
await context.close();
log('PASS');
