// app.js — the page of `houserules serve`: play a game against bots, step through a transcript. It draws any
// ruleset from the generic view of the kernel's layout (cli/web/web_view.hpp; docs/serve.md) plus the optional
// [view] hints of the ruleset's TOML. No framework, no build step.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const SEAT_COLOURS = ['#c0392b', '#2874a6', '#229954', '#b9770e', '#7d3c98', '#17a589', '#566573', '#a04000'];
const NAMED_COLOURS = { yellow: '#f2c641', blue: '#5b9ae0', white: '#f4f4f2', green: '#4fb36b', red: '#e0574f',
  purple: '#9b6bd1', black: '#444', grey: '#aaa', gray: '#aaa', orange: '#f0913a' };

let current = null;      // {kind: 'game'|'replay', data}
let loopToken = 0;       // a new game or replay cancels the bot loop of the previous one
let rulesetList = [];

// ---- API --------------------------------------------------------------------------------------------------
async function api(method, path, body, raw) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.body = raw ? body : JSON.stringify(body);
    init.headers['Content-Type'] = raw === 'json' || !raw ? 'application/json' : 'application/x-ndjson';
  }
  if (seatKey) init.headers['X-Seat-Key'] = seatKey;  // this page's seat link (friends at one table, below)
  if (method !== 'GET') busy++;
  try {
    const res = await fetch(path, init);
    const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
    if (!res.ok) throw Object.assign(new Error(data.error || `HTTP ${res.status}`), { status: res.status });
    return data;
  } finally {
    if (method !== 'GET') busy--;
  }
}

// ---- friends at one table: seat links and updates when others move (docs/serve.md, "Friends at one table") ------
let seatKey = null;        // the key of this page's seat link (#key=...), sent as X-Seat-Key; null: none
let sharedServer = false;  // the server needs a seat link to see a hand or to act (serve --host/--public-url/--private)
let busy = 0;              // this page's own actions under way: a poll does not redraw under them

function gameHash(id) {
  return seatKey ? `game=${id}&key=${seatKey}` : `game=${id}`;
}

/// After New game: on a shared server this page plays its own (first human) seat with that seat's key; the links of
/// the other seats (of every seat, at a hot seat on this machine) are shown to copy and send.
function adoptLinks(g) {
  const links = g.links || [];
  const mine = sharedServer ? links.find((l) => l.seat === g.seat) : null;
  seatKey = mine ? mine.key : null;
  const others = sharedServer || links.length >= 2 ? links.filter((l) => l !== mine) : [];
  sessionStorage.setItem(`links:${g.id}`, JSON.stringify(others));
  drawLinks(g.id, others);
}

function drawLinks(id, links) {
  const box = $('seat-links');
  box.innerHTML = '';
  if (links.length) {
    box.appendChild(el('p', '', 'Seat links: send each person the link of their seat (it shows that seat\'s hand and plays for it):'));
    for (const l of links) {
      const row = el('div', 'seat-link');
      row.dataset.seat = l.seat;
      const input = el('input');
      input.readOnly = true;
      input.value = `${location.origin}${location.pathname}#game=${id}&key=${l.key}`;
      input.size = 28;
      const copy = el('button', '', 'Copy');
      copy.type = 'button';
      copy.addEventListener('click', () => {
        input.select();
        (navigator.clipboard ? navigator.clipboard.writeText(input.value) : Promise.reject()).catch(() => document.execCommand('copy'));
      });
      row.append(`Seat ${l.seat} `, input, copy);
      box.appendChild(row);
    }
  } else if (sharedServer && !seatKey) {
    box.appendChild(el('p', 'watching', 'You are watching: without a seat link you see the public table only.'));
  }
  box.hidden = !box.children.length;
}

/// Every second, while a game of several people (or a shared server's game) is shown: asks its version, and when it
/// changed (someone else moved), draws the game again and moves the bots if they are to move.
async function poll() {
  if (!current || current.kind !== 'game' || busy || current.data.view.over) return;
  const d = current.data;
  if (!sharedServer && !seatKey && d.players.filter((p) => p === 'human').length < 2) return;
  try {
    const v = await api('GET', `/api/games/${d.id}/version`);
    if (v.version === d.version || busy || !current || current.data !== d) return;
    const seat = seatKey ? 0 : new URLSearchParams(location.hash.slice(1)).get('seat') || 0;
    const g = await api('GET', `/api/games/${d.id}?seat=${seat}`);
    if (busy || !current || current.data !== d) return;
    show({ kind: 'game', data: g });
    if (g.bot_to_move) runBots();
  } catch (e) {
    /* the next poll tries again; an action says what is wrong */
  }
}

function showMessage(text, info) {
  const m = $('message');
  m.hidden = !text;
  m.textContent = text || '';
  m.className = info ? 'info' : '';
}

// ---- setup form -------------------------------------------------------------------------------------------
async function loadRulesets() {
  rulesetList = await api('GET', '/api/rulesets');
  const select = $('ruleset');
  select.innerHTML = '';
  for (const r of rulesetList) {
    const group = document.createElement('optgroup');
    group.label = r.name;
    group.appendChild(new Option(r.id, r.id));
    for (const v of r.variants) group.appendChild(new Option(v.id, v.id));
    select.appendChild(group);
  }
  select.addEventListener('change', drawSeatChoices);
  drawSeatChoices();
}

function baseOf(id) {
  return rulesetList.find((r) => r.id === id.split('/')[0]) || rulesetList[0];
}

