// board.js — the boards of the page of `houserules serve` (loaded before app.js, whose helpers it uses: el, svgEl,
// hints, cardColour, sceneOf, play...): a lattice board drawn as SVG that scales to its box (zoom with the wheel, pan
// by dragging, double-click to fit), coordinates on its rims and on hover, figures on one place around it (a count
// badge past four), lying tokens told apart by colour and letter, and the places the legal actions name outlined:
// clicking one plays its action (a small menu when several name it). docs/serve.md, "Boards".
'use strict';

// ---- boards: the map the game is played on ------------------------------------------------------------------
/// The text of vertex v ("q,r") and of face f ("q,ru"/"q,rd" triangular, "q,r" square): as the rules name them in
/// their actions (engine/lattice.hpp, "Coordinates").
function vertexText(board, v) {
  return `${v % (board.width + 1)},${Math.floor(v / (board.width + 1))}`;
}
function faceText(board, f) {
  const types = board.kind === 'triangular' ? 2 : 1;
  const cell = Math.floor(f / types), q = cell % board.width, r = Math.floor(cell / board.width);
  return types === 2 ? `${q},${r}${f % 2 ? 'd' : 'u'}` : `${q},${r}`;
}

/// The legal actions that name `place` (a vertex or face text) as a word of their own.
function actionsNaming(place) {
  const legal = (current && current.kind === 'game' && current.data.legal) || [];
  const re = new RegExp(`(^|\\s)${place.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`);
  return legal.map((text, index) => ({ text, index })).filter((a) => re.test(a.text));
}

/// A small menu of the actions naming one place, at the mouse (several actions name it: `move 2,1`, `move 2,1 horse`).
function placeMenu(actions, ev) {
  closePlaceMenu();
  const menu = el('div', 'place-menu');
  menu.id = 'place-menu';
  for (const a of actions) {
    const b = el('button', 'action', a.text);
    b.type = 'button';
    b.addEventListener('click', () => { closePlaceMenu(); play({ index: a.index }); });
    b.addEventListener('mouseenter', () => previewAction(a.index, true));
    b.addEventListener('mouseleave', () => previewAction(null, false));
    menu.appendChild(b);
  }
  menu.style.left = `${ev.pageX + 6}px`;
  menu.style.top = `${ev.pageY + 6}px`;
  document.body.appendChild(menu);
}
function closePlaceMenu() {
  const m = $('place-menu');
  if (m) m.remove();
}

function clickPlace(place, ev) {
  const actions = actionsNaming(place);
  if (actions.length === 1) play({ index: actions[0].index });
  else if (actions.length > 1) placeMenu(actions, ev);
}

/// The board's zoom and pan, kept across redraws: board name -> viewBox [x, y, w, h].
const boardViews = new Map();

function enableZoom(svg, name, full) {
  const setBox = (b) => { svg.setAttribute('viewBox', b.join(' ')); boardViews.set(name, b); };
  svg.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const b = svg.getAttribute('viewBox').split(' ').map(Number);
    const k = ev.deltaY < 0 ? 0.85 : 1 / 0.85;
    const rect = svg.getBoundingClientRect();
    const fx = (ev.clientX - rect.left) / rect.width, fy = (ev.clientY - rect.top) / rect.height;
    const w = Math.min(full[2] * 1.5, Math.max(2, b[2] * k)), h = w * full[3] / full[2];
    setBox([b[0] + (b[2] - w) * fx, b[1] + (b[3] - h) * fy, w, h]);
  }, { passive: false });
  let drag = null;
  svg.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0 || ev.target.closest('.place.target')) return;
    drag = { x: ev.clientX, y: ev.clientY, b: svg.getAttribute('viewBox').split(' ').map(Number) };
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    const rect = svg.getBoundingClientRect();
    const dx = (ev.clientX - drag.x) * drag.b[2] / rect.width, dy = (ev.clientY - drag.y) * drag.b[3] / rect.height;
    if (Math.abs(dx) + Math.abs(dy) > 0) setBox([drag.b[0] - dx, drag.b[1] - dy, drag.b[2], drag.b[3]]);
  });
  const stop = () => { drag = null; };
  svg.addEventListener('pointerup', stop);
  svg.addEventListener('pointerleave', stop);
  svg.addEventListener('dblclick', () => { boardViews.delete(name); svg.setAttribute('viewBox', full.join(' ')); });
}

