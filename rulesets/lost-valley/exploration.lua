-- Lost Valley, chapter A.2 "exploration" (seed 004): "Lorsqu'un prospecteur arrive à une intersection dont tous les
-- coins n'ont pas encore été explorés, il y termine son déplacement et doit l'explorer": a. river rhombi (extending
-- the course, next to the prospector if possible; else the source), b. land rhombi to complete the intersection (the
-- 32nd brings the ice block), c. land triangles in enclosed holes (or the source), d. the tokens on the symbols.

local K = require("valley")
local rules = K.rules
-- the kernel's methods bound to locals (docs: houserules.game): no method look-up on the game at each call
local move_figure, place_tile, put_under, set_mark, set_phase = K.G.move_figure, K.G.place_tile, K.G.put_under, K.G.set_mark, K.G.set_phase
local G = K.G
local CN, BASE_CN = K.CN, K.BASE_CN
local P, B, FOREST, MOUNTAIN, BUSHES, LAKE, RIVER = K.P, K.B, K.FOREST, K.MOUNTAIN, K.BUSHES, K.LAKE, K.RIVER
local SOURCE, CAVE, MEADOW, SOURCE_TILE, ICE = K.SOURCE, K.CAVE, K.MEADOW, K.SOURCE_TILE, K.ICE
local PILE_RIVER, PILE_LAND, PILE_TRIANGLE, ASIDE = K.PILE_RIVER, K.PILE_LAND, K.PILE_TRIANGLE, K.ASIDE
local DRAWN, POOL_GREEN, POOL_GREY, POOL_ANIMAL = K.DRAWN, K.POOL_GREEN, K.POOL_GREY, K.POOL_ANIMAL
local POOL_EVENT, MAIN, LAY_RIVER, LAY_LAND, LAND = K.POOL_EVENT, K.MAIN, K.LAY_RIVER, K.LAY_LAND, K.LAND
local IS_ANIMAL_FOREST, IS_RIVER_TILE, counter = K.IS_ANIMAL_FOREST, K.IS_RIVER_TILE, K.counter
local set_counter, add_counter, size_of, top_of, move = K.set_counter, K.add_counter, K.size_of, K.top_of, K.move
local GEO, VQ, VR, VEDGES, VFACES, EV1, EV2, EFACES = K.GEO, K.VQ, K.VR, K.VEDGES, K.VFACES, K.EV1, K.EV2, K.EFACES
local FVERTS, FEDGES, edge_between, other_end = K.FVERTS, K.FEDGES, K.edge_between, K.other_end
local face_of, across, global_vertex, global_side = K.face_of, K.across, K.global_vertex, K.global_side
local tile_at, mark_of, tile_faces, tile_corners = K.tile_at, K.mark_of, K.tile_faces, K.tile_corners
local placement, placement_parts, ACUTE_STEP, lay_tokens = K.placement, K.placement_parts, K.ACUTE_STEP, K.lay_tokens

--- Whether the river still has an unexplored end (no source laid yet).
function rules.river_open(game) return counter(game, CN.end_edge) ~= 0 end
local NEAR_END = {} -- edge -> the set of its ends and their neighbours (constants of the lattice, filled as asked)
--- Whether vertex v is adjacent to, or one edge away from, the unexplored part of the river (seed 2.a ①-④): an end of
--- the river's open side, or a neighbour of one.
function rules.near_unexplored_river(game, v)
  local e = counter(game, CN.end_edge)
  if e == 0 then return false end
  local near = NEAR_END[e]
  if not near then
    near = {}
    for _, x in ipairs({ EV1[e], EV2[e] }) do
      near[x] = true
      for _, e2 in ipairs(VEDGES[x]) do near[other_end(e2, x)] = true end
    end
    NEAR_END[e] = near
  end
  return near[v] == true
end

-- The two placements of a rhombus on a pair of adjacent faces (constants of the lattice, filled as asked).
local PAIR_P1, PAIR_P2 = {}, {}
local rhombus_faces, sort_short = K.rhombus_faces, K.sort_short