function drawSeatChoices() {
  const base = baseOf($('ruleset').value || '');
  // the rules of the chosen ruleset (a variant's are its base's README, which names the variants)
  if (base) $('rules-link').href = `/api/rulesets/${encodeURIComponent(base.id)}/rules`;
  const box = $('seats');
  const old = [...box.querySelectorAll('select')].map((s) => s.value);
  box.innerHTML = '';
  const count = document.createElement('input');
  count.type = 'number';
  count.id = 'seat-count';
  // A variant may take other seat counts than its base (three-player, four-player-teams): the list does not give
  // them, so any count goes and the server's answer names the counts it takes.
  const variant = ($('ruleset').value || '').includes('/');
  count.min = variant ? 1 : base.min_players;
  count.max = variant ? 8 : base.max_players;
  count.value = Math.min(Math.max(old.length || base.default_players, Number(count.min)), Number(count.max));
  const label = document.createElement('label');
  label.append('Seats ', count);
  box.appendChild(label);
  const seatsBox = document.createElement('span');
  box.appendChild(seatsBox);
  const draw = () => {
    // a second change event (the field losing focus) keeps the players chosen since
    const chosen = [...seatsBox.querySelectorAll('select')].map((x) => x.value);
    chosen.forEach((v, i) => { old[i] = v; });
    seatsBox.innerHTML = '';
    for (let s = 1; s <= Number(count.value); s++) {
      const sel = document.createElement('select');
      sel.className = 'seat-player';
      sel.dataset.seat = s;
      for (const p of ['human', 'random', 'greedy', 'ismcts']) sel.appendChild(new Option(p, p));
      sel.value = old[s - 1] || (s === 1 ? 'human' : 'greedy');
      const l = document.createElement('label');
      l.append(`${s}: `, sel);
      seatsBox.appendChild(l);
    }
  };
  count.addEventListener('change', draw);
  draw();
}

async function newGame(ev) {
  ev.preventDefault();
  const ruleset = $('ruleset-path').value.trim() || $('ruleset').value;
  const players = [...document.querySelectorAll('.seat-player')].map((s) => s.value);
  let body = JSON.stringify({ ruleset, players });
  const seed = $('seed').value.trim();
  // The seed's digits go into the JSON as they are: a 64-bit seed is not exact as a JavaScript number.
  if (/^[0-9]{1,20}$/.test(seed)) body = `${body.slice(0, -1)},"seed":${seed}}`;
  else if (seed !== '') return showMessage(`the seed must be a whole number from 0, not '${seed}'`);
  try {
    const g = await api('POST', '/api/games', body, 'json');
    showMessage('');
    startGame(g);
  } catch (e) {
    showMessage(e.message);
  }
}

function startGame(g) {
  loopToken++;
  adoptLinks(g);
  location.hash = gameHash(g.id);
  show({ kind: 'game', data: g });
  runBots();
}

// ---- playing ------------------------------------------------------------------------------------------------
function botDelay() {
  const v = Number($('delay').value);
  return Number.isFinite(v) && v >= 0 ? v : 700;
}

async function runBots() {
  const token = ++loopToken;
  while (current && current.kind === 'game' && current.data.bot_to_move && token === loopToken) {
    await new Promise((r) => setTimeout(r, botDelay()));
    if (token !== loopToken) return;
    try {
      // no pause asked: every bot action at once, and only the position a person looks at is drawn
      const g = await api('POST', `/api/games/${current.data.id}/bot`, { until_human: botDelay() === 0 });
      if (token !== loopToken) return;
      show({ kind: 'game', data: g });
    } catch (e) {
      if (e.status !== 409 || !(sharedServer || seatKey)) showMessage(e.message);  // 409: another page moved them
      return;
    }
  }
}

async function play(body) {
  const g = current.data;
  try {
    const next = await api('POST', `/api/games/${g.id}/play`, Object.assign(g.seat ? { seat: g.seat } : {}, body));
    showMessage('');
    show({ kind: 'game', data: next });
    runBots();
  } catch (e) {
    showMessage(e.message);  // the game is unchanged: nothing to redraw
  }
}

async function undo() {
  try {
    const g = await api('POST', `/api/games/${current.data.id}/undo`, current.data.seat ? { seat: current.data.seat } : {});
    showMessage('');
    loopToken++;
    show({ kind: 'game', data: g });
    runBots();
  } catch (e) {
    showMessage(e.message);
  }
}

// ---- replays --------------------------------------------------------------------------------------------------
async function openTranscript(name, text) {
  try {
    const r = await api('POST', `/api/replays?name=${encodeURIComponent(name)}`, text, true);
    loopToken++;
    showMessage('');
    location.hash = `replay=${r.id}`;
    showReplayInForm(r);
    show({ kind: 'replay', data: r });
  } catch (e) {
    showMessage(e.message);
  }
}

let replayTarget = null;  // the action the replay is asked to show (clicks pile up here, none is dropped)
let stepping = false;     // a request for a replay position is on its way

/// Steps `delta` actions from the last position asked for (not the last one drawn: five quick clicks are five).
function stepBy(delta) {
  stepTo((replayTarget ?? current.data.at) + delta);
}

async function stepTo(at) {
  replayTarget = Math.max(0, Math.min(current.data.total, at));
  if (stepping) return;
  stepping = true;
  try {
    while (current.kind === 'replay' && replayTarget !== null && replayTarget !== current.data.at) {
      const want = replayTarget;
      show({ kind: 'replay', data: await api('GET', `/api/replays/${current.data.id}?at=${want}`) });
    }
  } catch (e) {
    showMessage(e.message);
  } finally {
    stepping = false;
    replayTarget = null;
  }
}

/// The header's form shows the transcript's ruleset and players (a new game from there plays the same table).
function showReplayInForm(r) {
  const select = $('ruleset');
  if ([...select.options].some((o) => o.value === r.ruleset)) {
    select.value = r.ruleset;
    $('ruleset-path').value = '';
  } else {
    $('ruleset-path').value = r.ruleset;
  }
  drawSeatChoices();
  $('seat-count').value = r.players.length;
  $('seat-count').dispatchEvent(new Event('change'));
  r.players.forEach((p, i) => {
    const sel = document.querySelector(`.seat-player[data-seat="${i + 1}"]`);
    if (sel && [...sel.options].some((o) => o.value === p)) sel.value = p;
  });
  $('seed').value = r.seed;
}

