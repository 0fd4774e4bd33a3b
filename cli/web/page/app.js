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
    init.headers['Content-Type'] = raw ? 'application/x-ndjson' : 'application/json';
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
  const box = $('seats');
  const old = [...box.querySelectorAll('select')].map((s) => s.value);
  box.innerHTML = '';
  const count = document.createElement('input');
  count.type = 'number';
  count.id = 'seat-count';
  count.min = base.min_players;
  count.max = base.max_players;
  count.value = Math.min(Math.max(old.length || base.default_players, base.min_players), base.max_players);
  const label = document.createElement('label');
  label.append('Seats ', count);
  box.appendChild(label);
  const seatsBox = document.createElement('span');
  box.appendChild(seatsBox);
  const draw = () => {
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
  const body = { ruleset, players };
  if ($('seed').value !== '') body.seed = Number($('seed').value);
  try {
    const g = await api('POST', '/api/games', body);
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
    show({ kind: 'replay', data: r });
  } catch (e) {
    showMessage(e.message);
  }
}

async function stepTo(at) {
  const r = current.data;
  at = Math.max(0, Math.min(r.total, at));
  try {
    show({ kind: 'replay', data: await api('GET', `/api/replays/${r.id}?at=${at}`) });
  } catch (e) {
    showMessage(e.message);
  }
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

function zoneLabel(zone) {
  const labels = hints().labels || {};
  return labels[zone.name] || zone.name;
}

/// Which group a zone is drawn in: its owner seat or team, a ".<seat>" in its name, else the table.
function zoneGroup(zone, seats) {
  const groups = hints().groups || {};
  if (groups[zone.name]) return groups[zone.name];
  if (zone.owner.kind === 'seat') return `seat ${zone.owner.index}`;
  if (zone.owner.kind === 'team') return `team ${zone.owner.index}`;
  const m = zone.name.match(/\.(\d+)(\.|$)/);
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= seats) return `seat ${m[1]}`;
  return 'table';
}

function zoneEl(zone) {
  const z = el('div', 'zone');
  z.dataset.zone = zone.name;
  z.appendChild(el('span', 'label', `${zoneLabel(zone)} (${zone.count})`));
  const cards = el('div', 'cards');
  if (!zone.cards || (zone.cards.length && zone.cards.every((c) => !c))) {  // nothing known: one back and the count
    if (zone.count > 0) cards.appendChild(el('div', 'card back', String(zone.count)));
  } else {
    for (const card of zone.cards) cards.appendChild(cardEl(card));
  }
  z.appendChild(cards);
  return z;
}

function figureEl(fig) {
  const f = el('span', 'figure', (fig.kind || '?')[0].toUpperCase());
  f.style.background = fig.owner ? SEAT_COLOURS[(fig.owner - 1) % 8] : '#333';
  f.title = `${fig.kind}${fig.owner ? ' of seat ' + fig.owner : ''}`;
  return f;
}

function trackEl(track) {
  const t = el('div', 'track');
  t.appendChild(el('span', 'name', track.name));
  track.values.forEach((value, i) => {
    const space = el('div', 'space');
    space.appendChild(el('div', 'value', String(value)));
    for (const tile of track.tiles.filter((x) => x.space === i + 1)) {
      const scene = sceneOf(tile.card);
      if (scene) {
        space.appendChild(sceneSvg(tile.card, scene, 26));
        continue;
      }
      const d = el('div', 'tile', tile.card ? tile.card.name : '?');
      const colour = cardColour(tile.card);
      if (colour) d.style.background = colour;
      space.appendChild(d);
    }
    for (const f of track.figures.filter((x) => x.space === i + 1)) space.appendChild(figureEl(current.view.figures[f.figure]));
    t.appendChild(space);
  });
  return t;
}

function countersEl(view) {
  if (!view.counters.length) return null;
  const table = el('table', 'counters');
  const head = el('tr');
  head.appendChild(el('th', '', 'counter'));
  head.appendChild(el('th', '', 'supply'));
  for (let s = 1; s <= view.seats; s++) head.appendChild(el('th', '', `seat ${s}`));
  table.appendChild(head);
  const hidden = new Set(hints().hide_counters || []);
  for (const c of view.counters) {
    if (hidden.has(c.name)) continue;
    const row = el('tr');
    row.appendChild(el('th', '', c.name));
    row.appendChild(el('td', '', String(c.supply)));
    for (let s = 0; s < view.seats; s++) row.appendChild(el('td', '', c.per_seat ? String(c.seats[s]) : ''));
    table.appendChild(row);
  }
  return table;
}