/// The letter and colour of a component lying on the board: its [view] token letter (by name or by first word of
/// its name), else the first letters that tell it from the other names on the board; its colour.
function tokenMark(card, names) {
  if (!card || faceDown(card)) return { letter: '?', fill: '#5d7196' };
  const h = hints().token_letters || {};
  const word = card.name.split(/[\s_]/)[0];
  let letter = h[card.name] || h[word];
  if (!letter) {
    let n = 1;
    while (n < word.length && names.some((o) => o !== word && o.slice(0, n).toLowerCase() === word.slice(0, n).toLowerCase())) n++;
    letter = word.slice(0, n);
    letter = letter[0].toUpperCase() + letter.slice(1);
  }
  const digits = card.name.match(/\d+/);
  return { letter: digits ? `${letter}${digits[0]}` : letter, fill: cardColour(card) || NAMED_COLOURS[word] || '#fff' };
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
  // Places the legal actions name: vertices and faces.
  const legal = (current.kind === 'game' && current.data.legal) || [];
  const named = new Set();
  for (const text of legal) for (const m of text.matchAll(/(?:^|\s)(-?\d+,-?\d+[ud]?)(?=\s|$)/g)) named.add(m[1]);
  // The drawn area: the faces in use (tiles, marks, lying things, figures, places named by an action) and one
  // face around, else the board.
  const used = new Set(tileOf.keys());
  for (const m of board.marks) if (m.kind === 'face') for (const [f] of m.values) used.add(f);
  for (const l of board.lying) if (l.kind === 'face') used.add(l.site);
  const usedVertices = new Set();
  for (const f of used) for (const v of board.faces[f]) usedVertices.add(v);
  for (const fig of board.figures) if (fig.site_kind === 'vertex') usedVertices.add(fig.site); else for (const v of board.faces[fig.site]) usedVertices.add(v);
  V.forEach((_, v) => { if (named.has(vertexText(board, v))) usedVertices.add(v); });
  board.faces.forEach((vs, f) => { if (named.has(faceText(board, f))) for (const v of vs) usedVertices.add(v); });
  let pts = [...usedVertices].map(pt);
  if (!pts.length) pts = V.map((_, i) => pt(i));
  const margin = 1.5;
  const minX = Math.min(...pts.map((p) => p[0])) - margin, maxX = Math.max(...pts.map((p) => p[0])) + margin;
  const minY = Math.min(...pts.map((p) => p[1])) - margin, maxY = Math.max(...pts.map((p) => p[1])) + margin;
  const full = [minX, minY, maxX - minX, maxY - minY];
  const box = boardViews.get(board.name) || full;
  const svg = svgEl('svg', { class: 'board', viewBox: box.join(' '), preserveAspectRatio: 'xMidYMid meet' });
  svg.dataset.board = board.name;
  const inside = ([x, y]) => x >= minX && x <= maxX && y >= minY && y <= maxY;
  const faceColour = (f) => {
    const t = tileOf.get(f);
    return (t && cardColour(t.card)) || (t ? '#d8c9a3' : null);
  };
  const targets = svgEl('g', { class: 'targets' });
  board.faces.forEach((vs, f) => {
    if (!inside(centre(vs))) return;
    const points = vs.map((v) => pt(v).join(',')).join(' ');
    const colour = faceColour(f);
    const poly = svgEl('polygon', colour ? { points, class: 'tile-face', fill: colour, stroke: colour } : { points, class: 'free' });
    poly.dataset.face = f;
    poly.appendChild(svgEl('title', {}, faceText(board, f)));
    svg.appendChild(poly);
    const text = faceText(board, f);
    if (named.has(text) && actionsNaming(text).length) {
      const t = svgEl('polygon', { points, class: 'place target face' });
      t.dataset.place = text;
      t.appendChild(svgEl('title', {}, actionsNaming(text).map((a) => a.text).join('\n')));
      t.addEventListener('click', (ev) => clickPlace(text, ev));
      t.addEventListener('mouseenter', () => previewAction(actionsNaming(text)[0].index, true));
      t.addEventListener('mouseleave', () => previewAction(null, false));
      targets.appendChild(t);
    }
  });
  // Tile outlines (the edges of its faces that no other face of the same tile shares) and names.
  const featureNames = hints().face_features || {};
  const labels = svgEl('g', { class: 'labels' });
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
    else if (debugOn()) labels.appendChild(svgEl('text', { x, y: y + 0.3, 'font-size': 0.16, 'text-anchor': 'middle', class: 'tile-name' }, t.card ? t.card.name : '?'));
    if (t.card) {
      const title = svgEl('title', {}, t.card.name);
      svg.lastElementChild.appendChild(title);
    }
  }
  for (const [f, feature] of board.face_features) {
    const name = featureNames[String(feature & (hints().face_feature_mask || 0xffff))];
    if (!name) continue;
    const [x, y] = centre(board.faces[f]);
    labels.appendChild(svgEl('text', { x, y: y + 0.25, 'font-size': 0.14, 'text-anchor': 'middle', fill: '#333' }, name));
  }
  // Marks: faces get their value as text (debug) or a dot, edges a coloured line, vertices a small square.
  const markColours = ['#1f5fbf', '#b03a2e', '#7d3c98', '#117a65', '#9a7d0a', '#555'];
  const faceMarks = new Map();
  board.marks.forEach((m, i) => {
    const colour = (hints().mark_colours || {})[m.name] || markColours[i % markColours.length];
    for (const [site, value] of m.values) {
      if (m.kind === 'face') {
        const k = faceMarks.get(site) || [];
        k.push({ name: m.name, value, colour });
        faceMarks.set(site, k);
      } else if (m.kind === 'edge' && board.edges[site]) {
        const [a, b] = board.edges[site];
        const [x1, y1] = pt(a), [x2, y2] = pt(b);
        const line = svgEl('line', { x1, y1, x2, y2, stroke: colour, 'stroke-width': 0.08, 'stroke-linecap': 'round' });
        line.appendChild(svgEl('title', {}, `${m.name} ${value}`));
        svg.appendChild(line);
      } else if (m.kind === 'vertex') {
        const [x, y] = pt(site);
        const r = svgEl('rect', { x: x - 0.12, y: y - 0.12, width: 0.24, height: 0.24, fill: colour });
        r.appendChild(svgEl('title', {}, `${m.name} ${value}`));
        svg.appendChild(r);
      }
    }
  });
  // A face's marks: one small coloured dot each in a row above its centre, named on hover (and in debug, written).
  for (const [f, marks] of faceMarks) {
    const [x, y] = centre(board.faces[f]);
    marks.forEach((m, i) => {
      const cx = x + (i - (marks.length - 1) / 2) * 0.14, cy = y - 0.2;
      const dot = svgEl('circle', { cx, cy, r: 0.05, fill: m.colour, class: 'mark' });
      dot.appendChild(svgEl('title', {}, `${m.name}${m.value > 1 ? ' ' + m.value : ''}`));
      svg.appendChild(dot);
      if (debugOn()) labels.appendChild(svgEl('text', { x: cx, y: cy - 0.08, 'font-size': 0.08, 'text-anchor': 'middle', fill: m.colour }, `${m.name}${m.value > 1 ? ' ' + m.value : ''}`));
    });
  }
  svg.appendChild(labels);
  // Things lying on sites: a disc per component, its colour and letter telling its kind; several on one site in a row.
  const lyingNames = [...new Set(board.lying.flatMap((l) => l.cards.filter((c) => c).map((c) => c.name.split(/[\s_]/)[0])))];
  for (const l of board.lying) {
    let p;
    if (l.kind === 'face') p = centre(board.faces[l.site]);
    else if (l.kind === 'vertex') p = pt(l.site);
    else if (board.edges[l.site]) p = centre(board.edges[l.site]);
    if (!p) continue;
    l.cards.forEach((card, i) => {
      const x = p[0] + 0.24 * (i - (l.cards.length - 1) / 2), y = p[1] + 0.12;
      const scene = sceneOf(card);
      if (scene && !faceDown(card)) {
        svg.appendChild(sceneSvg(card, scene, 0.3, [x, y]));
        return;
      }
      const mark = tokenMark(card, lyingNames);
      const g = svgEl('g', { class: 'token' });
      g.dataset.token = faceDown(card) ? '?' : card.name;
      g.appendChild(svgEl('circle', { cx: x, cy: y, r: 0.13, fill: mark.fill, stroke: '#222', 'stroke-width': 0.02 }));
      g.appendChild(svgEl('text', { x, y: y + 0.045, 'font-size': 0.12, 'text-anchor': 'middle', 'font-weight': 'bold', fill: '#111' }, mark.letter));
      g.appendChild(svgEl('title', {}, faceDown(card) ? 'face down' : card.name));
      svg.appendChild(g);
    });
  }
  // Figures: a disc in the owner's colour with the kind's initial; several on one site around it, never on top
  // of each other (more than four: one disc and a count badge).
  const atSite = new Map();
  for (const fig of board.figures) {
    const key = `${fig.site_kind}${fig.site}`;
    if (!atSite.has(key)) atSite.set(key, []);
    atSite.get(key).push(fig);
  }
  for (const figs of atSite.values()) {
    const first = figs[0];
    const p = first.site_kind === 'vertex' ? pt(first.site) : centre(board.faces[first.site]);
    const shown = figs.length > 4 ? [first] : figs;
    shown.forEach((fig, n) => {
      const angle = -Math.PI / 2 + (2 * Math.PI * n) / shown.length;
      const off = shown.length > 1 ? 0.2 : 0;
      const x = p[0] + off * Math.cos(angle), y = p[1] + off * Math.sin(angle);
      const g = svgEl('g', { class: 'figure' });
      g.dataset.figure = fig.figure;
      g.dataset.owner = fig.owner;
      g.appendChild(svgEl('circle', { cx: x, cy: y, r: 0.15, fill: seatColour(fig.owner), stroke: '#fff', 'stroke-width': 0.035 }));
      g.appendChild(svgEl('text', { x, y: y + 0.055, 'font-size': 0.15, 'text-anchor': 'middle', fill: '#fff' }, (fig.kind || '?')[0].toUpperCase()));
      g.appendChild(svgEl('title', {}, `${fig.kind}${fig.owner ? ' of seat ' + fig.owner : ''} at ${vertexOrFace(board, fig)}`));
      svg.appendChild(g);
    });
    if (figs.length > 4) {
      svg.appendChild(svgEl('circle', { cx: p[0] + 0.15, cy: p[1] - 0.15, r: 0.09, fill: '#fff', stroke: '#222', 'stroke-width': 0.02, class: 'badge' }));
      svg.appendChild(svgEl('text', { x: p[0] + 0.15, y: p[1] - 0.12, 'font-size': 0.1, 'text-anchor': 'middle' }, String(figs.length)));
    }
  }
  // Vertices: named by an action, a ring to click (on top of everything); every vertex shows its coordinates on hover.
  V.forEach((_, v) => {
    const p = pt(v);
    if (!inside(p)) return;
    const text = vertexText(board, v);
    const isTarget = named.has(text) && actionsNaming(text).length > 0;
    const c = svgEl('circle', { cx: p[0], cy: p[1], r: isTarget ? 0.2 : 0.12, class: isTarget ? 'place target vertex' : 'place vertex' });
    c.dataset.place = text;
    c.appendChild(svgEl('title', {}, isTarget ? `${text}: ${actionsNaming(text).map((a) => a.text).join(' | ')}` : text));
    c.addEventListener('mouseenter', () => { const h = $('board-hover'); if (h) h.textContent = `vertex ${text}`; });
    if (isTarget) {
      c.addEventListener('click', (ev) => clickPlace(text, ev));
      c.addEventListener('mouseenter', () => previewAction(actionsNaming(text)[0].index, true));
      c.addEventListener('mouseleave', () => previewAction(null, false));
    }
    targets.appendChild(c);
  });
  svg.appendChild(targets);
  // Coordinates on the rims: q along the lowest drawn row, r along the left end of each drawn row.
  const rims = svgEl('g', { class: 'rims' });
  const rows = new Map();
  V.forEach((_, v) => {
    const p = pt(v);
    if (!inside(p)) return;
    const r = Math.floor(v / (board.width + 1));
    if (!rows.has(r) || rows.get(r)[0] > p[0]) rows.set(r, [p[0], p[1], v]);
  });
  const rowKeys = [...rows.keys()].sort((a, b) => a - b);
  for (const r of rowKeys) {
    const [x, y] = rows.get(r);
    rims.appendChild(svgEl('text', { x: x - 0.3, y: y + 0.05, 'font-size': 0.16, 'text-anchor': 'end', class: 'rim' }, `r${r}`));
  }
  if (rowKeys.length) {
    const r0 = rowKeys[0];
    V.forEach((_, v) => {
      if (Math.floor(v / (board.width + 1)) !== r0) return;
      const p = pt(v);
      if (!inside(p)) return;
      rims.appendChild(svgEl('text', { x: p[0], y: p[1] + 0.62, 'font-size': 0.16, 'text-anchor': 'middle', class: 'rim' }, `q${v % (board.width + 1)}`));
    });
  }
  svg.appendChild(rims);
  svg.addEventListener('mouseleave', () => { const h = $('board-hover'); if (h) h.textContent = ''; });
  enableZoom(svg, board.name, full);
  boardGeometry.set(view.boards.indexOf(board), { svg, board, pt, centre });
  return svg;
}