// ---- drawing ------------------------------------------------------------------------------------------------
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---- scenes: components the rules draw themselves (the draw_component hook; docs/writing-rules.md) ----------------
function sceneOf(card) {
  const scenes = card && current && current.view && current.view.scenes;
  return (scenes && scenes[card.id]) || null;
}

function sceneColour(c) {
  return c === 'none' ? 'none' : NAMED_COLOURS[c] || c;
}

/// One shape of a scene as an SVG element. The server checked every value (numbers in range, colour names or
/// #rgb/#rrggbb, texts of at most 40 bytes); texts become text nodes, never markup.
function sceneShape(s) {
  const common = { fill: sceneColour(s.fill), stroke: sceneColour(s.stroke), 'stroke-width': Number(s.stroke_width),
    opacity: Number(s.opacity), 'data-shape': s.shape };
  switch (s.shape) {
    case 'rect':
      return svgEl('rect', { x: Number(s.x), y: Number(s.y), width: Number(s.w), height: Number(s.h), rx: Number(s.rx), ...common });
    case 'circle':
      return svgEl('circle', { cx: Number(s.cx), cy: Number(s.cy), r: Number(s.r), ...common });
    case 'polygon': {
      const p = s.points.map(Number);
      const points = [];
      for (let i = 0; i + 1 < p.length; i += 2) points.push(`${p[i]},${p[i + 1]}`);
      return svgEl('polygon', { points: points.join(' '), ...common });
    }
    case 'line':
      return svgEl('line', { x1: Number(s.x1), y1: Number(s.y1), x2: Number(s.x2), y2: Number(s.y2), ...common });
    case 'text':
      return svgEl('text', { x: Number(s.x), y: Number(s.y), 'font-size': Number(s.size), 'text-anchor': s.anchor === 'start' || s.anchor === 'end' ? s.anchor : 'middle',
        'font-weight': s.bold ? 'bold' : 'normal', 'dominant-baseline': 'central', ...common }, String(s.text));
    default:
      return svgEl('g', { 'data-shape': 'unknown' });
  }
}

/// The scene of `card` as an <svg> `width` wide (in the unit of the parent: px on the page, board units inside a
/// board), its height width x aspect; `at` = [x, y] places its centre (inside a board's SVG).
function sceneSvg(card, scene, width, at) {
  const height = width * scene.aspect;
  const attrs = { class: 'scene', viewBox: `0 0 1 ${scene.aspect}`, width, height };
  if (at) Object.assign(attrs, { x: at[0] - width / 2, y: at[1] - height / 2 });
  const svg = svgEl('svg', attrs);
  svg.dataset.card = card.name;
  for (const s of scene.shapes) svg.appendChild(sceneShape(s));
  svg.appendChild(svgEl('title', {}, card.name));
  return svg;
}

function hints() {
  return (current && current.data.hints) || {};
}

/// Whether a component's attribute value may be used as a CSS colour: a plain name, #rgb/#rgba/#rrggbb/#rrggbbaa,
/// or rgb()/rgba()/hsl()/hsla() of numbers (as the server checks the hints: cli/web/css_colour.hpp). Anything
/// else (`url(...)`, `var(...)`, expressions) is never put into the page's CSS.
function isColour(value) {
  if (typeof value !== 'string' || value.length > 64) return false;
  const v = value.toLowerCase();
  return /^[a-z]{3,20}$/.test(v) || /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.test(v) ||
    /^(rgba?|hsla?)\((\s|[0-9.%,/+-]|deg)*[0-9](\s|[0-9.%,/+-]|deg)*\)$/.test(v);
}

/// The fill of a card or tile: the hint's colour for the value of its colour attribute, else that value as a colour.
function cardColour(card) {
  if (!card) return null;
  const h = hints();
  const key = [h.colour_attribute, 'colour'].find((k) => k && card.attrs[k] !== undefined);
  if (!key) return null;
  const value = card.attrs[key];
  const table = h.colours || {};
  if (table[String(value)] && isColour(table[String(value)])) return table[String(value)];
  if (typeof value === 'string') return NAMED_COLOURS[value] || (isColour(value) ? value : null);
  return null;
}

function cardEl(card) {
  if (!card) return el('div', 'card back', '?');
  const scene = sceneOf(card);
  const c = el('div', scene ? 'card drawn' : 'card', scene ? undefined : card.name);
  c.dataset.name = card.name;
  c.title = `${card.name} ${JSON.stringify(card.attrs)}`;
  const colour = cardColour(card);
  if (scene) c.appendChild(sceneSvg(card, scene, 32));
  else if (colour) c.style.background = colour;
  c.addEventListener('click', () => selectCard(card.name, c));
  return c;
}

// ---- the ruleset's [view] hints: names to the game's words (docs/serve.md, "Drawing hints") --------------------
/// The entry of a hint table (`labels`, `groups`...) for `name`: its exact key, else the first key with `*` parts
/// (one dot-separated part each) that matches; {value, parts: the parts the stars matched} or null.
function hintFor(table, name) {
  if (!table) return null;
  if (Object.prototype.hasOwnProperty.call(table, name)) return { value: table[name], parts: [] };
  const words = name.split('.');
  for (const [key, value] of Object.entries(table)) {
    if (!key.includes('*')) continue;
    const pattern = key.split('.');
    if (pattern.length !== words.length) continue;
    const parts = [];
    if (pattern.every((p, i) => (p === '*' ? (parts.push(words[i]), true) : p === words[i]))) return { value, parts };
  }
  return null;
}

/// A hint's text with {1}, {2}... replaced by the parts its stars matched.
function fillParts(text, parts) {
  return String(text).replace(/\{(\d)\}/g, (_, i) => parts[Number(i) - 1] ?? '');
}

function debugOn() {
  return $('debug').checked;
}