function boardEl(board, view) {
  const V = board.vertices;
  const pt = (v) => [V[v][0], -V[v][1]];
  const centre = (vs) => {
    let x = 0, y = 0;
    for (const v of vs) { const p = pt(v); x += p[0]; y += p[1]; }
    return [x / vs.length, y / vs.length];
  };
  const tileOf = new Map();
  for (const t of board.tiles) for (const f of t.faces) if (f >= 0) tileOf.set(f, t);
  // The drawn area: the faces in use (tiles, marks, lying things, figures) and one face around, else the board.
  const used = new Set(tileOf.keys());
  for (const m of board.marks) if (m.kind === 'face') for (const [f] of m.values) used.add(f);
  for (const l of board.lying) if (l.kind === 'face') used.add(l.site);
  const usedVertices = new Set();
  for (const f of used) for (const v of board.faces[f]) usedVertices.add(v);
  for (const fig of board.figures) if (fig.site_kind === 'vertex') usedVertices.add(fig.site); else for (const v of board.faces[fig.site]) usedVertices.add(v);
  let pts = [...usedVertices].map(pt);
  if (!pts.length) pts = V.map((_, i) => pt(i));
  const margin = 1.2;
  const minX = Math.min(...pts.map((p) => p[0])) - margin, maxX = Math.max(...pts.map((p) => p[0])) + margin;
  const minY = Math.min(...pts.map((p) => p[1])) - margin, maxY = Math.max(...pts.map((p) => p[1])) + margin;
  const scale = Math.min(60, 900 / Math.max(1, maxX - minX));
  const svg = svgEl('svg', { class: 'board', viewBox: `${minX} ${minY} ${maxX - minX} ${maxY - minY}`,
    width: Math.round((maxX - minX) * scale), height: Math.round((maxY - minY) * scale) });
  svg.dataset.board = board.name;
  const faceColour = (f) => {
    const t = tileOf.get(f);
    return (t && cardColour(t.card)) || (t ? '#d8c9a3' : null);
  };
  board.faces.forEach((vs, f) => {
    const c = centre(vs);
    if (c[0] < minX || c[0] > maxX || c[1] < minY || c[1] > maxY) return;
    const points = vs.map((v) => pt(v).join(',')).join(' ');
    const colour = faceColour(f);
    const poly = svgEl('polygon', colour ? { points, class: 'tile-face', fill: colour, stroke: colour } : { points, class: 'free' });
    poly.dataset.face = f;
    svg.appendChild(poly);
  });
  // Tile outlines (the edges of its faces that no other face of the same tile shares) and names.
  const featureNames = hints().face_features || {};
  for (const t of board.tiles) {
    const count = new Map();
    for (const f of t.faces) if (f >= 0) {
      const vs = board.faces[f];
      vs.forEach((v, i) => {
        const w = vs[(i + 1) % vs.length];
        const key = v < w ? `${v}-${w}` : `${w}-${v}`;
        count.set(key, (count.get(key) || 0) + 1);
      });
    }
    for (const [key, n] of count) if (n === 1) {
      const [a, b] = key.split('-').map(Number);
      const [x1, y1] = pt(a), [x2, y2] = pt(b);
      svg.appendChild(svgEl('line', { x1, y1, x2, y2, class: 'tile-outline' }));
    }
    const vs = t.faces.filter((f) => f >= 0).flatMap((f) => board.faces[f]);
    const [x, y] = centre(vs);
    const scene = sceneOf(t.card);
    if (scene) svg.appendChild(sceneSvg(t.card, scene, 0.5, [x, y]));
    else svg.appendChild(svgEl('text', { x, y, 'font-size': 0.22, 'text-anchor': 'middle' }, t.card ? t.card.name : '?'));
  }
  for (const [f, feature] of board.face_features) {
    const name = featureNames[String(feature & (hints().face_feature_mask || 0xffff))];
    if (!name) continue;
    const [x, y] = centre(board.faces[f]);
    svg.appendChild(svgEl('text', { x, y: y + 0.25, 'font-size': 0.16, 'text-anchor': 'middle', fill: '#333' }, name));
  }
  // Marks: faces get their value as text, edges a coloured line, vertices a small square.
  const markColours = ['#1f5fbf', '#b03a2e', '#7d3c98', '#117a65', '#9a7d0a', '#555'];
  board.marks.forEach((m, i) => {
    const colour = (hints().mark_colours || {})[m.name] || markColours[i % markColours.length];
    for (const [site, value] of m.values) {
      if (m.kind === 'face') {
        const [x, y] = centre(board.faces[site]);
        svg.appendChild(svgEl('text', { x, y: y - 0.18, 'font-size': 0.14, 'text-anchor': 'middle', fill: colour }, `${m.name}${value > 1 ? ' ' + value : ''}`));
      } else if (m.kind === 'edge' && board.edges[site]) {
        const [a, b] = board.edges[site];
        const [x1, y1] = pt(a), [x2, y2] = pt(b);
        svg.appendChild(svgEl('line', { x1, y1, x2, y2, stroke: colour, 'stroke-width': 0.08, 'stroke-linecap': 'round' }));
      } else if (m.kind === 'vertex') {
        const [x, y] = pt(site);
        svg.appendChild(svgEl('rect', { x: x - 0.12, y: y - 0.12, width: 0.24, height: 0.24, fill: colour }));
        svg.appendChild(svgEl('title', {}, `${m.name} ${value}`));
      }
    }
  });
  // Things lying on sites: a small disc per component, named.
  for (const l of board.lying) {
    let p;
    if (l.kind === 'face') p = centre(board.faces[l.site]);
    else if (l.kind === 'vertex') p = pt(l.site);
    else if (board.edges[l.site]) p = centre(board.edges[l.site]);
    if (!p) continue;
    l.cards.forEach((card, i) => {
      const x = p[0] + 0.16 * i, y = p[1] + 0.1;
      const scene = sceneOf(card);
      if (scene) {
        svg.appendChild(sceneSvg(card, scene, 0.3, [x, y]));
        return;
      }
      svg.appendChild(svgEl('circle', { cx: x, cy: y, r: 0.11, fill: cardColour(card) || (card ? '#fff' : '#5d7196'), stroke: '#333', 'stroke-width': 0.02 }));
      if (card) svg.appendChild(svgEl('text', { x, y: y + 0.04, 'font-size': 0.1, 'text-anchor': 'middle' }, card.name.slice(0, 3)));
    });
  }
  // Figures: a disc in the owner's colour with the kind's initial.
  const atSite = new Map();
  for (const fig of board.figures) {
    const key = `${fig.site_kind}${fig.site}`;
    const n = atSite.get(key) || 0;
    atSite.set(key, n + 1);
    const p = fig.site_kind === 'vertex' ? pt(fig.site) : centre(board.faces[fig.site]);
    const x = p[0] + 0.2 * n, y = p[1];
    const g = svgEl('g', { class: 'figure' });
    g.dataset.figure = fig.figure;
    g.appendChild(svgEl('circle', { cx: x, cy: y, r: 0.17, fill: fig.owner ? SEAT_COLOURS[(fig.owner - 1) % 8] : '#222', stroke: '#fff', 'stroke-width': 0.04 }));
    g.appendChild(svgEl('text', { x, y: y + 0.06, 'font-size': 0.17, 'text-anchor': 'middle', fill: '#fff' }, (fig.kind || '?')[0].toUpperCase()));
    g.appendChild(svgEl('title', {}, `${fig.kind}${fig.owner ? ' of seat ' + fig.owner : ''}`));
    svg.appendChild(g);
  }
  return svg;
}

