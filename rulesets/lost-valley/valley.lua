-- Lost Valley: the material and the board (seed MATÉRIEL, MISE EN PLACE: "1 tuile de départ, avec le magasin au pied
-- de la cascade, 44 tuiles paysage en losange, 11 tuiles paysage triangulaires, 99 jetons paysage circulaires ...").
-- The components (tiles, tokens, items), the zones and counters, the lattice's geometry and what a tile shows, and the
-- small helpers every chapter shares. Every other module of the ruleset reads them from here
-- (`local K = require("valley")`); `K.rules` is the table of rules the chapters fill.

local hr = houserules
local P = hr.params
local SEATS = hr.seats
local W, H = P.width, P.height
local B <const> = 1 -- the board number of "valley"

-- ---- features (small integers the tiles carry; docs/boards.md) ------------------------------------------------
-- Face features: the landscape in the low 4 bits, then flags.
local FOREST <const>, MOUNTAIN <const>, BUSHES <const>, LAKE <const>, RIVER <const> = 1, 2, 3, 4, 5
local SOURCE <const>, STORE <const>, REFINERY <const>, CAVE <const>, MEADOW <const>, HOME <const> = 6, 7, 8, 9, 10, 11
local WATER <const>, FISH <const> = 16, 32
local LETTER = { [FOREST] = "F", [MOUNTAIN] = "M", [BUSHES] = "B", [LAKE] = "L", [RIVER] = "R", [SOURCE] = "S",
                 [STORE] = "T", [REFINERY] = "Y", [CAVE] = "C", [MEADOW] = "E", [HOME] = "H" }
local LANDSCAPE_NAME = { [FOREST] = "forest", [MOUNTAIN] = "mountain", [BUSHES] = "bushes", [LAKE] = "lake",
                         [RIVER] = "river", [SOURCE] = "source", [STORE] = "trading post", [REFINERY] = "refinery",
                         [CAVE] = "bear cave", [MEADOW] = "meadow", [HOME] = "start" }
-- Side features: the river crosses this side. Corner features: a store (trading post), the start store.
local CROSS <const> = 1
local STORE_CORNER <const>, HOME_STORE <const> = 1, 2
-- Kernel edge classes (docs/boards.md).
local INNER <const>, COVERED2 <const>, COVERED1 <const>, OFFBOARD <const> = 1, 2, 4, 8

-- ---- components -------------------------------------------------------------------------------------------------
local list = {}
local function add(c) list[#list + 1] = c; return #list end
local RHOMBUS_FACES = { ["0,0u"] = 0, ["0,0d"] = 0 }
local function rhombus(name, code, extra)
  local faces = { ["0,0u"] = code | (extra or 0), ["0,0d"] = code | (extra or 0) }
  return { name = name, kind = "tile", shape = "rhombus", land = code, landscape = LANDSCAPE_NAME[code], faces = faces,
           back = code == RIVER and "river" or "land" }
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

-- The start tile (seed MISE EN PLACE: "la tuile de départ, avec le magasin au pied de la cascade"). ASSUMED shape:
-- a triangle of side 2 (four faces) in the corner 0,0; the river enters through side 1,1-2,0, flows through three
-- faces and falls off the board at side 0,0-0,1 (the waterfall); the store is the corner 1,0, from which the two
-- fords (1,0-1,1 and 1,0-0,1) cross the river. The face 0,1u is dry land.
local START = add { name = "start", kind = "tile", shape = "start", land = HOME, landscape = LANDSCAPE_NAME[HOME],
  faces = { ["0,0u"] = RIVER | WATER, ["0,0d"] = RIVER | WATER, ["1,0u"] = RIVER | WATER, ["0,1u"] = HOME },
  sides = { ["1,1-2,0"] = CROSS, ["0,0-0,1"] = CROSS },
  corners = { ["1,0"] = HOME_STORE } }

-- Land rhombi (ASSUMED mix and symbols, ruleset.toml `land`). Forests alternate animal / event (digest).
local LAND_TILES = {}
local forests = 0
for _, name in ipairs({ "forest", "mountain", "bushes", "lake" }) do
  local code = ({ forest = FOREST, mountain = MOUNTAIN, bushes = BUSHES, lake = LAKE })[name]
  for _ = 1, (P.land[name] or 0) do
    local t = rhombus(name, code, code == LAKE and (WATER | FISH) or 0)
    if code == FOREST then
      forests = forests + 1
      t.animal = forests % 2 == 1
      t.name = t.animal and "forest-animal" or "forest-event"
    end
    LAND_TILES[#LAND_TILES + 1] = add(t)
  end
end

-- River rhombi. Local sides of the rhombus (vertices 0,0 1,0 0,1 1,1): A = 0,0-1,0, B = 0,0-0,1, C = 1,0-1,1,
-- D = 0,1-1,1; the inner side 1,0-0,1. ASSUMED shapes: straight across A and D, or B and C (mirror images, half
-- each), or bent across A and C (the river turns at the obtuse corner 1,0); in all three it crosses the inner side.
local RIVER_SIDES = {
  ["river-straight"] = { "0,0-1,0", "0,1-1,1" },
  ["river-straight-b"] = { "0,0-0,1", "1,0-1,1" },
  ["river-bend"] = { "0,0-1,0", "1,0-1,1" },
}
local RIVER_TILES, CROSSED = {}, {} -- the river tiles; tile -> its two crossed sides (local texts)
do
  local kinds = {}
  local straight = P.river.straight or 0
  for i = 1, straight do kinds[#kinds + 1] = i % 2 == 1 and "river-straight" or "river-straight-b" end
  for _ = 1, (P.river.bend or 0) do kinds[#kinds + 1] = "river-bend" end
  for i, name in ipairs(kinds) do
    local fish = (P.river_fish_every > 0 and i % P.river_fish_every == 0) and FISH or 0
    local t = rhombus(name, RIVER, WATER | fish)
    if fish ~= 0 then t.name = name .. "-fish" end
    t.sides = {}
    for _, s in ipairs(RIVER_SIDES[name]) do t.sides[s] = CROSS end
    local id = add(t)
    RIVER_TILES[#RIVER_TILES + 1] = id
    CROSSED[id] = RIVER_SIDES[name]
  end
end

-- The source (a triangle kept aside): the river leaves it through its side 0,0-1,0. Seed 2.c: prospectors move
-- along it "comme si c'était une tuile de rivière" (rules.way: its sides are walked as along the river), and that is
-- all: it is no water to fish, pan, net or dig a canal from, and its corners are no river bank (room for one).
local SOURCE_TILE = add { name = "source", kind = "tile", shape = "triangle", land = SOURCE, landscape = LANDSCAPE_NAME[SOURCE],
  faces = { ["0,0u"] = SOURCE }, sides = { ["0,0-1,0"] = CROSS } }
-- Land triangles (ASSUMED mix, ruleset.toml `triangles`). A trading post is a store at each of its corners.
local TRIANGLE_TILES = {}
for _, name in ipairs({ "store", "refinery", "cave", "meadow" }) do
  local code = ({ store = STORE, refinery = REFINERY, cave = CAVE, meadow = MEADOW })[name]
  for _ = 1, (P.triangles[name] or 0) do
    local t = { name = name, kind = "tile", shape = "triangle", land = code, landscape = LANDSCAPE_NAME[code],
                faces = { ["0,0u"] = code }, back = "triangle" }
    if code == STORE then t.corners = { ["0,0"] = STORE_CORNER, ["1,0"] = STORE_CORNER, ["0,1"] = STORE_CORNER } end
    TRIANGLE_TILES[#TRIANGLE_TILES + 1] = add(t)
  end
end
local LAST_TILE = #list

-- Round tokens: green and grey gold, animals, events (digest "Components"). `back` is what shows face down: the
-- kernel re-deals hidden components only among those of the same back (determinizations for the bots).
local GREEN_TOKENS, GREY_TOKENS, ANIMAL_TOKENS, EVENT_TOKENS = {}, {}, {}, {}
for _, v in ipairs(sorted_keys(P.green_gold)) do
  for _ = 1, P.green_gold[v] do GREEN_TOKENS[#GREEN_TOKENS + 1] = add { name = "green" .. v, kind = "gold", gold = "green", nuggets = tonumber(v), back = "green" } end
end
for _, v in ipairs(sorted_keys(P.grey_gold)) do
  for _ = 1, P.grey_gold[v] do GREY_TOKENS[#GREY_TOKENS + 1] = add { name = "grey" .. v, kind = "gold", gold = "grey", nuggets = tonumber(v), back = "grey" } end
end
for _, a in ipairs({ "rat", "wolf", "deer", "bear" }) do
  for _ = 1, (P.animals[a] or 0) do ANIMAL_TOKENS[#ANIMAL_TOKENS + 1] = add { name = a, kind = "animal", food = P.animal_food[a], back = "animal" } end
end

-- Equipment and goods: item kinds. Equipment is reusable (seed: "peuvent être utilisés aussi souvent que le joueur
-- le souhaite"); goods are used once (attribute `good`: the goods zones hold only them, which everybody knows).
local ITEMS = { "horse", "cart", "boat", "crate", "sieve", "axe", "rod", "rifle", "whisky", "stick", "dried-fish" }
local ITEM_OF = {}
for i, name in ipairs(ITEMS) do ITEM_OF[name] = i end
local HORSE <const>, CART <const>, BOAT <const>, CRATE <const>, SIEVE <const>, AXE <const> = 1, 2, 3, 4, 5, 6
local ROD <const>, RIFLE <const>, WHISKY <const>, STICK <const>, DRIED_FISH <const> = 7, 8, 9, 10, 11
local IS_GOOD = { [WHISKY] = true, [STICK] = true, [DRIED_FISH] = true }
local function item_slots(i)
  if i == CART then return 0 end
  return P.big_items[ITEMS[i]] or 1
end
for _, e in ipairs({ "axe", "rod", "rifle", "stick", "dried_fish", "whisky" }) do
  local name = e == "dried_fish" and "dried-fish" or e
  for _ = 1, (P.events[e] or 0) do
    EVENT_TOKENS[#EVENT_TOKENS + 1] = add { name = name, kind = "item", item = ITEM_OF[name], good = IS_GOOD[ITEM_OF[name]], event = true, back = "event" }
  end
end

-- Gold events (seed B.2: "Si c'est de l'or, il est placé, face cachée, dans son sac d'or"): event tokens worth
-- nuggets (ruleset.toml `event_gold`, ASSUMED), named gold<nuggets>; taken, they go to the gold bag.
for _, v in ipairs(sorted_keys(P.event_gold or {})) do
  for _ = 1, P.event_gold[v] do
    EVENT_TOKENS[#EVENT_TOKENS + 1] = add { name = "gold" .. v, kind = "gold", gold = "event", nuggets = tonumber(v), event = true, back = "event" }
  end
end
local SUPPLY_ITEMS = {}
for i, name in ipairs(ITEMS) do
  for _ = 1, (P.supply[name] or 0) do SUPPLY_ITEMS[#SUPPLY_ITEMS + 1] = add { name = name, kind = "item", item = i, good = IS_GOOD[i] } end
end
local NCOMP = #list

-- ---- zones, counters, figures, the board --------------------------------------------------------------------
local zone_list = {
  { name = "pile.river", visibility = "hidden" }, { name = "pile.land", visibility = "hidden" },
  { name = "pile.triangle", visibility = "hidden" }, { name = "aside", visibility = "public" },
  { name = "drawn", visibility = "public" }, { name = "pool.green", visibility = "hidden" },
  { name = "pool.grey", visibility = "hidden" }, { name = "pool.animal", visibility = "hidden" },
  { name = "pool.event", visibility = "hidden" }, { name = "store", visibility = "public" },
  { name = "killed", visibility = "public" },
}
for s = 1, SEATS do
  zone_list[#zone_list + 1] = { name = "equip." .. s, owner = s, visibility = "public" } -- seen by all, owned (game:owns)
  zone_list[#zone_list + 1] = { name = "goods." .. s, owner = s, visibility = "owner", holds = "good" } -- goods only
  zone_list[#zone_list + 1] = { name = "gold." .. s, owner = s, visibility = "owner", holds = "gold" } -- gold only
  zone_list[#zone_list + 1] = { name = "look." .. s, owner = s, visibility = "owner" }
end
local figure_list = {}
for s = 1, SEATS do figure_list[s] = { kind = "prospector", owner = s } end
figure_list[SEATS + 1] = { kind = "ice" }
local ICE = SEATS + 1

local counter_list = {
    { name = "log", per_seat = true }, { name = "food", per_seat = true }, { name = "tool", per_seat = true },
    { name = "net" }, { name = "sawmill" }, { name = "mine" },   -- buildings left in the supply
    { name = "moves" }, { name = "acts" }, { name = "drank" },  -- this turn: moves and actions left, whisky drunk
    { name = "mode" },                                          -- this turn's way of moving (1 foot, 2 horse, 3 boat)
    { name = "exploring" },                                     -- the vertex being explored (0: none)
    { name = "end_edge" }, { name = "end_face" },               -- the river's open end: the side, the face beyond
    { name = "course" },                                        -- the river's length in tiles (start tile = 1)
    { name = "land_laid" }, { name = "ice" },                   -- land rhombi laid; 1 once the ice block is in play
    { name = "triangles_laid" },                                -- land triangles laid in holes
    { name = "basket" },                                        -- nuggets owed for the items taken in a store
    { name = "look_face" },                                     -- the meadow whose events are being looked at
    { name = "turns" },                                         -- turns played
    { name = "hunter_roll" }, { name = "animal_roll" },         -- the last hunt's dice (the hunter's with its rifle)
}
local declared = hr.declare {
  boards = { { name = "valley", kind = "triangular", width = W, height = H,
               marks = { course = "face", water = "face", mine = "face", bank = "face", river = "edge", ford = "edge",
                         canal = "edge", building = "vertex" } } },
  shapes = { rhombus = { "0,0u", "0,0d" }, triangle = { "0,0u" }, start = { "0,0u", "0,0d", "1,0u", "0,1u" } },
  components = list,
  zones = zone_list,
  counters = counter_list,
  figures = figure_list,
  rounds = 1,
  -- the phases' names (game:phase_name(), scenario files' `phase = "main"`): a turn (main), laying the tiles of an
  -- exploration (lay_river, lay_land), keeping one of a meadow's events (keep), buying (shopping), discarding at
  -- the end of a turn (discard); the numbers are MAIN .. DISCARD below
  phases = { main = 0, lay_river = 1, lay_land = 2, keep = 3, shopping = 4, discard = 5 },
}
-- The counters by number (their place in counter_list, as game:counter takes them: a number is found without comparing
-- names): `counter(game, CN.end_edge)` reads the counter "end_edge".
local CN = {}
for i, c in ipairs(counter_list) do CN[c.name] = i end
local CARD = declared.components
local Z = declared.zones
local PILE_RIVER, PILE_LAND, PILE_TRIANGLE, ASIDE, DRAWN = Z["pile.river"], Z["pile.land"], Z["pile.triangle"], Z.aside, Z.drawn
local POOL_GREEN, POOL_GREY, POOL_ANIMAL, POOL_EVENT = Z["pool.green"], Z["pool.grey"], Z["pool.animal"], Z["pool.event"]
local SHOP, KILLED = Z.store, Z.killed
local EQUIP, GOODS, GOLD, LOOK = {}, {}, {}, {}
for s = 1, SEATS do EQUIP[s], GOODS[s], GOLD[s], LOOK[s] = Z["equip." .. s], Z["goods." .. s], Z["gold." .. s], Z["look." .. s] end
local BASE = { "log", "food", "tool" }
local BASE_CN = { CN.log, CN.food, CN.tool } -- the base goods' counters by number
local LOG <const>, FOOD <const>, TOOL <const> = 1, 2, 3

local MAIN <const>, LAY_RIVER <const>, LAY_LAND <const>, KEEP <const>, SHOPPING <const>, DISCARD <const> = 0, 1, 2, 3, 4, 5
local FOOT <const>, ON_HORSE <const>, BY_BOAT <const> = 1, 2, 3
local MODE_NAME = { "foot", "horse", "boat" }

-- Per component: plain arrays for the hot paths.
local NAME, KIND, LAND, ITEM, NUGGETS, FOOD_OF, IS_ANIMAL_FOREST = {}, {}, {}, {}, {}, {}, {}
for c = 1, NCOMP do
  local r = CARD[c]
  NAME[c], KIND[c], LAND[c], ITEM[c], NUGGETS[c], FOOD_OF[c] = r.name, r.kind, r.land or 0, r.item or 0, r.nuggets or 0, r.food or 0
  IS_ANIMAL_FOREST[c] = r.animal or false
end
local IS_RIVER_TILE = {}
for _, t in ipairs(RIVER_TILES) do IS_RIVER_TILE[t] = CROSSED[t] end

local G = hr.game
local counter, set_counter, add_counter = G.counter, G.set_counter, G.add_counter
local size_of, top_of, cards_of, move = G.size, G.top, G.cards, G.move

-- ---- geometry: the lattice's static tables, read from the kernel once (docs/boards.md "Geometry") --------------
-- These are constants of the board's kind and size, the same for every game: filled on first use, never state.
local GEO = { ready = false }
local VQ, VR, VID = {}, {}, {}        -- vertex -> q, r; "q,r" key -> vertex
local VEDGES, VFACES = {}, {}          -- vertex -> its edges, its faces
local EV1, EV2, EFACES = {}, {}, {}    -- edge -> its vertices, its faces
local FVERTS, FEDGES = {}, {}          -- face -> its vertices, its edges
local function vid(q, r)
  if q < 0 or r < 0 or q > W or r > H then return nil end
  return VID[q * 1024 + r]
end

local function geometry(game)
  if GEO.ready then return end
  local _, _, _, nf, ne, nv = game:board_size(B)
  GEO.NV, GEO.NE, GEO.NF = nv, ne, nf
  for v = 1, nv do
    local text = game:vertex_text(B, v)
    local q, r = text:match("^(%-?%d+),(%-?%d+)$")
    q, r = tonumber(q), tonumber(r)
    VQ[v], VR[v] = q, r
    VID[q * 1024 + r] = v
    VEDGES[v], VFACES[v] = game:vertex_edges(B, v), game:vertex_faces(B, v)
  end
  for e = 1, ne do
    local a, b = game:edge_vertices(B, e)
    if type(a) == "table" then a, b = a[1], a[2] end
    EV1[e], EV2[e] = a, b
    EFACES[e] = game:edge_faces(B, e)
  end
  for f = 1, nf do FVERTS[f], FEDGES[f] = game:face_vertices(B, f), game:face_edges(B, f) end
  GEO.ready = true
end

local function edge_between(v1, v2)
  for _, e in ipairs(VEDGES[v1]) do
    if EV1[e] == v2 or EV2[e] == v2 then return e end
  end
end

local function other_end(e, v) return EV1[e] == v and EV2[e] or EV1[e] end
--- The face whose vertex set is {a, b, c} (nil if none).
local function face_of(a, b, c)
  for _, f in ipairs(VFACES[a]) do
    local fv = FVERTS[f]
    local hits = 0
    for i = 1, 3 do if fv[i] == b or fv[i] == c then hits = hits + 1 end end
    if hits == 2 then return f end
  end
end

--- The face across edge e from face f (nil on the rim).
local function across(e, f)
  local fs = EFACES[e]
  if fs[1] == f then return fs[2] end
  return fs[1]
end

-- Rotations (docs/boards.md): 60 degrees counter-clockwise about the anchor, in axial coordinates (q, r) -> (-r, q+r).
local function rotate(q, r, k)
  for _ = 1, k do q, r = -r, q + r end
  return q, r
end

--- The global vertex of local vertex (lq, lr) of a tile laid at anchor vertex `a` with rotation k (nil off the board).
local function global_vertex(a, k, lq, lr)
  local dq, dr = rotate(lq, lr, k)
  return vid(VQ[a] + dq, VR[a] + dr)
end

local function parse_pair(text)
  local q, r = text:match("^(%-?%d+),(%-?%d+)$")
  return tonumber(q), tonumber(r)
end

-- The global edge of each local side text at each placement (anchor * 8 + rotation), false off the board: constants
-- of the lattice, filled as asked (a side's text is parsed once, not at every call).
local global_side
do
  local SIDE_EDGE = {}

  --- The global edges of a tile's local sides ("0,0-1,0") when laid at (a, k).
  function global_side(a, k, side)
    local memo = SIDE_EDGE[side]
    if not memo then memo = {}; SIDE_EDGE[side] = memo end
    local p = a * 8 + k
    local e = memo[p]
    if e == nil then
      local s1, s2 = side:match("^([^-]+)%-(.+)$")
      local q1, r1 = parse_pair(s1)
      local q2, r2 = parse_pair(s2)
      local v1, v2 = global_vertex(a, k, q1, r1), global_vertex(a, k, q2, r2)
      e = v1 and v2 and edge_between(v1, v2) or false
      memo[p] = e
    end
    return e or nil
  end
end

-- ---- reading the map --------------------------------------------------------------------------------------------
local tile_at, face_feature, edge_class, mark_of, lying = G.tile_at, G.face_feature, G.edge_class, G.mark, G.lying
local feature_of, land_of, feature_of_tile
do
  -- The feature every face of tile c shows, for the tiles whose faces all show the same one (the rhombi and the
  -- triangles: one landscape a tile), nil for the start tile.
  local SAME_FEATURE = {}
  for c = 1, #list do
    local faces, one = list[c].kind == "tile" and list[c].faces, nil
    for _, x in pairs(faces or {}) do
      if one == nil then one = x elseif one ~= x then one = false end
    end
    SAME_FEATURE[c] = one or nil
  end
  --- The feature of face f (game:face_feature: 0 where no tile lies), from the tile that covers it when all its faces
  --- show the same one (one kernel call, without the kernel turning the tile's faces to find f's).
  function feature_of(game, f)
    local t = tile_at(game, B, f)
    if not t then return 0 end
    return SAME_FEATURE[t] or face_feature(game, B, f)
  end
  --- feature_of(game, f) when tile t covers f (game:tile_at's answer, already read): no kernel call but for the start
  --- tile.
  function feature_of_tile(game, f, t)
    return SAME_FEATURE[t] or face_feature(game, B, f)
  end
  --- The landscape of face f (a number: FOREST .. HOME; 0 where no tile lies).
  function land_of(game, f)
    local t = tile_at(game, B, f)
    if not t then return 0 end
    return (SAME_FEATURE[t] or face_feature(game, B, f)) & 15
  end
end
local function covered(game, f) return f ~= nil and tile_at(game, B, f) ~= nil end

--- The faces of the tile that covers face f (f itself, and the faces joined to it by the tile's inner edges), and
--- their number. Every caller passes a covered face.
local function tile_faces(game, f)
  local faces = game:tile_faces(B, f)
  return faces, #faces
end

-- ---- a tile's faces from its placement (constants of the lattice, filled as asked, never state) -------------------
local SHAPE = {} -- component -> its shape ("rhombus", "triangle", "start"), nil for what is not a tile
for c = 1, #list do SHAPE[c] = list[c].kind == "tile" and list[c].shape or nil end
local rhombus_faces, faces_of_tile
do
  local RHOMBUS_FA, RHOMBUS_FB = {}, {}

  --- The faces a rhombus covers when laid at (a, k), or nil when off the board.
  function rhombus_faces(a, k)
    local p = a * 8 + k
    local fa = RHOMBUS_FA[p]
    if fa == nil then
      local p0, p1, p2, p3 = a, global_vertex(a, k, 1, 0), global_vertex(a, k, 0, 1), global_vertex(a, k, 1, 1)
      local fb = false
      fa = false
      if p1 and p2 and p3 then fa, fb = face_of(p0, p1, p2) or false, face_of(p1, p3, p2) or false end
      RHOMBUS_FA[p], RHOMBUS_FB[p] = fa, fb
    end
    return fa or nil, RHOMBUS_FB[p] or nil
  end

  local ONE_FACE, FIRST_A, FIRST_B = {}, {}, {}
  --- tile_faces(game, f) for the tile t laid at anchor a with rotation k that covers f (game:tile_at's answers), without
  --- asking the kernel for a list when t is a rhombus or a triangle: the same faces in the same order (f first). The
  --- list is shared: read it, never change it.
  function faces_of_tile(game, f, t, k, a)
    local shape = SHAPE[t]
    if shape == "triangle" then
      local l = ONE_FACE[f]
      if not l then l = { f }; ONE_FACE[f] = l end
      return l, 1
    elseif shape == "rhombus" then
      local p = a * 8 + k
      local fa, fb = rhombus_faces(a, k)
      local memo = f == fa and FIRST_A or FIRST_B
      local l = memo[p]
      if not l then l = f == fa and { fa, fb } or { fb, fa }; memo[p] = l end
      return l, 2
    end
    return tile_faces(game, f)
  end
end

--- The canonical face of a tile (its lowest face id): how actions name a tile (`mine 6,6u`).
local function tile_head(game, f)
  local fs, n = faces_of_tile(game, f, tile_at(game, B, f))
  local m = fs[1]
  for i = 2, n do if fs[i] < m then m = fs[i] end end
  return m
end

--- Sorts a short list of distinct integers in place, ascending (as table.sort, without its call into the kernel's
--- sandbox for a handful of entries).
local function sort_short(out)
  local n = #out
  if n > 8 then table.sort(out); return out end
  for i = 2, n do
    local x, j = out[i], i - 1
    while j >= 1 and out[j] > x do out[j + 1] = out[j]; j = j - 1 end
    out[j + 1] = x
  end
  return out
end

--- The corners of the tile covering face f.
local function tile_corners(game, f)
  local out = {}
  for _, g in ipairs((tile_faces(game, f))) do
    for _, v in ipairs(FVERTS[g]) do
      local seen = false
      for _, w in ipairs(out) do if w == v then seen = true end end
      if not seen then out[#out + 1] = v end
    end
  end
  return out
end

local rules = {}
rules.constants = { MAIN = MAIN, LAY_RIVER = LAY_RIVER, LAY_LAND = LAY_LAND, KEEP = KEEP, SHOP = SHOPPING,
                    DISCARD = DISCARD, ITEMS = ITEMS, BASE = BASE, LETTER = LETTER }
--- The ways of moving by name (seed A.1: "à pied, à cheval ou en bateau"): the `mode` that rules.modes lists and
--- rules.destinations and rules.may_move_along take (`mode == rules.MODES.boat`); a variant compares with these names.
rules.MODES = { foot = FOOT, horse = ON_HORSE, boat = BY_BOAT }
--- The landscape of face f by name: "forest", "mountain", "bushes", "lake", "river", "source", "trading post",
--- "refinery", "bear cave", "meadow" or "start" (seed MATÉRIEL and 2.b-c); nil where no tile lies.
function rules.landscape(game, f)
  return LANDSCAPE_NAME[land_of(game, f)]
end





-- Ways of an edge: bits.
local LAND_WAY <const>, ALONG <const>, CROSSING <const>, FORD_WAY <const>, BORDER <const> = 1, 2, 4, 8, 16
rules.WAYS = { LAND = LAND_WAY, ALONG = ALONG, CROSSING = CROSSING, FORD = FORD_WAY, BORDER = BORDER }





local function prospectors_on(game, v)
  local f = game:figures_on(B, "vertex", v)
  local n = 0
  for _, x in ipairs(f) do if x <= SEATS then n = n + 1 end end
  return n
end



-- ---- inventory -----------------------------------------------------------------------------------------------
local scratch = {}
local function first_item(game, zone, i)
  for _, c in ipairs(cards_of(game, zone)) do if ITEM[c] == i then return c end end
end


--- Takes up to n of a base good from the supply into seat s's backpack; returns how many (the supply is limited).
local function take_base(game, s, name, n)
  local c = CN[name]
  local left = counter(game, c, 0)
  if n > left then n = left end
  add_counter(game, c, 0, -n)
  add_counter(game, c, s, n)
  return n
end

local function pay_base(game, s, name, n)
  local c = CN[name]
  add_counter(game, c, s, -n)
  add_counter(game, c, 0, n)
end

--- Gives seat s an item of kind i from the store's stock (nil if none left).
local function take_item(game, s, i)
  local c = first_item(game, SHOP, i)
  if c then move(game, c, IS_GOOD[i] and GOODS[s] or EQUIP[s]) end
  return c
end

--- Uses up (or discards) one item of kind i of seat s: it goes back to the supply (seed: "les remettre dans la réserve").
local function spend_item(game, s, i)
  local c = first_item(game, IS_GOOD[i] and GOODS[s] or EQUIP[s], i)
  move(game, c, SHOP)
end

-- ---- setup ------------------------------------------------------------------------------------------------------
local FIRST = math.min(math.max(P.first_player, 1), SEATS)



-- ---- exploration (seed A.2) -------------------------------------------------------------------------------------



-- A placement is the anchor vertex and the rotation, as one integer: anchor * 8 + rotation.
local function placement(a, k) return a * 8 + k end
local function placement_parts(p) return p >> 3, p & 7 end
local function placement_text(game, p)
  local a, k = placement_parts(p)
  return VQ[a] .. "," .. VR[a] .. " r" .. k
end
rules.placement_text = placement_text

--- The two placements of a rhombus on the adjacent faces f and g (each way round: rotation k and k+3).
local ACUTE_STEP = { [0] = { 1, 1 }, { -1, 2 }, { -2, 1 }, { -1, -1 }, { 1, -2 }, { 2, -1 } }





-- Token laying (seed 2.d).
local lay = G.lay -- the kernel's method as a local: no look-up on the game at each token
local function lay_tokens(game, pool, n, kind, site)
  for _ = 1, n do
    local c = top_of(game, pool)
    if not c then return end
    lay(game, c, B, kind, site, true)
  end
end












-- ---- the ice block (seed C) ---------------------------------------------------------------------------------------

-- ---- the actions (seed B) ---------------------------------------------------------------------------------------

-- A face-down token's kind shows on its back (green, grey, animal, event) and, here, follows from where it lies: green
-- gold on lakes, bushes and river banks (vertices), grey gold on mountains and the source, animals on the bear cave
-- and the animal forests, events on meadows and the other forests. So what is legal never depends on a hidden face
-- (a viewer sees a face-down token as 0), and a determinization that re-deals tokens changes no legal action.
local function any(c) return true end
local is_green, is_grey, is_animal, is_event = any, any, any, any







-- A tool is bought from the supply's base goods, not from the items: its purchase code follows the items'.
local BUY_TOOL <const> = #ITEMS + 1

-- ---- action encoding ---------------------------------------------------------------------------------------------
-- kind | a << 5 | b << 18 | c << 24 (below 2^28: a kind, a vertex, face, edge or component id, two small numbers)
local AK = { MOVE = 1, LAY = 2, PAN = 3, MINE = 4, EVENT = 5, KEEP = 6, FISH = 7, HUNT = 8, FELL = 9, NET = 10, SAWMILL = 11, CANAL = 12, BUILD_MINE = 13, BUY = 14, PAY = 15, REFINE = 16, DRINK = 17, USE_FISH = 18, DISCARD = 19, END = 20, DECLARE = 21 }
local function act(kind, a, b, c) return kind | ((a or 0) << 5) | ((b or 0) << 18) | ((c or 0) << 24) end
local function parts(x) return x & 31, (x >> 5) & 8191, (x >> 18) & 63, (x >> 24) & 15 end
rules.act, rules.parts = act, parts
rules.KINDS = AK

-- The pairs of base goods a payment of two may take (event, refinery): log+log, log+food, ...
local PAIRS = { { 1, 1 }, { 1, 2 }, { 1, 3 }, { 2, 2 }, { 2, 3 }, { 3, 3 } }













-- ---- texts --------------------------------------------------------------------------------------------------------
local function vtext(v) return VQ[v] .. "," .. VR[v] end
rules.vertex_text = vtext

-- ---- scoring ------------------------------------------------------------------------------------------------------

-- ---- the heuristic (greedy bot) ------------------------------------------------------------------------------------
--- What standing at vertex w promises seat s, in nuggets, before any action: the gold it could pan or mine there (a
--- face-down token valued at its pool's mean: green 1.4, grey 3.5; two with a sieve or a crate), times `pan_ready` or
--- `mine_ready` (1 when the seat holds the food, and the log, the action costs; less the farther it must go for
--- them); up to two grey tokens of a tile count (3/4 each without a crate), 0.35 of that on a mountain without a
--- mine (0.15 for a seat without the tool to build one); an intersection to explore 1.
local GREEN_MEAN, GREY_MEAN = 0, 0
do
  local n, t = 0, 0
  for _, c in ipairs(GREEN_TOKENS) do n, t = n + 1, t + NUGGETS[c] end
  GREEN_MEAN = n > 0 and t / n or 0
  n, t = 0, 0
  for _, c in ipairs(GREY_TOKENS) do n, t = n + 1, t + NUGGETS[c] end
  GREY_MEAN = n > 0 and t / n or 0
end
local EXPLORE_VALUE = 1


--- heuristic(game, seat): for the greedy bot, an estimate of the seat's final nuggets: the gold bag (less what a
--- basket owes), base goods (each one worth less than the one before, GOOD_VALUE; what overflows the backpack counts
--- against it) and equipment at a fraction of their use, and 0.6 of the best promise (rules.promise) among the
--- intersections the prospector can walk to within 24 sides (rules.walking_distances), 0.85 of it per side of walking
--- (0.92 on horseback).
local GOOD_VALUE = { food = { [0] = 0, 0.4, 0.65, 0.75, 0.85 }, log = { [0] = 0, 0.3, 0.5, 0.6 },
                     tool = { [0] = 0, 0.5, 1.0, 1.3 } } -- the worth of holding 0, 1, 2... of a base good
local EQUIP_VALUE = { [HORSE] = 2, [CART] = 0.5, [BOAT] = 1.5, [CRATE] = 2.5, [SIEVE] = 1.5, [AXE] = 0.5, [ROD] = 0.6,
                      [RIFLE] = 0.4, [WHISKY] = 0.8, [STICK] = 0.8, [DRIED_FISH] = 1 }

-- ---- invariants ------------------------------------------------------------------------------------------------


return { rules = rules, P = P, SEATS = SEATS, W = W, H = H, B = B, FOREST = FOREST, MOUNTAIN = MOUNTAIN,
  BUSHES = BUSHES, LAKE = LAKE, RIVER = RIVER, SOURCE = SOURCE, STORE = STORE, REFINERY = REFINERY, CAVE = CAVE,
  MEADOW = MEADOW, HOME = HOME, WATER = WATER, FISH = FISH, LETTER = LETTER, LANDSCAPE_NAME = LANDSCAPE_NAME,
  CROSS = CROSS, STORE_CORNER = STORE_CORNER, HOME_STORE = HOME_STORE, INNER = INNER, COVERED2 = COVERED2,
  COVERED1 = COVERED1, OFFBOARD = OFFBOARD, list = list, add = add, RHOMBUS_FACES = RHOMBUS_FACES,
  rhombus = rhombus, sorted_keys = sorted_keys, START = START, LAND_TILES = LAND_TILES, forests = forests,
  RIVER_SIDES = RIVER_SIDES, RIVER_TILES = RIVER_TILES, CROSSED = CROSSED, SOURCE_TILE = SOURCE_TILE,
  TRIANGLE_TILES = TRIANGLE_TILES, LAST_TILE = LAST_TILE, GREEN_TOKENS = GREEN_TOKENS, GREY_TOKENS = GREY_TOKENS,
  ANIMAL_TOKENS = ANIMAL_TOKENS, EVENT_TOKENS = EVENT_TOKENS, ITEMS = ITEMS, ITEM_OF = ITEM_OF, HORSE = HORSE,
  CART = CART, BOAT = BOAT, CRATE = CRATE, SIEVE = SIEVE, AXE = AXE, ROD = ROD, RIFLE = RIFLE, WHISKY = WHISKY,
  STICK = STICK, DRIED_FISH = DRIED_FISH, IS_GOOD = IS_GOOD, item_slots = item_slots, SUPPLY_ITEMS = SUPPLY_ITEMS,
  NCOMP = NCOMP, zone_list = zone_list, figure_list = figure_list, ICE = ICE, declared = declared, CARD = CARD,
  Z = Z, PILE_RIVER = PILE_RIVER, PILE_LAND = PILE_LAND, PILE_TRIANGLE = PILE_TRIANGLE, ASIDE = ASIDE,
  DRAWN = DRAWN, POOL_GREEN = POOL_GREEN, POOL_GREY = POOL_GREY, POOL_ANIMAL = POOL_ANIMAL, POOL_EVENT = POOL_EVENT,
  SHOP = SHOP, KILLED = KILLED, EQUIP = EQUIP, GOODS = GOODS, GOLD = GOLD, LOOK = LOOK, BASE = BASE, LOG = LOG,
  FOOD = FOOD, TOOL = TOOL, MAIN = MAIN, LAY_RIVER = LAY_RIVER, LAY_LAND = LAY_LAND, KEEP = KEEP,
  SHOPPING = SHOPPING, DISCARD = DISCARD, FOOT = FOOT, ON_HORSE = ON_HORSE, BY_BOAT = BY_BOAT,
  MODE_NAME = MODE_NAME, NAME = NAME, KIND = KIND, LAND = LAND, ITEM = ITEM, NUGGETS = NUGGETS, FOOD_OF = FOOD_OF,
  IS_ANIMAL_FOREST = IS_ANIMAL_FOREST, IS_RIVER_TILE = IS_RIVER_TILE, G = G, counter = counter, CN = CN, BASE_CN = BASE_CN,
  set_counter = set_counter, add_counter = add_counter, size_of = size_of, top_of = top_of, cards_of = cards_of,
  move = move, GEO = GEO, VQ = VQ, VR = VR, VID = VID, VEDGES = VEDGES, VFACES = VFACES, EV1 = EV1, EV2 = EV2,
  EFACES = EFACES, FVERTS = FVERTS, FEDGES = FEDGES, vid = vid, geometry = geometry,
  edge_between = edge_between, other_end = other_end, face_of = face_of, across = across, rotate = rotate,
  global_vertex = global_vertex, parse_pair = parse_pair, global_side = global_side, tile_at = tile_at,
  face_feature = face_feature, edge_class = edge_class, mark_of = mark_of, lying = lying, land_of = land_of,
  feature_of = feature_of, feature_of_tile = feature_of_tile,
  covered = covered, tile_faces = tile_faces, tile_head = tile_head, faces_of_tile = faces_of_tile,
  rhombus_faces = rhombus_faces, sort_short = sort_short, SHAPE = SHAPE, tile_corners = tile_corners,
  LAND_WAY = LAND_WAY, ALONG = ALONG, CROSSING = CROSSING, FORD_WAY = FORD_WAY, BORDER = BORDER,
  prospectors_on = prospectors_on, scratch = scratch, first_item = first_item, take_base = take_base,
  pay_base = pay_base, take_item = take_item, spend_item = spend_item, FIRST = FIRST, placement = placement,
  placement_parts = placement_parts, placement_text = placement_text, ACUTE_STEP = ACUTE_STEP,
  lay_tokens = lay_tokens, any = any, is_green = is_green, is_grey = is_grey, is_animal = is_animal,
  is_event = is_event, BUY_TOOL = BUY_TOOL, AK = AK, act = act, parts = parts, PAIRS = PAIRS, vtext = vtext,
  GREEN_MEAN = GREEN_MEAN, GREY_MEAN = GREY_MEAN, EXPLORE_VALUE = EXPLORE_VALUE, GOOD_VALUE = GOOD_VALUE,
  EQUIP_VALUE = EQUIP_VALUE, }