/// Whether the viewer sees everything face up: only in a replay or a table of bots only (the server sent the whole
/// state: view.viewer 0) when "reveal all" is ticked. A seat's own table never holds another seat's hidden card.
function revealAll() {
  return current && current.view && current.view.viewer === 0 && $('reveal').checked;
}

function zoneLabel(zone) {
  if (debugOn()) return zone.name;
  const h = hintFor(hints().labels, zone.name);
  return h ? fillParts(h.value, h.parts) : zone.name;
}

/// Which group a zone is drawn in: the [view] groups hint, its owner seat or team, a ".<seat>" in its name, else
/// the table.
function zoneGroup(zone, seats) {
  const h = hintFor(hints().groups, zone.name);
  if (h) return fillParts(h.value, h.parts);
  if (zone.owner.kind === 'seat') return `seat ${zone.owner.index}`;
  if (zone.owner.kind === 'team') return `team ${zone.owner.index}`;
  const m = zone.name.match(/\.(\d+)(\.|$)/);
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= seats) return `seat ${m[1]}`;
  return 'table';
}

/// The cards of a hand in the order the terminal shows them: the [view] sort_by attributes ("-name": descending;
/// true before false), for the zones a seat holds (owner visibility); other zones keep the table's order.
function sortedCards(zone) {
  const keys = hints().sort_by;
  if (!Array.isArray(keys) || !keys.length || zone.owner.kind !== 'seat' || zone.visibility !== 'owner') return zone.cards;
  const value = (card, key) => {
    const v = card.attrs[key];
    return typeof v === 'boolean' ? Number(v) : v;
  };
  return [...zone.cards].sort((a, b) => {
    if (!a || !b) return a ? -1 : b ? 1 : 0;  // unknown cards last
    for (const k of keys) {
      const desc = k.startsWith('-'), key = desc ? k.slice(1) : k;
      const x = value(a, key), y = value(b, key);
      if (x === y || x === undefined || y === undefined) continue;
      return (x < y ? -1 : 1) * (desc ? -1 : 1);
    }
    return a.id - b.id;
  });
}

/// Whether a card is drawn face down: unknown to this viewer, or face down in a whole state (a replay, bots only)
/// while "reveal all" is off.
function faceDown(card) {
  return !card || (card.face_down && !revealAll());
}

function zoneEl(zone) {
  const z = el('div', 'zone');
  z.dataset.zone = zone.name;
  z.appendChild(el('span', 'label', `${zoneLabel(zone)} (${zone.count})`));
  const cards = el('div', 'cards');
  // A replay (whole state) hides what no seat sees, and the seats' hidden zones, unless "reveal all".
  const concealed = current.view.viewer === 0 && !revealAll() && !current.view.over &&
    (zone.visibility === 'hidden' || zone.visibility === 'owner');
  if (!zone.cards || concealed || (zone.cards.length && zone.cards.every(faceDown))) {  // a back and the count
    if (zone.count > 0) cards.appendChild(el('div', 'card back', String(zone.count)));
  } else if (zone.visibility === 'top' && zone.cards.length > 1 && !debugOn()) {  // a discard pile: its top
    cards.appendChild(cardEl(zone.cards[zone.cards.length - 1]));
  } else {
    for (const card of sortedCards(zone)) cards.appendChild(faceDown(card) ? el('div', 'card back', '?') : cardEl(card));
  }
  z.appendChild(cards);
  return z;
}

function seatColour(owner) {
  return owner ? SEAT_COLOURS[(owner - 1) % 8] : '#333';
}

function figureEl(fig) {
  const f = el('span', 'figure', (fig.kind || '?')[0].toUpperCase());
  f.style.background = seatColour(fig.owner);
  f.title = `${fig.kind}${fig.owner ? ' of seat ' + fig.owner : ''}`;
  f.dataset.owner = fig.owner;
  return f;
}

function trackEl(track) {
  const t = el('div', 'track');
  t.dataset.track = track.name;
  const label = hintFor(hints().labels, track.name);
  t.appendChild(el('span', 'name', debugOn() || !label ? track.name : fillParts(label.value, label.parts)));
  const row = el('div', 'spaces');
  track.values.forEach((value, i) => {
    const space = el('div', 'space');
    space.appendChild(el('div', 'value', String(value)));
    for (const tile of track.tiles.filter((x) => x.space === i + 1)) {
      const scene = sceneOf(tile.card);
      if (scene) {
        space.appendChild(sceneSvg(tile.card, scene, 26));
        continue;
      }
      const d = el('div', 'tile', tile.card && !faceDown(tile.card) ? tile.card.name : '?');
      const colour = cardColour(tile.card);
      if (colour) d.style.background = colour;
      space.appendChild(d);
    }
    const figs = el('div', 'figs');
    for (const f of track.figures.filter((x) => x.space === i + 1)) figs.appendChild(figureEl(current.view.figures[f.figure]));
    space.appendChild(figs);
    row.appendChild(space);
  });
  t.appendChild(row);
  return t;
}

/// The counters drawn at the table: the [view] `counters` list (the ones a player sees at a real table; the others
/// are the ruleset's bookkeeping, shown only with "debug"); without that list, every counter but `hide_counters`.
function shownCounters(view) {
  if (debugOn()) return view.counters;
  const h = hints();
  const hidden = new Set(h.hide_counters || []);
  const visible = Array.isArray(h.counters) ? new Set(h.counters) : null;
  return view.counters.filter((c) => !hidden.has(c.name) && (!visible || visible.has(c.name)));
}

function counterLabel(name) {
  if (debugOn()) return name;
  const h = hintFor(hints().counter_labels, name);
  return h ? fillParts(h.value, h.parts) : name;
}

