// table_lib.mjs — what the browser tests of the page's game table share (table_test.mjs, table_details_test.mjs,
// serve_test.mjs):
// the environment run.sh passes (BROWSER, URL, TMP, SHOTS, HR), a timed log, `check`, and `openTable`, which starts
// Debian's headless chromium at 1400×1000 and returns the page with the helpers that wait for it.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

export const { BROWSER, URL, TMP, SHOTS, HR } = process.env;
const started = Date.now();
/// Prints its arguments after the seconds since the test started.
export const log = (...a) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s]`, ...a);
/// Throws `message` unless `cond` holds.
export function check(cond, message) {
  if (!cond) throw new Error(message);
}

/// Starts chromium (its own profile in TMP; `options` added to the launch's, e.g. {acceptDownloads: true}) and
/// returns {context, page, pageErrors (every error the page logged or threw), renders() (the page's render count),
/// waitForHuman(before) (until the page renders past `before` with an action to choose or the game over; fails with
/// the page's message and errors), newGame(ruleset, players, seed, wait = waitForHuman, file = '') (through the
/// header's form; `file`, when given, a house-rule file typed in the "or file" box instead of the chosen ruleset)}.
export async function openTable(options = {}) {
  const context = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(TMP, 'profile-')), {
    executablePath: BROWSER,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    ...options,
  });
  const page = context.pages()[0] || (await context.newPage());
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });

  const renders = () => page.evaluate(() => Number(document.body.dataset.renders || 0));
  async function waitForHuman(before) {
    await page.waitForFunction((n) => {
      if (Number(document.body.dataset.renders || 0) <= n) return false;
      return document.getElementById('status').dataset.over === '1' || document.querySelectorAll('#actions button.action').length > 0;
    }, before, { timeout: 60000 }).catch(async (e) => {
      throw new Error(`${e.message}; the page says '${await page.textContent('#message')}', errors: ${pageErrors.join(' | ')}`);
    });
  }
  async function newGame(ruleset, players, seed, wait = waitForHuman, file = '') {
    await page.selectOption('#ruleset', ruleset);
    await page.fill('#ruleset-path', file);
    await page.fill('#seat-count', String(players.length));
    await page.dispatchEvent('#seat-count', 'change');
    for (let s = 1; s <= players.length; s++) await page.selectOption(`.seat-player[data-seat="${s}"]`, players[s - 1]);
    await page.fill('#seed', String(seed));
    const before = await renders();
    await page.click('#start');
    await wait(before);
  }
  return { context, page, pageErrors, renders, waitForHuman, newGame };
}