/// What previewAction needs of each drawn board: board index -> {svg, board, pt (vertex -> [x, y]), centre}.
const boardGeometry = new Map();

/// The edges of a set of faces that no other face of the set shares (a tile's outline), as [[x1, y1], [x2, y2]].
function outlineOf(board, faces, pt) {
  const count = new Map();
  for (const f of faces) {
    const vs = board.faces[f];
    vs.forEach((v, i) => {
      const w = vs[(i + 1) % vs.length];
      const key = v < w ? `${v}-${w}` : `${w}-${v}`;
      count.set(key, (count.get(key) || 0) + 1);
    });
  }
  return [...count].filter(([, n]) => n === 1).map(([key]) => key.split('-').map((v) => pt(Number(v))));
}

/// Draws on the map the tiles legal action `index` would lay (the server's `previews`: the tile, in its rotation,
/// on the faces it would cover, with its faces' features), or removes them (`on` false). Shown while the mouse is on
/// the action's button, on a place it names, or on its line of a place's menu.
function previewAction(index, on) {
  document.querySelectorAll('svg.board g.preview').forEach((g) => g.remove());
  const previews = (on && current && current.kind === 'game' && current.data.previews) || {};
  const featureNames = hints().face_features || {};
  for (const t of previews[index] || []) {
    const geo = boardGeometry.get(t.board);
    if (!geo || !geo.svg.isConnected) continue;
    const g = svgEl('g', { class: 'preview' });
    g.dataset.card = t.card.name;
    g.dataset.action = index;
    g.dataset.rotation = t.rotation;
    const colour = cardColour(t.card) || '#d8c9a3';
    for (const f of t.faces) {
      const poly = svgEl('polygon', { points: geo.board.faces[f].map((v) => geo.pt(v).join(',')).join(' '), fill: colour, class: 'preview-face' });
      poly.dataset.face = f;
      g.appendChild(poly);
    }
    for (const [[x1, y1], [x2, y2]] of outlineOf(geo.board, t.faces, geo.pt))
      g.appendChild(svgEl('line', { x1, y1, x2, y2, class: 'preview-outline' }));
    for (const [f, feature] of t.features) {
      const name = featureNames[String(feature & (hints().face_feature_mask || 0xffff))];
      if (!name) continue;
      const [x, y] = geo.centre(geo.board.faces[f]);
      g.appendChild(svgEl('text', { x, y: y + 0.25, 'font-size': 0.14, 'text-anchor': 'middle', fill: '#222' }, name));
    }
    const [x, y] = geo.centre(t.faces.flatMap((f) => geo.board.faces[f]));
    g.appendChild(svgEl('text', { x, y, 'font-size': 0.16, 'text-anchor': 'middle', 'font-weight': 'bold', class: 'preview-name' }, `${t.card.name} r${t.rotation}`));
    geo.svg.insertBefore(g, geo.svg.querySelector('g.targets'));
  }
}

function vertexOrFace(board, fig) {
  return fig.site_kind === 'vertex' ? vertexText(board, fig.site) : faceText(board, fig.site);
}

/// The legend of the seats' colours (and who plays them).
function legendEl(view, players) {
  const box = el('div', 'legend');
  for (let s = 1; s <= view.seats; s++) {
    const item = el('span', 'legend-item');
    item.dataset.seat = s;
    const dot = el('span', 'dot');
    dot.style.background = seatColour(s);
    item.append(dot, `seat ${s} (${players[s - 1] || '?'})`);
    box.appendChild(item);
  }
  return box;
}