/// "coins 18 · bid 3": the counters of one owner (a seat, or 0: the supply and the table's own counters).
function countersLine(view, owner) {
  const parts = [];
  for (const c of shownCounters(view)) {
    // a seat: its own value; the table: a global counter, or the supply of a per-seat one when it holds something
    const v = owner ? (c.per_seat ? c.seats[owner - 1] : undefined) : c.per_seat && !c.supply && !debugOn() ? undefined : c.supply;
    if (v === undefined) continue;
    const span = el('span', 'counter', `${counterLabel(c.name)} ${v}`);
    span.dataset.counter = c.name;
    parts.push(span);
  }
  if (!parts.length) return null;
  const box = el('div', 'counters-line');
  box.dataset.owner = owner;
  parts.forEach((p) => box.appendChild(p));
  return box;
}

/// The raw state for rule authors (the "debug" toggle): every zone with its name and count, every counter, every
/// mark — only what this viewer's view already holds.
function debugEl(view) {
  const box = el('div', 'group debug');
  box.dataset.group = 'debug';
  box.appendChild(el('h3', '', 'Debug: the raw state of this view'));
  const table = el('table', 'counters');
  const head = el('tr');
  for (const t of ['counter', 'supply', ...Array.from({ length: view.seats }, (_, i) => `seat ${i + 1}`)]) head.appendChild(el('th', '', t));
  table.appendChild(head);
  for (const c of view.counters) {
    const row = el('tr');
    row.appendChild(el('th', '', c.name));
    row.appendChild(el('td', '', String(c.supply)));
    for (let s = 0; s < view.seats; s++) row.appendChild(el('td', '', c.per_seat ? String(c.seats[s]) : ''));
    table.appendChild(row);
  }
  box.appendChild(table);
  const zones = el('pre', 'raw');
  zones.textContent = view.zones.map((z) => `${z.name} [${z.visibility}] ${z.count}: ` +
    (z.cards ? z.cards.map((c) => (c && !faceDown(c) ? c.name : '?')).join(' ') : '(hidden)')).join('\n') +
    '\n' + view.boards.flatMap((b) => b.marks.map((m) => `${b.name} mark ${m.name} (${m.kind}): ` +
      m.values.map(([site, v]) => `${site}=${v}`).join(' '))).join('\n');
  box.appendChild(zones);
  return box;
}

/// The column a seat's zone stands in when it is one of a row of like zones, one per seat and kind
/// (`expedition.2.yellow`: column `expedition.yellow`), drawn at the same x on every seat's panel; else null.
function columnKey(zone, seats) {
  const m = zone.name.match(/^(.+)\.(\d+)\.([^.]+)$/);
  return m && Number(m[2]) >= 1 && Number(m[2]) <= seats ? `${m[1]}.${m[3]}` : null;
}

function drawTable(view, players, seat) {
  const table = $('table');
  table.innerHTML = '';
  const hasMain = view.boards.length > 0 || view.tracks.length > 0;
  table.classList.toggle('with-main', hasMain);
  let side = table;
  if (hasMain) {
    const main = el('div', 'main-area');
    main.id = 'main-area';
    main.appendChild(legendEl(view, players));
    for (const b of view.boards) {
      const wrap = el('div', 'board-wrap');
      wrap.appendChild(boardEl(b, view));
      const hover = el('div', 'board-hover');
      hover.id = 'board-hover';
      wrap.appendChild(hover);
      main.appendChild(wrap);
    }
    for (const t of view.tracks) main.appendChild(trackEl(t));
    table.appendChild(main);
    side = el('div', 'side-area');
    table.appendChild(side);
  }
  const groups = new Map();
  const order = [];
  const group = (name) => {
    if (!groups.has(name)) { groups.set(name, []); order.push(name); }
    return groups.get(name);
  };
  const hidden = new Set(debugOn() ? [] : hints().hide_zones || []);
  for (let s = 1; s <= view.seats; s++) if (s !== seat) group(`seat ${s}`);
  group('table');
  if (seat) group(`seat ${seat}`);
  for (const zone of view.zones) if (!hidden.has(zone.name)) group(zoneGroup(zone, view.seats)).push(zone);
  // the seats' columns (`expedition.<seat>.<colour>`): one grid column per colour, the same on every seat's panel
  const columns = [];
  for (const zone of view.zones) {
    const key = columnKey(zone, view.seats);
    if (key !== null && !hidden.has(zone.name) && /^seat \d+$/.test(zoneGroup(zone, view.seats)) && !columns.includes(key)) columns.push(key);
  }
  for (const name of order) {
    const zones = groups.get(name);
    const box = el('div', 'group');
    box.dataset.group = name;
    const m = name.match(/^seat (\d+)$/);
    let title = name;
    if (m) {
      const s = Number(m[1]);
      title = `Seat ${s} (${players[s - 1] || '?'})${s === seat ? ' — you' : ''}: ${seatScoreText(view, s, zones)}`;
      if (s === view.to_move && !view.over) box.classList.add('to-move');
      const figs = view.figures.filter((f) => f.owner === s && f.where === 'supply');
      if (figs.length) title += ` · ${figs.length} figure(s) in supply`;
    } else if (name === 'table') {
      title = 'Table';
    }
    const h = el('h3', '', title);
    if (m) {
      const dot = el('span', 'dot');
      dot.style.background = seatColour(Number(m[1]));
      h.prepend(dot);
    }
    box.appendChild(h);
    const line = countersLine(view, m ? Number(m[1]) : name === 'table' ? 0 : -1);
    if (line) box.appendChild(line);
    const zoneBox = el('div', 'zones');
    const columnBox = el('div', 'columns');
    columnBox.style.gridTemplateColumns = `repeat(${columns.length}, minmax(0, 1fr))`;
    for (const z of zones) {
      const key = m ? columnKey(z, view.seats) : null;
      const zEl = zoneEl(z);
      if (key === null) zoneBox.appendChild(zEl);
      else {
        zEl.style.gridColumn = String(columns.indexOf(key) + 1);
        zEl.dataset.column = key;
        columnBox.appendChild(zEl);
      }
    }
    if (zoneBox.children.length) box.appendChild(zoneBox);
    if (columnBox.children.length) box.appendChild(columnBox);
    if (name === 'table') {
      if (view.round_scores.length) {
        const scores = el('div', 'scores');
        scores.textContent = 'Rounds: ' + view.round_scores.map((r, i) => `${i + 1}: ${r.join(' / ')}`).join(' · ');
        box.appendChild(scores);
      }
    }
    if (zones.length || (name === 'table' && (line || view.round_scores.length)) || m) side.appendChild(box);
  }
  if (debugOn()) side.appendChild(debugEl(view));
}