local function rhombus_placements_of(f, g)
  local x, y
  for _, v in ipairs(FVERTS[f]) do
    local shared = false
    for _, w in ipairs(FVERTS[g]) do if v == w then shared = true end end
    if not shared then x = v end
  end
  for _, w in ipairs(FVERTS[g]) do
    local shared = false
    for _, v in ipairs(FVERTS[f]) do if v == w then shared = true end end
    if not shared then y = w end
  end
  local dq, dr = VQ[y] - VQ[x], VR[y] - VR[x]
  for k = 0, 5 do
    if ACUTE_STEP[k][1] == dq and ACUTE_STEP[k][2] == dr then
      return placement(x, k), placement(y, (k + 3) % 6)
    end
  end
end

local function rhombus_placements(f, g)
  local key = f * 4096 + g
  local p1 = PAIR_P1[key]
  if p1 == nil then
    local q1, q2 = rhombus_placements_of(f, g)
    p1 = q1 or false
    PAIR_P1[key], PAIR_P2[key] = p1, q2 or false
  end
  return p1 or nil, PAIR_P2[key] or nil
end

-- The kernel's placement number of each placement (anchor * 8 + rotation), filled as asked: game:place_tile takes
-- it without a text to read.
local KERNEL_PLACEMENT = {}
--- Lays tile t with its anchor at vertex a and rotation k (game:place_tile).
local function place_at(game, t, a, k)
  local p = a * 8 + k
  local kp = KERNEL_PLACEMENT[p]
  if not kp then kp = game:placement(B, a, k); KERNEL_PLACEMENT[p] = kp end
  place_tile(game, t, B, kp)
end

-- The edge between the two faces of a rhombus at placement p, filled as asked.
local RHOMBUS_INNER = {}
local function rhombus_inner_edge(a, k)
  local p = a * 8 + k
  local inner = RHOMBUS_INNER[p]
  if not inner then
    local fa, fb = rhombus_faces(a, k)
    for _, e in ipairs(FEDGES[fa]) do
      for _, e2 in ipairs(FEDGES[fb]) do if e == e2 then inner = e end end
    end
    RHOMBUS_INNER[p] = inner
  end
  return inner
end

--- The free faces around v a land tile may cover: every free face but the one reserved for the river's course (the
--- face beyond its open end: the river must be able to go on, seed 2.a "elle prolonge le cours de la rivière").
local function free_for_land(game, f, end_face)
  return f and not tile_at(game, B, f) and f ~= end_face
end