function drawTable(view, players, seat) {
  const table = $('table');
  table.innerHTML = '';
  const groups = new Map();
  const order = [];
  const group = (name) => {
    if (!groups.has(name)) { groups.set(name, []); order.push(name); }
    return groups.get(name);
  };
  const hidden = new Set(hints().hide_zones || []);
  for (let s = 1; s <= view.seats; s++) if (s !== seat) group(`seat ${s}`);
  group('table');
  if (seat) group(`seat ${seat}`);
  for (const zone of view.zones) if (!hidden.has(zone.name)) group(zoneGroup(zone, view.seats)).push(zone);
  for (const name of order) {
    const zones = groups.get(name);
    const box = el('div', 'group');
    box.dataset.group = name;
    const m = name.match(/^seat (\d+)$/);
    let title = name;
    if (m) {
      const s = Number(m[1]);
      title = `Seat ${s} (${players[s - 1] || '?'})${s === seat ? ' — you' : ''}: ${view.match_scores[s - 1]} points`;
      if (s === view.to_move && !view.over) box.classList.add('to-move');
      const figs = view.figures.filter((f) => f.owner === s && f.where === 'supply');
      if (figs.length) title += ` · ${figs.length} figure(s) in supply`;
    } else if (name === 'table') {
      title = 'Table';
    }
    box.appendChild(el('h3', '', title));
    const zoneBox = el('div', 'zones');
    for (const z of zones) zoneBox.appendChild(zoneEl(z));
    box.appendChild(zoneBox);
    if (name === 'table') {
      for (const t of view.tracks) box.appendChild(trackEl(t));
      for (const b of view.boards) box.appendChild(boardEl(b, view));
      const counters = countersEl(view);
      if (counters) box.appendChild(counters);
      if (view.round_scores.length) {
        const scores = el('div', 'scores');
        scores.textContent = 'Rounds: ' + view.round_scores.map((r, i) => `${i + 1}: ${r.join(' / ')}`).join(' · ');
        box.appendChild(scores);
      }
    }
    if (zones.length || name === 'table' || m) table.appendChild(box);
  }
}