/// A seat's score as its panel shows it. While a game of one round runs: the current score by the ruleset's score
/// hook (the terminal's `score 18`; the match total is still 0), counted by the server on this viewer's own view;
/// when some of the seat's cards are hidden from the viewer, it says the count is of what the viewer sees (the
/// hidden ones are not counted). Several rounds: the match total, and this round's score beside it. At the end:
/// the match total. A seat whose score the viewer cannot count (the hook failed on a card the viewer cannot see:
/// Lost Valley's face-down gold; a spectator's page): "score hidden".
function seatScoreText(view, s, zones) {
  const total = `${view.match_scores[s - 1]} points`;
  const score = (view.scores || [])[s - 1];
  if (view.over || score === undefined) return total;
  const hidden = zones.some((z) => !z.cards ? z.count > 0 : z.cards.some((c) => !c));
  const text = score === null ? 'score hidden' : `score ${score}${hidden ? ' (of the cards you see)' : ''}`;
  return view.rounds > 1 ? `${total} · this round ${text}` : text;
}

// ---- the log: the story of the game, one turn a line -----------------------------------------------------------
/// The score breakdown of a round's end: a table, one row per seat (its score and the ruleset's score_breakdown).
function breakdownEl(roundEnd, players, title) {
  const box = el('div', 'breakdown');
  box.appendChild(el('div', 'breakdown-title', title));
  const table = el('table');
  const head = el('tr');
  for (const t of ['seat', 'score', 'total', 'how']) head.appendChild(el('th', '', t));
  table.appendChild(head);
  roundEnd.scores.forEach((score, i) => {
    const row = el('tr');
    row.dataset.seat = i + 1;
    row.appendChild(el('td', '', `${i + 1} (${players[i] || '?'})`));
    row.appendChild(el('td', 'num', String(score)));
    row.appendChild(el('td', 'num', String(roundEnd.totals[i])));
    const how = el('td', 'how');
    how.textContent = roundEnd.breakdown[i] || '';
    row.appendChild(how);
    table.appendChild(row);
  });
  box.appendChild(table);
  return box;
}

/// Who won: the seats of place 1 (the result's ranks), with their score.
function winnerText(d) {
  if (!d.result) {
    const best = Math.max(...d.view.match_scores);
    const seats = d.view.match_scores.map((v, i) => (v === best ? i + 1 : 0)).filter((s) => s);
    return `${seats.length > 1 ? 'Tie' : 'Winner'}: ${seats.map((s) => `seat ${s} (${d.players[s - 1]})`).join(' and ')} with ${best}`;
  }
  const winners = d.result.ranks.map((r, i) => (r === 1 ? i + 1 : 0)).filter((s) => s);
  return `${winners.length > 1 ? 'Tie' : 'Winner'}: ${winners.map((s) => `seat ${s} (${d.players[s - 1]})`).join(' and ')} with ${d.result.match_scores[winners[0] - 1]}`;
}

let drawnLog = { key: null, entries: [] };  // what #log shows: a longer log with the same start only appends

function drawLog(d, humanSeats, at) {
  const list = $('log');
  const story = d.story || [];
  const unplayed = (d.log || []).map((e, i) => ({ e, i })).filter((x) => x.e.unplayed);
  const keys = story.map((t) => `${t.first}-${t.last}|${t.summary}`).concat(unplayed.map((x) => `u${x.i}`));
  const key = `${d.id}|${debugOn()}`;
  const same = drawnLog.key === key && drawnLog.entries.length <= keys.length && drawnLog.entries.every((k, i) => k === keys[i]);
  if (!same) list.innerHTML = '';
  for (let i = same ? drawnLog.entries.length : 0; i < story.length; i++) {
    const t = story[i];
    const li = el('li', 'turn');
    li.dataset.index = t.last;
    li.dataset.first = t.first;
    li.dataset.seat = t.seat;
    li.value = i + 1;
    const who = el('span', 'who', `s${t.seat}`);
    who.style.color = seatColour(t.seat);
    li.append(who, ' ', el('span', 'summary', t.summary));
    const actions = d.log.slice(t.first - 1, t.last).map((e) => e.action);
    li.title = `actions ${t.first}${t.last > t.first ? '–' + t.last : ''}: ${actions.join(', ')}`;
    if (debugOn()) li.appendChild(el('div', 'raw-actions', actions.join(' · ')));
    if (t.error) li.appendChild(el('div', 'hook-error', t.error));
    if (humanSeats.includes(t.seat)) li.classList.add('seat-human');
    if (t.round_end) {
      li.classList.add('round-end');
      const last = t.round_end.round === d.view.rounds || (i === story.length - 1 && d.view.over);
      // in the log: the scores on one line, the breakdown table folded under it
      const fold = el('details', 'round-scores');
      const title = `${last && d.view.rounds === 1 ? 'Game' : 'Round ' + t.round_end.round} over`;
      fold.appendChild(el('summary', '', `${title}: ${t.round_end.scores.map((v, k) => `s${k + 1} ${v}`).join(' · ')}`));
      fold.appendChild(breakdownEl(t.round_end, d.players, 'Score breakdown'));
      li.appendChild(fold);
    }
    // a click shows the table after this turn: a replay steps there; a game shows that moment, read-only
    li.style.cursor = 'pointer';
    li.addEventListener('click', () => (current.kind === 'replay' ? stepTo(t.last) : showMoment(t.last)));
    list.appendChild(li);
  }
  for (let j = same ? Math.max(0, drawnLog.entries.length - story.length) : 0; j < unplayed.length; j++) {
    const { e, i } = unplayed[j];
    const li = el('li', 'unplayed', `s${e.seat} ${e.action}`);
    li.dataset.index = i + 1;
    list.appendChild(li);
  }
  drawnLog = { key, entries: keys };
  list.querySelectorAll('li.current').forEach((li) => li.classList.remove('current'));
  let cur = list.lastElementChild;
  if (at !== undefined) {
    cur = [...list.querySelectorAll('li.turn')].find((li) => Number(li.dataset.first) <= at && at <= Number(li.dataset.index));
    if (cur) cur.classList.add('current');
  }
  // keep the current (or last) entry in view, scrolling the log only, never the page
  if (cur) list.scrollTop = Math.max(0, cur.offsetTop - list.clientHeight / 2);
}