--- The legal placements of a land rhombus while exploring v (seed 2.b: "autant de tuiles de terre ferme que
--- nécessaire pour compléter l'intersection"): on a free face around v and a free neighbour of it; one placement per
--- pair of faces (a land tile reads the same both ways round: the placement with the lower anchor).
function rules.land_placements(game, v)
  local out = {}
  local ef = counter(game, CN.end_face)
  local fs = VFACES[v]
  for i = 1, #fs do
    local f = fs[i]
    if free_for_land(game, f, ef) then
      local es = FEDGES[f]
      for j = 1, #es do
        local g = across(es[j], f)
        if free_for_land(game, g, ef) then
          local p1, p2 = rhombus_placements(f, g)
          if p1 then
            -- the pair's placement with the lower anchor (the same for f, g and for g, f: listed once)
            local p = p1 < p2 and p1 or p2
            local listed = false
            for m = 1, #out do if out[m] == p then listed = true; break end end
            if not listed then out[#out + 1] = p end
          end
        end
      end
    end
  end
  return sort_short(out)
end

-- Where river tile t (its river's sides side1, side2) laid at placement p lets the river go on (seed 2.a): it enters
-- through the open side and leaves through a side with a free face beyond. Returns the rhombus's two faces, or nil.
-- The face beyond the side the river would leave by (false when it enters by no side or leaves by the rim), per
-- river sides, placement and open side: constants of the lattice, filled as asked.
local BEYOND = {}
local function river_beyond(p, side1, side2, open)
  local by1 = BEYOND[side1]
  if not by1 then by1 = {}; BEYOND[side1] = by1 end
  local memo = by1[side2]
  if not memo then memo = {}; by1[side2] = memo end
  local key = p * (GEO.NE + 1) + open
  local beyond = memo[key]
  if beyond == nil then
    local a, k = placement_parts(p)
    local s1, s2 = global_side(a, k, side1), global_side(a, k, side2)
    local exit = (s1 == open and s2) or (s2 == open and s1) or nil
    beyond = false
    if exit then
      local fa, fb = rhombus_faces(a, k)
      for _, h in ipairs(EFACES[exit]) do if h ~= fa and h ~= fb then beyond = h end end
    end
    memo[key] = beyond
  end
  return beyond
end

local function river_goes_on(game, p, side1, side2, open)
  local beyond = river_beyond(p, side1, side2, open)
  if beyond and not tile_at(game, B, beyond) then return rhombus_faces(p >> 3, p & 7) end
  return nil
end

--- The legal placements of river tile t (seed 2.a): it covers the face beyond the river's open end, the river enters
--- it through the open side and leaves through a side that has a free face beyond (so that the course goes on);
--- among them, only those next to the prospector at v when there are any ("si possible, adjacente au prospecteur").
function rules.river_placements(game, t, v)
  local open, ef = counter(game, CN.end_edge), counter(game, CN.end_face)
  local all, near = {}, {}
  local side1, side2 = IS_RIVER_TILE[t][1], IS_RIVER_TILE[t][2]
  local es = FEDGES[ef]
  for j = 1, #es do
    local g = across(es[j], ef)
    if g and not tile_at(game, B, g) then
      local p1, p2 = rhombus_placements(ef, g)
      for i = 1, p1 and 2 or 0 do
        local p = i == 1 and p1 or p2
        local fa, fb = river_goes_on(game, p, side1, side2, open)
        if fa then
          all[#all + 1] = p
          local fv, gv = FVERTS[fa], FVERTS[fb]
          if fv[1] == v or fv[2] == v or fv[3] == v or gv[1] == v or gv[2] == v or gv[3] == v then
            near[#near + 1] = p
          end
        end
      end
    end
  end
  local out = #near > 0 and near or all
  return sort_short(out)
end

--- The faces that placement action x (a `lay q,r rk` of rules.actions) would cover, the rhombus's two faces, and for
--- the river tile being laid the side its river would leave by (the view shows each choice while the player chooses).
function rules.placement_faces(game, x)
  local _, a, k = K.parts(x)
  local fa, fb = rhombus_faces(a, k)
  local t, exit = top_of(game, DRAWN), nil
  if t and IS_RIVER_TILE[t] then
    local open = counter(game, CN.end_edge)
    for _, side in ipairs(IS_RIVER_TILE[t]) do
      local e = global_side(a, k, side)
      if e ~= open then exit = e end
    end
  end
  return { fa, fb }, exit
end

--- The legal placements of the tile being laid (the one in `drawn`).
function rules.placements(game)
  local t = top_of(game, DRAWN)
  if not t then return {} end
  local v = counter(game, CN.exploring)
  if IS_RIVER_TILE[t] then return rules.river_placements(game, t, v) end
  return rules.land_placements(game, v)
end

-- The rhombi (land and river tiles): their faces follow from their placement (rhombus_faces), so same_bank reads a
-- rhombus's sides from the lattice's constants instead of asking the kernel for the tile's faces.
local IS_RHOMBUS = {}
for _, t in ipairs(K.LAND_TILES) do IS_RHOMBUS[t] = true end
for _, t in ipairs(K.RIVER_TILES) do IS_RHOMBUS[t] = true end
-- The distinct edges of the two faces of a rhombus at placement p (its four sides and its inner edge), filled as asked.
local RHOMBUS_EDGES = {}
local function rhombus_edges(a, k)
  local p = a * 8 + k
  local es = RHOMBUS_EDGES[p]
  if not es then
    es = {}
    local fa, fb = rhombus_faces(a, k)
    for _, g in ipairs({ fa, fb }) do
      for _, e in ipairs(FEDGES[g]) do
        local known = false
        for i = 1, #es do if es[i] == e then known = true end end
        if not known then es[#es + 1] = e end
      end
    end
    RHOMBUS_EDGES[p] = es
  end
  return es
end

-- The banks of a tile whose sides and inner edges are `es`, the river crossing es[i] where crossed[i]: corner vertex
-- -> the number of its bank (the corners joined by the edges the river does not cross share one).
local function banks_of(es, crossed)
  local part, n = {}, 0
  for i = 1, #es do
    local e = es[i]
    for _, x in ipairs({ EV1[e], EV2[e] }) do
      if not part[x] then n = n + 1; part[x] = n end
    end
  end
  local changed = true
  while changed do
    changed = false
    for i = 1, #es do
      if not crossed[i] then
        local x, y = EV1[es[i]], EV2[es[i]]
        if part[x] ~= part[y] then
          local from, to = math.max(part[x], part[y]), math.min(part[x], part[y])
          for z, q in pairs(part) do if q == from then part[z] = to end end
          changed = true
        end
      end
    end
  end
  return part
end

-- A rhombus's banks per placement and per set of crossed edges (a bit per edge of rhombus_edges), filled as asked.
local RHOMBUS_BANKS = {}
local CROSSED_SCRATCH = {}

--- Banks: the corners of a river tile split by the river (seed 2.d, B.1 "sur la même rive"); two corners are on the
--- same bank when a path along the tile's sides and inner edges joins them without crossing the river.
-- The banks of the tile covering face f (banks_of's corner -> bank number), read from its edges' river marks.
local function banks(game, f)
  local t, k, a = tile_at(game, B, f)
  local part
  if t and IS_RHOMBUS[t] then
    -- a rhombus: its five edges' river marks, and its banks for them from the lattice's constants
    local es = rhombus_edges(a, k)
    local bits = 0
    for i = 1, #es do
      if mark_of(game, B, "river", es[i]) ~= 0 then bits = bits | (1 << (i - 1)) end
    end
    local key = (a * 8 + k) * 64 + bits
    part = RHOMBUS_BANKS[key]
    if not part then
      for i = 1, #es do CROSSED_SCRATCH[i] = bits & (1 << (i - 1)) ~= 0 end
      part = banks_of(es, CROSSED_SCRATCH)
      RHOMBUS_BANKS[key] = part
    end
  else
    local es, crossed = {}, {}
    for _, g in ipairs((tile_faces(game, f))) do
      for _, e in ipairs(FEDGES[g]) do
        es[#es + 1] = e
        crossed[#es] = mark_of(game, B, "river", e) ~= 0
      end
    end
    part = banks_of(es, crossed)
  end
  return part
end

function rules.same_bank(game, f, v, w)
  if v == w then return true end
  local part = banks(game, f)
  local pv = part[v]
  return pv ~= nil and pv == part[w]
end
local BASE_SAME_BANK = rules.same_bank

-- The lowest corner (vertex) of the tile covering face f: a rhombus's from its placement (filled as asked), another
-- tile's from its corners.
local RHOMBUS_LOWEST = {}
local function lowest_corner(game, f)
  local t, k, a = tile_at(game, B, f)
  if t and IS_RHOMBUS[t] then
    local p = a * 8 + k
    local low = RHOMBUS_LOWEST[p]
    if not low then
      local fa, fb = rhombus_faces(a, k)
      for _, g in ipairs({ fa, fb }) do
        for _, x in ipairs(FVERTS[g]) do if not low or x < low then low = x end end
      end
      RHOMBUS_LOWEST[p] = low
    end
    return low
  end
  local corners = tile_corners(game, f)
  table.sort(corners)
  return corners[1]
end

--- The symbols of a tile just laid get their tokens, face down (seed 2.d): green gold on bushes, lakes and each bank
--- of a river tile (on that bank), grey gold on mountains and the source, an animal on every other forest and on the
--- bear cave, events on the other forests and on meadows.
function rules.lay_symbols(game, t, faces)
  local land = LAND[t]
  local f1, f2 = faces[1], faces[2] or faces[1]
  if land == MOUNTAIN then
    for i = 1, P.mountain_grey do lay_tokens(game, POOL_GREY, 1, "face", i % 2 == 1 and f1 or f2) end
  elseif land == SOURCE then
    lay_tokens(game, POOL_GREY, P.source_grey, "face", f1)
  elseif land == BUSHES then
    for i = 1, P.bushes_green do lay_tokens(game, POOL_GREEN, 1, "face", i % 2 == 1 and f1 or f2) end
  elseif land == LAKE then
    lay_tokens(game, POOL_GREEN, P.lake_green, "face", f1)
  elseif land == FOREST then
    if IS_ANIMAL_FOREST[t] then lay_tokens(game, POOL_ANIMAL, 1, "face", f1)
    else lay_tokens(game, POOL_EVENT, 1, "face", f1) end
  elseif land == CAVE then
    lay_tokens(game, POOL_ANIMAL, 1, "face", f1)
  elseif land == MEADOW then
    lay_tokens(game, POOL_EVENT, P.meadow_events, "face", f1)
  elseif land == RIVER then
    -- the bank of the tile's lowest corner on one face, the other bank on the other face (every face of a river
    -- rhombus has corners on both banks: the river crosses two of its three sides)
    local first = lowest_corner(game, f1)
    -- the tile's banks read once while rules.same_bank is the base rule (laying tokens and bank marks changes no river
    -- mark): the first corner's bank number
    local part = rules.same_bank == BASE_SAME_BANK and banks(game, f1)
    local pf = part and part[first]
    for i = 1, 2 do
      local f = i == 1 and f1 or f2
      local fv = FVERTS[f]
      for j = 1, #fv do
        local w = fv[j]
        local same
        if part then same = first == w or pf ~= nil and pf == part[w] else same = rules.same_bank(game, f1, first, w) end
        if same == (i == 1) then
          set_mark(game, B, "bank", f, j)
          lay_tokens(game, POOL_GREEN, P.river_green_per_bank, "face", f)
          break
        end
      end
    end
  end
end

local BASE_LAY_SYMBOLS = rules.lay_symbols
-- The faces of a rhombus at placement p as the list lay_symbols and after_laying take (constants of the lattice,
-- filled as asked; shared, so only while lay_symbols, after_laying and fill_holes are the base rules, which only
-- read it).
local RHOMBUS_FACE_LIST = {}
local BASE_AFTER_LAYING, BASE_FILL_HOLES -- set below, with the rules
local function laid_faces(p, fa, fb)
  if rules.lay_symbols ~= BASE_LAY_SYMBOLS or rules.after_laying ~= BASE_AFTER_LAYING
     or rules.fill_holes ~= BASE_FILL_HOLES then
    return { fa, fb }
  end
  local l = RHOMBUS_FACE_LIST[p]
  if not l then l = { fa, fb }; RHOMBUS_FACE_LIST[p] = l end
  return l
end

--- Lays river tile t at placement p: the tile, its course number, the river marks on the edges it crosses (its two
--- crossed sides and its inner side), and the river's new open end.
function rules.lay_river_tile(game, t, p)
  local a, k = placement_parts(p)
  local fa, fb = rhombus_faces(a, k)
  place_at(game, t, a, k)
  local course = counter(game, CN.course) + 1
  set_counter(game, CN.course, 0, course)
  set_mark(game, B, "course", fa, course)
  set_mark(game, B, "course", fb, course)
  local open = counter(game, CN.end_edge)
  local exit
  local sides = IS_RIVER_TILE[t]
  for i = 1, #sides do
    local e = global_side(a, k, sides[i])
    set_mark(game, B, "river", e, 1)
    if e ~= open then exit = e end
  end
  set_mark(game, B, "river", rhombus_inner_edge(a, k), 1)
  local beyond
  local hs = EFACES[exit]
  for i = 1, #hs do local h = hs[i]; if h ~= fa and h ~= fb then beyond = h end end
  set_counter(game, CN.end_edge, 0, exit)
  set_counter(game, CN.end_face, 0, beyond)
  local faces = laid_faces(p, fa, fb)
  rules.lay_symbols(game, t, faces)
  rules.after_laying(game, faces == RHOMBUS_FACE_LIST[p] and faces or { fa, fb })
end

--- Lays the source at the river's open end (seed 2.a: no river tile fits or none is left; 2.b: the 32nd land rhombus;
--- 2.c: the river flows out of an enclosed hole): the triangle beyond the open side, its crossed side on it.
function rules.lay_source(game)
  local open, ef = counter(game, CN.end_edge), counter(game, CN.end_face)
  if open == 0 or G.zone_of(game, SOURCE_TILE) ~= ASIDE then return end
  for _, a in ipairs(FVERTS[ef]) do
    for k = 0, 5 do
      local p1, p2 = global_vertex(a, k, 1, 0), global_vertex(a, k, 0, 1)
      if p1 and p2 and face_of(a, p1, p2) == ef and edge_between(a, p1) == open then
        place_tile(game, SOURCE_TILE, B, game:vertex_text(B, a), k)
        local course = counter(game, CN.course) + 1
        set_counter(game, CN.course, 0, course)
        set_mark(game, B, "course", ef, course)
        set_counter(game, CN.end_edge, 0, 0)
        set_counter(game, CN.end_face, 0, 0)
        rules.lay_symbols(game, SOURCE_TILE, { ef })
        rules.after_laying(game, { ef })
        return
      end
    end
  end
  error("the source does not fit at the river's end")
end

-- Each face's neighbours across its sides (the rim's sides left out), in FEDGES order: constants of the lattice.
local NEIGHBOURS = {}
local function neighbours(f)
  local ns = NEIGHBOURS[f]
  if not ns then
    ns = {}
    for _, e in ipairs(FEDGES[f]) do
      local g = across(e, f)
      if g then ns[#ns + 1] = g end
    end
    NEIGHBOURS[f] = ns
  end
  return ns
end

-- Whether face f is covered, read once a face between two changes of the map (fill_holes looks at the faces around a
-- new tile several times): COVER_READ[f] == READS marks an answer read since the last change (map_changed).
local COVER, COVER_READ, READS = {}, {}, 0
local function covered_now(game, f)
  if COVER_READ[f] == READS then return COVER[f] end
  local c = tile_at(game, B, f) ~= nil
  COVER[f], COVER_READ[f] = c, READS
  return c
end
local function map_changed() READS = READS + 1 end

--- Whether the free face f is enclosed: every neighbour across its sides is covered or off the board, `ignore` apart.
local function enclosed(game, f, ignore)
  local ns = neighbours(f)
  for i = 1, #ns do
    local g = ns[i]
    if g ~= ignore and not covered_now(game, g) then return false end
  end
  return true
end

-- The placement (anchor * 8 + rotation) of a triangle covering face g, false if none: constants of the lattice.
local TRIANGLE_PLACEMENT = {}
local function triangle_placement(g)
  local p = TRIANGLE_PLACEMENT[g]
  if p == nil then
    p = false
    for _, a in ipairs(FVERTS[g]) do
      for k = 0, 5 do
        local p1, p2 = global_vertex(a, k, 1, 0), global_vertex(a, k, 0, 1)
        if p1 and p2 and face_of(a, p1, p2) == g then p = a * 8 + k; break end
      end
      if p then break end
    end
    TRIANGLE_PLACEMENT[g] = p
  end
  return p
end

--- Enclosed holes (seed 2.c): a fully enclosed triangular hole gets a land triangle from the pile; when the river flows
--- out of an enclosed triangle (or an enclosed rhombus-shaped hole), the source is laid at its end instead.
function rules.fill_holes(game, faces)
  map_changed()
  local ef = counter(game, CN.end_face)
  if ef ~= 0 and not covered_now(game, ef) then
    local hole = enclosed(game, ef)
    if not hole then
      local ns = neighbours(ef)
      for i = 1, #ns do
        local g = ns[i]
        if not covered_now(game, g) and enclosed(game, g, ef) and enclosed(game, ef, g) then hole = true end
      end
    end
    if hole then rules.lay_source(game); map_changed() end
  end
  -- the river's open end, read once: laying a triangle does not move it (only lay_source above does)
  ef = counter(game, CN.end_face)
  for n = 1, #faces do
    local ns = neighbours(faces[n])
    for i = 1, #ns do
      local g = ns[i]
      if not covered_now(game, g) and g ~= ef and enclosed(game, g) then
        local t = top_of(game, PILE_TRIANGLE)
        local p = t and triangle_placement(g)
        if p then
          place_at(game, t, p >> 3, p & 7)
          add_counter(game, CN.triangles_laid, 0, 1)
          rules.lay_symbols(game, t, { g })
          if rules.lay_symbols ~= BASE_LAY_SYMBOLS then ef = counter(game, CN.end_face) end
          map_changed()
        end
      end
    end
  end
end

--- After a tile is laid: holes (2.c), and the 32nd land rhombus brings the ice block (2.b).
function rules.after_laying(game, faces)
  rules.fill_holes(game, faces)
end
BASE_AFTER_LAYING, BASE_FILL_HOLES = rules.after_laying, rules.fill_holes

--- The 32nd and last land rhombus (seed 2.b): the ice block enters on the source (laid first at the river's end if
--- needed), movement along the border of the explored area opens, and the unused triangles and river tiles leave.
function rules.ice_enters(game)
  if counter(game, CN.ice) ~= 0 then return end
  rules.lay_source(game)
  set_counter(game, CN.ice, 0, 1)
  for _, z in ipairs({ PILE_RIVER, PILE_TRIANGLE }) do
    while top_of(game, z) do move(game, top_of(game, z), "box") end
  end
  -- the ice block stands on the source; without one (the river ran into the rim), on the river's last tile (ASSUMED)
  local best, bestc = nil, 0
  for f = 1, GEO.NF do
    local c = mark_of(game, B, "course", f)
    if c > bestc then best, bestc = f, c end
  end
  move_figure(game, ICE, B, "face", best)
  if G.zone_of(game, SOURCE_TILE) == ASIDE then move(game, SOURCE_TILE, "box") end
end

--- Lays the land rhombus t at placement p (seed 2.b), then its tokens, holes and the ice block after the last one.
function rules.lay_land_tile(game, t, p)
  local a, k = placement_parts(p)
  local fa, fb = rhombus_faces(a, k)
  place_at(game, t, a, k)
  add_counter(game, CN.land_laid, 0, 1)
  local faces = laid_faces(p, fa, fb)
  rules.lay_symbols(game, t, faces)
  rules.after_laying(game, faces == RHOMBUS_FACE_LIST[p] and faces or { fa, fb })
  if not top_of(game, PILE_LAND) then rules.ice_enters(game) end
end

-- Whether river tile t has a legal placement (rules.river_placements' list is not empty: the same test, stopped at
-- the first placement found, with no list built). Only while rules.river_placements is the base rule.
local BASE_RIVER_PLACEMENTS = rules.river_placements
local function river_fits(game, t)
  local open, ef = counter(game, CN.end_edge), counter(game, CN.end_face)
  local side1, side2 = IS_RIVER_TILE[t][1], IS_RIVER_TILE[t][2]
  local es = FEDGES[ef]
  for j = 1, #es do
    local g = across(es[j], ef)
    if g and not tile_at(game, B, g) then
      local p1, p2 = rhombus_placements(ef, g)
      for i = 1, p1 and 2 or 0 do
        if river_goes_on(game, i == 1 and p1 or p2, side1, side2, open) then return true end
      end
    end
  end
  return false
end

--- Draws the next river tile that can be laid (seed 2.a): a tile that cannot goes under the pile and the next is
--- drawn; returns nil when none fits or none is left.
function rules.draw_river_tile(game, v)
  local fast = rules.river_placements == BASE_RIVER_PLACEMENTS
  for _ = 1, size_of(game, PILE_RIVER) do
    local t = top_of(game, PILE_RIVER)
    if fast and river_fits(game, t) or not fast and #rules.river_placements(game, t, v) > 0 then
      move(game, t, DRAWN)
      return t
    end
    put_under(game, t, PILE_RIVER)
  end
  return nil
end

local BASE_PLACEMENTS, BASE_LAND_PLACEMENTS = rules.placements, rules.land_placements
local function fast_placements()
  return rules.placements == BASE_PLACEMENTS and rules.land_placements == BASE_LAND_PLACEMENTS
end

--- Goes on with the exploration of the vertex in `exploring` (seed 2, steps a-d): river tiles first while the
--- prospector is near the river's unexplored end, then land rhombi until the intersection is complete. A tile with a
--- single legal placement is laid at once; otherwise the player chooses (phase LAY_RIVER / LAY_LAND).
function rules.explore(game, s)
  local v = counter(game, CN.exploring)
  while true do
    if rules.river_open(game) and counter(game, CN.ice) == 0 and rules.near_unexplored_river(game, v) then
      local t = rules.draw_river_tile(game, v)
      if not t then
        rules.lay_source(game)
      else
        local ps = rules.placements(game)
        if #ps == 1 then
          rules.lay_river_tile(game, t, ps[1])
        else
          set_phase(game, LAY_RIVER)
          return
        end
      end
    else
      local land = counter(game, CN.ice) == 0 and not rules.explored(game, v) and top_of(game, PILE_LAND)
                   and rules.land_placements(game, v)
      if not land or #land == 0 then break end
      local t = top_of(game, PILE_LAND)
      move(game, t, DRAWN)
      -- the drawn land tile's placements: the list just read while rules.placements and rules.land_placements are
      -- the base rules (drawing the tile changes nothing on the map)
      local ps = fast_placements() and land or rules.placements(game)
      if #ps == 1 then
        rules.lay_land_tile(game, t, ps[1])
      else
        set_phase(game, LAY_LAND)
        return
      end
    end
  end
  set_counter(game, CN.exploring, 0, 0)
  set_phase(game, MAIN)
end