let drawnLog = { key: null, entries: [] };  // what #log shows: a longer log with the same start only appends

function logKey(entry) {
  return `${entry.ply}|${entry.seat}|${entry.action}|${entry.unplayed ? 1 : 0}`;
}

function drawLog(log, players, humanSeats, at, key) {
  const list = $('log');
  const keys = log.map(logKey);
  const same = drawnLog.key === key && drawnLog.entries.length <= keys.length &&
    drawnLog.entries.every((k, i) => k === keys[i]);
  if (!same) list.innerHTML = '';
  for (let i = same ? drawnLog.entries.length : 0; i < log.length; i++) {
    const entry = log[i];
    const li = el('li', '', `s${entry.seat} ${entry.action}`);
    li.value = entry.ply || i + 1;
    li.dataset.index = i + 1;
    if (humanSeats.includes(entry.seat)) li.classList.add('seat-human');
    if (entry.unplayed) li.classList.add('unplayed');
    if (entry.round_scores) {
      li.classList.add('round-end');
      li.title = `round over: ${entry.round_scores.join(' / ')}`;
    }
    if (at !== undefined && !entry.unplayed) {
      li.style.cursor = 'pointer';
      li.addEventListener('click', () => stepTo(i + 1));
    }
    list.appendChild(li);
  }
  drawnLog = { key, entries: keys };
  list.querySelectorAll('li.current').forEach((li) => li.classList.remove('current'));
  if (at) list.children[at - 1].classList.add('current');
  // keep the current (or last) entry in view, scrolling the log only, never the page
  const cur = at ? list.children[at - 1] : list.lastElementChild;
  if (cur) list.scrollTop = Math.max(0, cur.offsetTop - list.clientHeight / 2);
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

function show(state) {
  current = state;
  document.body.dataset.renders = Number(document.body.dataset.renders || 0) + 1;
  const d = state.data;
  current.view = d.view;
  const view = d.view;
  const humanSeats = state.kind === 'game' ? d.players.map((p, i) => (p === 'human' ? i + 1 : 0)).filter((s) => s) : [];
  drawTable(view, d.players, state.kind === 'game' ? d.seat : 0);
  document.title = `houserules — ${d.name}`;
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
  $('replay-controls').hidden = state.kind !== 'replay';
  if (state.kind === 'game') {
    const actions = $('actions');
    actions.innerHTML = '';
    d.legal.forEach((text, i) => {
      const b = el('button', 'action', text);
      b.type = 'button';
      b.dataset.index = i;
      b.addEventListener('click', () => play({ index: i }));
      actions.appendChild(b);
    });
    // Cards named in a legal action are outlined: click one to see its actions.
    for (const c of document.querySelectorAll('#table .card[data-name]')) {
      const re = new RegExp(`(^|\\s)${c.dataset.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`, 'i');
      if (d.legal.some((t) => re.test(t))) c.classList.add('playable');
    }
    $('undo').disabled = !d.can_undo;
    $('download').href = `/api/games/${d.id}/transcript`;
    $('download').setAttribute('download', `${d.id}.jsonl`);
    if (d.error) showMessage(d.error);
    else if (view.draw_error) showMessage(`The rules' drawing failed (drawn the generic way; the game is unchanged): ${view.draw_error}`);
    else if ((hints().warnings || []).length) showMessage(`The ruleset's [view] hints were not all used: ${hints().warnings.join('; ')}`, true);
    drawLog(d.log, d.players, humanSeats, undefined, d.id);
  } else {
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
    drawLog(d.log, d.players, humanSeats, d.at, d.id);
  }
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
  $('first').addEventListener('click', () => stepTo(0));
  $('back').addEventListener('click', () => stepTo(current.data.at - 1));
  $('forward').addEventListener('click', () => stepTo(current.data.at + 1));
  $('last').addEventListener('click', () => stepTo(current.data.total));
  $('scrub').addEventListener('change', () => stepTo(Number($('scrub').value)));
  $('jump').addEventListener('change', () => stepTo(Number($('jump').value)));
  document.addEventListener('keydown', (ev) => {
    if (!current || current.kind !== 'replay' || ev.target.tagName === 'INPUT') return;
    if (ev.key === 'ArrowRight') stepTo(current.data.at + 1);
    if (ev.key === 'ArrowLeft') stepTo(current.data.at - 1);
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