/// The end of the game on the table: who won and the last round's breakdown.
function drawResult(d) {
  const box = $('result');
  const story = d.story || [];
  const end = [...story].reverse().find((t) => t.round_end);
  box.hidden = !d.view.over || (d.at !== undefined && d.at < d.total);
  box.innerHTML = '';
  if (box.hidden) return;
  box.appendChild(el('div', 'winner', winnerText(d)));
  if (end) box.appendChild(breakdownEl(end.round_end, d.players, d.view.rounds > 1 ? `Round ${end.round_end.round} (the last)` : 'Scores'));
}

function selectCard(name, cardDiv) {
  document.querySelectorAll('.card.selected').forEach((c) => c.classList.remove('selected'));
  const buttons = [...document.querySelectorAll('#actions button.action')];
  const re = new RegExp(`(^|\\s)${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`, 'i');
  const matching = buttons.filter((b) => re.test(b.textContent));
  if (!matching.length) { buttons.forEach((b) => b.classList.remove('dim', 'match')); return; }
  cardDiv.classList.add('selected');
  for (const b of buttons) {
    b.classList.toggle('match', matching.includes(b));
    b.classList.toggle('dim', !matching.includes(b));
  }
}

/// The file name of a game's transcript: <ruleset>-<seed>.jsonl (a path or variant id made a plain word).
function transcriptName(d) {
  const base = String(d.ruleset || d.name).replace(/\.toml$/, '').split(/[\\/]/).filter((p) => p).join('-')
    .replace(/[^A-Za-z0-9._-]+/g, '_') || 'game';
  return `${base}-${/^[0-9]+$/.test(String(d.seed)) ? d.seed : d.id}.jsonl`;  // a seat link does not get the seed
}

function show(state) {
  current = state;
  closePlaceMenu();
  document.body.dataset.renders = Number(document.body.dataset.renders || 0) + 1;
  const d = state.data;
  current.view = d.view;
  const view = d.view;
  const humanSeats = state.kind === 'game' ? d.players.map((p, i) => (p === 'human' ? i + 1 : 0)).filter((s) => s) : [];
  drawTable(view, d.players, state.kind === 'game' ? d.seat : 0);
  document.title = `houserules — ${d.name}`;
  $('reveal-box').hidden = view.viewer !== 0;
  const status = $('status');
  let text = `${d.name} · seed ${d.seed} · round ${view.round}/${view.rounds}`;
  if (view.phase_name) text += ` · ${view.phase_name}`;
  if (view.over) {
    text += ` · game over: ${view.match_scores.join(' / ')}`;
    if (d.result) text += ` (places ${d.result.ranks.join(', ')})`;
  } else {
    text += ` · seat ${view.to_move} (${d.players[view.to_move - 1]}) to move`;
  }
  status.textContent = text;
  status.dataset.over = view.over ? '1' : '0';
  status.dataset.toMove = view.to_move;
  $('controls').hidden = state.kind !== 'game';
  $('moment').hidden = state.kind !== 'game' || d.at === undefined;  // a game's past moment: read-only
  $('replay-controls').hidden = state.kind !== 'replay';
  const header = $('replay-header');
  header.hidden = state.kind !== 'replay';
  if (state.kind === 'game') {
    const actions = $('actions');
    actions.innerHTML = '';
    d.legal.forEach((text, i) => {
      const b = el('button', 'action', text);
      b.type = 'button';
      b.dataset.index = i;
      if (i < 9) b.title = `key ${i + 1}`;
      b.addEventListener('click', () => play({ index: i }));
      b.addEventListener('mouseenter', () => { highlightPlaces(text, true); previewAction(i, true); });
      b.addEventListener('mouseleave', () => { highlightPlaces(text, false); previewAction(i, false); });
      b.dataset.key = i + 1;  // drawn before the text (CSS), as the terminal numbers its actions
      actions.appendChild(b);
    });
    // Cards named in a legal action are outlined: click one to see its actions.
    for (const c of document.querySelectorAll('#table .card[data-name]')) {
      const re = new RegExp(`(^|\\s)${c.dataset.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`, 'i');
      if (d.legal.some((t) => re.test(t))) c.classList.add('playable');
    }
    $('undo').disabled = !d.can_undo;
    $('download').href = `/api/games/${d.id}/transcript`;
    $('download').setAttribute('download', transcriptName(d));
    if (d.error) showMessage(d.error);
    else if (view.draw_error) showMessage(`The rules' drawing failed (drawn the generic way; the game is unchanged): ${view.draw_error}`);
    else if ((hints().warnings || []).length) showMessage(`The ruleset's [view] hints were not all used: ${hints().warnings.join('; ')}`, true);
    $('action-form').hidden = d.at !== undefined;
    if (d.at !== undefined) {
      $('moment-text').textContent = `The table after action ${d.at} of ${d.total}, as seat ${d.seat || 'all'} saw it then (read-only).`;
      status.textContent = `After action ${d.at} of ${d.total} · ` + status.textContent;
      status.dataset.at = d.at;
      $('undo').disabled = true;
    } else {
      delete status.dataset.at;
    }
    drawLog(d, humanSeats, d.at);
  } else {
    header.textContent = `Replay of ${d.file}: ${d.ruleset} · ${d.players.map((p, i) => `seat ${i + 1} ${p}`).join(', ')} · seed ${d.seed}`;
    $('scrub').max = d.total;
    $('scrub').value = d.at;
    $('jump').max = d.total;
    $('jump').value = d.at;
    status.textContent = `${d.file}: action ${d.at} of ${d.total} · ` + status.textContent;
    status.dataset.at = d.at;
    showMessage(view.draw_error ? `The rules' drawing failed (drawn the generic way): ${view.draw_error}` : '');
    const div = $('divergence');
    div.hidden = !d.divergence;
    if (d.divergence) div.textContent = `First divergence at action ${d.divergence.at}: ${d.divergence.message}`;
    drawLog(d, humanSeats, d.at);
  }
  drawResult(d);
}

/// A game's table after `at` actions (a log entry clicked), read-only: as this page's seat saw it then (the server
/// replays the game to that moment and sends that seat's observation of it: nothing shown to it later). The last
/// entry, or "Back to the game", shows the game as it is.
async function showMoment(at) {
  const d = current.data;
  const total = d.total ?? d.log.length;
  const seat = seatKey ? 0 : d.seat || 0;
  try {
    const g = await api('GET', `/api/games/${d.id}?seat=${seat}${at < total ? `&at=${at}` : ''}`);
    if (!current || current.data.id !== d.id) return;
    show({ kind: 'game', data: g });
    if (g.at === undefined && g.bot_to_move) runBots();
  } catch (e) {
    showMessage(e.message);
  }
}

/// Outlines the places an action names while the mouse is on its button.
function highlightPlaces(text, on) {
  for (const m of text.matchAll(/(?:^|\s)(-?\d+,-?\d+[ud]?)(?=\s|$)/g))
    for (const p of document.querySelectorAll(`#table .place[data-place="${m[1]}"]`)) p.classList.toggle('hover', on);
}

/// Redraws what is shown (a toggle changed) without asking the server.
function redraw() {
  if (current) {
    drawnLog.key = null;
    show(current);
  }
}

let keyBuffer = '', keyTimer = null;

/// A digit typed on the page: the action of that number (1 = the first button), as at the terminal's prompt. With
/// ten or more actions, a digit that could begin a longer number waits 0.7 s for the next one.
function numberKey(digit) {
  const legal = current.data.legal || [];
  if (!legal.length) return;
  keyBuffer += digit;
  clearTimeout(keyTimer);
  const choose = () => {
    const k = Number(keyBuffer);
    keyBuffer = '';
    if (k >= 1 && k <= current.data.legal.length) play({ index: k - 1 });
  };
  if (Number(keyBuffer) * 10 > legal.length) choose();
  else keyTimer = setTimeout(choose, 700);
}

// ---- wiring -----------------------------------------------------------------------------------------------------
function readFile(file) {
  const reader = new FileReader();
  reader.onload = () => openTranscript(file.name, reader.result);
  reader.readAsText(file);
}

async function init() {
  $('new-game').addEventListener('submit', newGame);
  $('undo').addEventListener('click', undo);
  $('action-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = $('action-text').value.trim();
    if (text) play({ action: text }).then(() => { $('action-text').value = ''; });
  });
  $('moment-back').addEventListener('click', () => showMoment(Infinity));
  $('first').addEventListener('click', () => stepTo(0));
  $('back').addEventListener('click', () => stepBy(-1));
  $('forward').addEventListener('click', () => stepBy(1));
  $('last').addEventListener('click', () => stepTo(current.data.total));
  $('debug').addEventListener('change', redraw);
  $('reveal').addEventListener('change', redraw);
  document.addEventListener('click', (ev) => { if (!ev.target.closest('#place-menu, .place.target')) closePlaceMenu(); });
  $('scrub').addEventListener('change', () => stepTo(Number($('scrub').value)));
  $('jump').addEventListener('change', () => stepTo(Number($('jump').value)));
  document.addEventListener('keydown', (ev) => {
    if (!current || ['INPUT', 'SELECT', 'TEXTAREA'].includes(ev.target.tagName) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === 'Escape') closePlaceMenu();
    if (current.kind === 'game' && /^[0-9]$/.test(ev.key)) numberKey(ev.key);
    if (current.kind !== 'replay') return;
    if (ev.key === 'ArrowRight') stepBy(1);
    if (ev.key === 'ArrowLeft') stepBy(-1);
  });
  $('transcript-file').addEventListener('change', (ev) => { if (ev.target.files[0]) readFile(ev.target.files[0]); });
  document.addEventListener('dragover', (ev) => ev.preventDefault());
  document.addEventListener('drop', (ev) => {
    ev.preventDefault();
    if (ev.dataTransfer.files[0]) readFile(ev.dataTransfer.files[0]);
  });
  const params = new URLSearchParams(location.search);
  if (params.has('delay')) $('delay').value = params.get('delay');
  try {
    await loadRulesets();
    const start = await api('GET', '/api/start');
    sharedServer = Boolean(start.shared);
    const hash = new URLSearchParams(location.hash.slice(1));
    seatKey = hash.get('key');
    if (hash.get('game')) drawLinks(hash.get('game'), JSON.parse(sessionStorage.getItem(`links:${hash.get('game')}`) || '[]'));
    if (hash.get('game')) {
      show({ kind: 'game', data: await api('GET', `/api/games/${hash.get('game')}?seat=${hash.get('seat') || 0}`) });
      runBots();
    } else if (hash.get('replay') || start.replay) {
      show({ kind: 'replay', data: await api('GET', `/api/replays/${hash.get('replay') || start.replay}?at=0`) });
    }
  } catch (e) {
    showMessage(e.message);
  }
  setInterval(poll, 1000);
  document.body.dataset.ready = '1';
}

init();
