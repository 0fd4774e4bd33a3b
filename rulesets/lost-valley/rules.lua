-- Lost Valley (Roland & Tobias Goslar, Kronberger Spiele 2004), 3 or 4 players, as a houserules rules script.
-- Rules: seed 004 (French, ../shared/seeds/004_5b8eeeb2a33ba8b7.txt), digest ../shared/rules/lost-valley.md;
-- parameters in ruleset.toml (every ASSUMED value is one); the map drawing and the explanations are in view.lua.
--
-- The board "valley" is a triangular lattice (docs/boards.md): prospectors stand on vertices (intersections) and
-- walk along edges (tile sides); tiles cover faces (a rhombus two triangles, a triangle one, the start tile four).
-- Marks: face `course` (river order from the waterfall: 1 the start tile, then each river tile, the source last),
-- face `water` (a bushes or forest tile watered by a canal), face `mine`; edge `river` (the river crosses this
-- edge), edge `ford`, edge `canal`; vertex `building` (1 fish net, 2 sawmill); face `bank` (below).
-- Tokens lie face down: grey gold, events and animals on faces; green gold on faces (lake, bushes) and, on river
-- tiles, on one face of the tile per bank (seed 2.d: "sur la même rive que le symbole"): the face mark `bank` (1-3)
-- names the corner of that face (its place in `game:face_vertices`) whose bank the tokens lying there belong to. So
-- a token belongs to its tile and to its bank, and two river tiles never share a token (they share corners).
-- Per seat: counters log, food, tool (the backpack; the supply is owner 0); zones equip.<s> (public: equipment),
-- goods.<s> (owner: whisky, dynamite sticks, dried fish, face down), gold.<s> (owner: the gold bag), look.<s>
-- (owner: the two events of a meadow being looked at).
--
-- A turn (phase MAIN): `move ...` (and the exploration it starts: phases RIVER and LAND, one `lay` per tile),
-- one action (`pan`, `mine`, `event` (then KEEP on a meadow), `fish`, `hunt`, `fell`, `build ...`, `buy ...` (then
-- SHOP until `pay`), `refine`), `drink for move|action`, `use dried-fish`, `declare end`, `end turn` (then DISCARD
-- while the inventory overflows, then the ice die).

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
  return { name = name, kind = "tile", shape = "rhombus", land = code, faces = faces, back = code == RIVER and "river" or "land" }
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
local START = add { name = "start", kind = "tile", shape = "start", land = HOME,
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
local SOURCE_TILE = add { name = "source", kind = "tile", shape = "triangle", land = SOURCE,
  faces = { ["0,0u"] = SOURCE }, sides = { ["0,0-1,0"] = CROSS } }
-- Land triangles (ASSUMED mix, ruleset.toml `triangles`). A trading post is a store at each of its corners.
local TRIANGLE_TILES = {}
for _, name in ipairs({ "store", "refinery", "cave", "meadow" }) do
  local code = ({ store = STORE, refinery = REFINERY, cave = CAVE, meadow = MEADOW })[name]
  for _ = 1, (P.triangles[name] or 0) do
    local t = { name = name, kind = "tile", shape = "triangle", land = code, faces = { ["0,0u"] = code }, back = "triangle" }
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
  zone_list[#zone_list + 1] = { name = "equip." .. s, visibility = "public" }
  zone_list[#zone_list + 1] = { name = "goods." .. s, owner = s, visibility = "owner", holds = "good" } -- goods only
  zone_list[#zone_list + 1] = { name = "gold." .. s, owner = s, visibility = "owner" }
  zone_list[#zone_list + 1] = { name = "look." .. s, owner = s, visibility = "owner" }
end
local figure_list = {}
for s = 1, SEATS do figure_list[s] = { kind = "prospector", owner = s } end
figure_list[SEATS + 1] = { kind = "ice" }
local ICE = SEATS + 1

local declared = hr.declare {
  boards = { { name = "valley", kind = "triangular", width = W, height = H,
               marks = { course = "face", water = "face", mine = "face", bank = "face", river = "edge", ford = "edge",
                         canal = "edge", building = "vertex" } } },
  shapes = { rhombus = { "0,0u", "0,0d" }, triangle = { "0,0u" }, start = { "0,0u", "0,0d", "1,0u", "0,1u" } },
  components = list,
  zones = zone_list,
  counters = {
    { name = "log", per_seat = true }, { name = "food", per_seat = true }, { name = "tool", per_seat = true },
    { name = "net" }, { name = "sawmill" }, { name = "mine" },   -- buildings left in the supply
    { name = "moves" }, { name = "acts" }, { name = "drank" },  -- this turn: moves and actions left, whisky drunk
    { name = "mode" },                                          -- this turn's way of moving (1 foot, 2 horse, 3 boat)
    { name = "exploring" },                                     -- the vertex being explored (0: none)
    { name = "end_edge" }, { name = "end_face" },               -- the river's open end: the side, the face beyond
    { name = "course" },                                        -- the river's length in tiles (start tile = 1)
    { name = "land_laid" }, { name = "ice" },                   -- land rhombi laid; 1 once the ice block is in play
    { name = "basket" },                                        -- nuggets owed for the items taken in a store
    { name = "look_face" },                                     -- the meadow whose events are being looked at
    { name = "turns" },                                         -- turns played
  },
  figures = figure_list,
  rounds = 1,
}
local CARD = declared.components
local Z = declared.zones
local PILE_RIVER, PILE_LAND, PILE_TRIANGLE, ASIDE, DRAWN = Z["pile.river"], Z["pile.land"], Z["pile.triangle"], Z.aside, Z.drawn
local POOL_GREEN, POOL_GREY, POOL_ANIMAL, POOL_EVENT = Z["pool.green"], Z["pool.grey"], Z["pool.animal"], Z["pool.event"]
local SHOP, KILLED = Z.store, Z.killed
local EQUIP, GOODS, GOLD, LOOK = {}, {}, {}, {}
for s = 1, SEATS do EQUIP[s], GOODS[s], GOLD[s], LOOK[s] = Z["equip." .. s], Z["goods." .. s], Z["gold." .. s], Z["look." .. s] end
local BASE = { "log", "food", "tool" }
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
local NV, NE, NF = 0, 0, 0
local function vid(q, r)
  if q < 0 or r < 0 or q > W or r > H then return nil end
  return VID[q * 1024 + r]
end
local function geometry(game)
  if GEO.ready then return end
  local _, _, _, nf, ne, nv = game:board_size(B)
  NV, NE, NF = nv, ne, nf
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
--- The global edges of a tile's local sides ("0,0-1,0") when laid at (a, k).
local function global_side(a, k, side)
  local s1, s2 = side:match("^([^-]+)%-(.+)$")
  local q1, r1 = parse_pair(s1)
  local q2, r2 = parse_pair(s2)
  local v1, v2 = global_vertex(a, k, q1, r1), global_vertex(a, k, q2, r2)
  if not v1 or not v2 then return nil end
  return edge_between(v1, v2)
end

-- ---- reading the map --------------------------------------------------------------------------------------------
local tile_at, face_feature, edge_class, mark_of, lying = G.tile_at, G.face_feature, G.edge_class, G.mark, G.lying
local function land_of(game, f) return face_feature(game, B, f) & 15 end
local function covered(game, f) return f ~= nil and tile_at(game, B, f) ~= nil end

--- The faces of the tile that covers face f (f itself, and the faces joined to it by the tile's inner edges), and
--- their number. Every caller passes a covered face.
local function tile_faces(game, f)
  local faces = game:tile_faces(B, f)
  return faces, #faces
end
--- The canonical face of a tile (its lowest face id): how actions name a tile (`mine 6,6u`).
local function tile_head(game, f)
  local fs, n = tile_faces(game, f)
  local m = fs[1]
  for i = 2, n do if fs[i] < m then m = fs[i] end end
  return m
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

--- Whether every corner (face) around vertex v is explored, i.e. covered by a tile; faces off the board count as
--- explored (seed 2: "une intersection dont tous les coins n'ont pas encore été explorés").
function rules.explored(game, v)
  geometry(game)
  for _, f in ipairs(VFACES[v]) do
    if not tile_at(game, B, f) then return false end
  end
  return true
end

--- Whether face f holds water: the river, a lake, or a tile watered by a canal (seed B.1, B.6; not the source).
function rules.has_water(game, f)
  return (face_feature(game, B, f) & WATER) ~= 0 or mark_of(game, B, "water", f) ~= 0
end

--- Whether vertex v is on a river bank: a corner of a river face (the start tile's or a river tile's; the source
--- is a river tile only for moving, seed 2.c).
function rules.on_river_bank(game, v)
  geometry(game)
  for _, f in ipairs(VFACES[v]) do
    if land_of(game, f) == RIVER then return true end
  end
  return false
end

--- Whether vertex v is at a store: the start store, or a corner of a trading-post triangle.
function rules.at_store(game, v)
  return game:vertex_feature(B, v) ~= 0
end
--- Whether vertex v is the start store, at the foot of the waterfall.
function rules.at_start_store(game, v)
  return (game:vertex_feature(B, v) & HOME_STORE) ~= 0
end

-- Ways of an edge: bits.
local LAND_WAY <const>, ALONG <const>, CROSSING <const>, FORD_WAY <const>, BORDER <const> = 1, 2, 4, 8, 16
rules.WAYS = { LAND = LAND_WAY, ALONG = ALONG, CROSSING = CROSSING, FORD = FORD_WAY, BORDER = BORDER }

--- What walking along edge e is (seed A.1 "Les prospecteurs se déplacent le long des côtés des tuiles ... On ne peut
--- jamais traverser une tuile"): 0 when it cannot be walked (inside a tile, or no tile on either side); else
--- CROSSING (+FORD at the start tile's fords) when the river crosses it, ALONG when it is a side of a river face,
--- LAND otherwise; +BORDER when only one side is explored (walkable once the ice block is in play).
function rules.way(game, e)
  local class = edge_class(game, B, e)
  if class & INNER ~= 0 then
    -- inside a tile: never, except the start tile, whose inner sides are paths (its fords among them)
    local t = tile_at(game, B, EFACES[e][1])
    if t ~= START then return 0 end
  elseif class & (COVERED1 | COVERED2) == 0 then
    return 0
  end
  local w
  if mark_of(game, B, "river", e) ~= 0 then
    w = CROSSING
    if mark_of(game, B, "ford", e) ~= 0 then w = w | FORD_WAY end
  else
    w = LAND_WAY
    for _, f in ipairs(EFACES[e]) do
      local l = land_of(game, f)
      if l == RIVER or l == SOURCE then w = ALONG end
    end
  end
  if class & COVERED1 ~= 0 then
    local fs = EFACES[e]
    if #fs == 2 then w = w | BORDER end
  end
  return w
end

--- Whether a prospector moving `mode` may take edge e as the `step`-th edge of its move (seed A.1): on foot one edge
--- on land or along the river or through a ford, or two edges along the river; on horseback up to two edges on land
--- or along the river (fords included); by boat up to three edges along or across the river. Edges on the border
--- of the explored area only once the ice block is in play (seed 2.b).
function rules.may_move_along(game, mode, e, step, first_way)
  local w = rules.way(game, e)
  if w == 0 then return false end
  if w & BORDER ~= 0 and counter(game, "ice") == 0 then return false end
  if mode == FOOT then
    if step == 1 then return w & (LAND_WAY | ALONG | FORD_WAY) ~= 0 end
    return step == 2 and first_way & ALONG ~= 0 and w & ALONG ~= 0
  elseif mode == ON_HORSE then
    return step <= 2 and w & (LAND_WAY | ALONG | FORD_WAY) ~= 0
  else
    return step <= 3 and w & (ALONG | CROSSING) ~= 0
  end
end

--- How many prospectors may stand on vertex v (seed A.1): one; two on a river bank; any number at the start store.
function rules.room_at(game, v)
  if rules.at_start_store(game, v) then return 99 end
  if rules.on_river_bank(game, v) then return 2 end
  return 1
end

--- The vertex where seat s's prospector stands.
function rules.position(game, s)
  local a, b, c = game:figure(s)
  if type(a) == "table" then return a.id or a[3] end
  if c then return c end
  return b
end

local function prospectors_on(game, v)
  local f = game:figures_on(B, "vertex", v)
  local n = 0
  for _, x in ipairs(f) do if x <= SEATS then n = n + 1 end end
  return n
end

--- The modes seat s may move with this turn: foot always, horse and boat if it owns one (seed A.1), and only the
--- mode already used this turn (seed: "ne peut se déplacer que d'une seule manière lors d'un tour donné").
function rules.modes(game, s)
  local used = counter(game, "mode")
  local out = {}
  for m = FOOT, BY_BOAT do
    if (used == 0 or used == m) and (m == FOOT or rules.owns(game, s, m == ON_HORSE and HORSE or BOAT)) then
      out[#out + 1] = m
    end
  end
  return out
end

--- The destinations of seat s's prospector moving by `mode`, as a list of vertices (seed A.1-2): paths of edges the
--- mode allows; a move ends at an intersection not fully explored (before the ice block is in play, the move cannot
--- go through one); the destination must have room.
function rules.destinations(game, s, mode)
  geometry(game)
  local from = rules.position(game, s)
  local ice = counter(game, "ice") ~= 0
  local out, seen = {}, { [from] = true }
  local frontier = { { from, 0 } }
  local max_steps = mode == FOOT and 2 or (mode == ON_HORSE and 2 or 3)
  for step = 1, max_steps do
    local nextf = {}
    for _, item in ipairs(frontier) do
      local v, first = item[1], item[2]
      if step == 1 or ice or rules.explored(game, v) then
        for _, e in ipairs(VEDGES[v]) do
          local w = other_end(e, v)
          if rules.may_move_along(game, mode, e, step, first) then
            local way = step == 1 and rules.way(game, e) or first
            if not seen[w] then
              seen[w] = true
              if prospectors_on(game, w) < rules.room_at(game, w) then out[#out + 1] = w end
              nextf[#nextf + 1] = { w, way }
            end
          end
        end
      end
    end
    frontier = nextf
  end
  table.sort(out)
  return out
end

-- ---- inventory -----------------------------------------------------------------------------------------------
local scratch = {}
--- Whether seat s holds an item of kind i (equipment or goods).
function rules.owns(game, s, i)
  return rules.count_item(game, s, i) > 0
end
function rules.count_item(game, s, i)
  local n = 0
  local zone = IS_GOOD[i] and GOODS[s] or EQUIP[s]
  for _, c in ipairs(cards_of(game, zone)) do if ITEM[c] == i then n = n + 1 end end
  return n
end
local function first_item(game, zone, i)
  for _, c in ipairs(cards_of(game, zone)) do if ITEM[c] == i then return c end end
end

--- Backpack slots used and available (seed "INVENTAIRE": 6 slots, a log 2, food or a tool 1; a cart adds 4).
function rules.backpack(game, s)
  local used = P.log_slots * counter(game, "log", s) + counter(game, "food", s) + counter(game, "tool", s)
  local room = P.backpack + (rules.owns(game, s, CART) and P.cart_slots or 0)
  return used, room
end
--- Equipment slots used and available (seed: six slots; horse and boat two, every other item one; digest: the cart
--- takes none).
function rules.equipment(game, s)
  local used = 0
  for _, z in ipairs({ EQUIP[s], GOODS[s] }) do
    for _, c in ipairs(cards_of(game, z)) do used = used + item_slots(ITEM[c]) end
  end
  return used, P.equipment_slots
end
--- Whether seat s holds more than its inventory carries (then it discards at the end of its turn, seed "INVENTAIRE").
function rules.overflows(game, s)
  local u1, r1 = rules.backpack(game, s)
  local u2, r2 = rules.equipment(game, s)
  return u1 > r1, u2 > r2
end
--- The nuggets in seat s's gold bag (the score).
function rules.nuggets(game, s)
  local n = 0
  for _, c in ipairs(cards_of(game, GOLD[s])) do n = n + NUGGETS[c] end
  return n
end

--- Takes up to n of a base good from the supply into seat s's backpack; returns how many (the supply is limited).
local function take_base(game, s, name, n)
  local left = counter(game, name, 0)
  if n > left then n = left end
  add_counter(game, name, 0, -n)
  add_counter(game, name, s, n)
  return n
end
local function pay_base(game, s, name, n)
  add_counter(game, name, s, -n)
  add_counter(game, name, 0, n)
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

--- start_round(game): the setup (seed MISE EN PLACE): the start tile in the corner 0,0, the piles shuffled (river
--- rhombi, land rhombi, land triangles), the source and the ice block aside, the token pools shuffled face down, the
--- supply, the prospectors at the start store, each with the start inventory (3 tools, 1 food, 1 log, 2 whisky).
function rules.start_round(game)
  geometry(game)
  game:place_tile(START, B, "0,0", 0)
  -- the start tile's river: course 1 on its river faces, the crossed edges, the two fords
  for _, f in ipairs((tile_faces(game, vid(0, 0) and game:face(B, "0,0u")))) do
    if land_of(game, f) == RIVER then game:set_mark(B, "course", f, 1) end
  end
  for _, pair in ipairs({ { 1, 1, 2, 0 }, { 0, 0, 0, 1 }, { 1, 0, 1, 1, true }, { 1, 0, 0, 1, true } }) do
    local e = edge_between(vid(pair[1], pair[2]), vid(pair[3], pair[4]))
    game:set_mark(B, "river", e, 1)
    if pair[5] then game:set_mark(B, "ford", e, 1) end
  end
  local open = edge_between(vid(1, 1), vid(2, 0))
  set_counter(game, "end_edge", 0, open)
  set_counter(game, "end_face", 0, across(open, face_of(vid(1, 0), vid(2, 0), vid(1, 1))))
  set_counter(game, "course", 0, 1)
  for _, t in ipairs(RIVER_TILES) do move(game, t, PILE_RIVER) end
  for _, t in ipairs(LAND_TILES) do move(game, t, PILE_LAND) end
  for _, t in ipairs(TRIANGLE_TILES) do move(game, t, PILE_TRIANGLE) end
  move(game, SOURCE_TILE, ASIDE)
  game:shuffle(PILE_RIVER); game:shuffle(PILE_LAND); game:shuffle(PILE_TRIANGLE)
  for _, c in ipairs(GREEN_TOKENS) do move(game, c, POOL_GREEN) end
  for _, c in ipairs(GREY_TOKENS) do move(game, c, POOL_GREY) end
  for _, c in ipairs(ANIMAL_TOKENS) do move(game, c, POOL_ANIMAL) end
  for _, c in ipairs(EVENT_TOKENS) do move(game, c, POOL_EVENT) end
  game:shuffle(POOL_GREEN); game:shuffle(POOL_GREY); game:shuffle(POOL_ANIMAL); game:shuffle(POOL_EVENT)
  for _, c in ipairs(SUPPLY_ITEMS) do move(game, c, SHOP) end
  for _, name in ipairs(BASE) do set_counter(game, name, 0, P.base[name] or 0) end
  for _, name in ipairs({ "net", "sawmill", "mine" }) do set_counter(game, name, 0, P.buildings[name] or 0) end
  local store = vid(1, 0)
  for s = 1, SEATS do
    game:move_figure(s, B, "vertex", store)
    for _, name in ipairs(BASE) do take_base(game, s, name, P.start[name] or 0) end
    for _ = 1, (P.start.whisky or 0) do take_item(game, s, WHISKY) end
  end
  rules.begin_turn(game, FIRST)
end

--- A turn begins: one move and one action (seed "UN TOUR DE JEU"), no whisky drunk, no way of moving chosen yet.
function rules.begin_turn(game, s)
  set_counter(game, "moves", 0, 1)
  set_counter(game, "acts", 0, 1)
  set_counter(game, "drank", 0, 0)
  set_counter(game, "mode", 0, 0)
  game:set_to_move(s, MAIN)
end

-- ---- exploration (seed A.2) -------------------------------------------------------------------------------------

--- Whether the river still has an unexplored end (no source laid yet).
function rules.river_open(game) return counter(game, "end_edge") ~= 0 end

--- Whether vertex v is adjacent to, or one edge away from, the unexplored part of the river (seed 2.a ①-④): an end of
--- the river's open side, or a neighbour of one.
function rules.near_unexplored_river(game, v)
  local e = counter(game, "end_edge")
  if e == 0 then return false end
  for _, x in ipairs({ EV1[e], EV2[e] }) do
    if x == v then return true end
    for _, e2 in ipairs(VEDGES[x]) do if other_end(e2, x) == v then return true end end
  end
  return false
end

-- A placement is the anchor vertex and the rotation, as one integer: anchor * 8 + rotation.
local function placement(a, k) return a * 8 + k end
local function placement_parts(p) return p >> 3, p & 7 end
local function placement_text(game, p)
  local a, k = placement_parts(p)
  return VQ[a] .. "," .. VR[a] .. " r" .. k
end
rules.placement_text = placement_text

--- The faces a rhombus covers when laid at (a, k), or nil when off the board.
local function rhombus_faces(a, k)
  local p0, p1, p2, p3 = a, global_vertex(a, k, 1, 0), global_vertex(a, k, 0, 1), global_vertex(a, k, 1, 1)
  if not (p1 and p2 and p3) then return nil end
  return face_of(p0, p1, p2), face_of(p1, p3, p2)
end
--- The two placements of a rhombus on the adjacent faces f and g (each way round: rotation k and k+3).
local ACUTE_STEP = { [0] = { 1, 1 }, { -1, 2 }, { -2, 1 }, { -1, -1 }, { 1, -2 }, { 2, -1 } }
local function rhombus_placements(f, g)
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

--- The free faces around v a land tile may cover: every free face but the one reserved for the river's course (the
--- face beyond its open end: the river must be able to go on, seed 2.a "elle prolonge le cours de la rivière").
local function free_for_land(game, f)
  return f and not tile_at(game, B, f) and f ~= counter(game, "end_face")
end

--- The legal placements of a land rhombus while exploring v (seed 2.b: "autant de tuiles de terre ferme que
--- nécessaire pour compléter l'intersection"): on a free face around v and a free neighbour of it; one placement per
--- pair of faces (a land tile reads the same both ways round: the placement with the lower anchor).
function rules.land_placements(game, v)
  local out, seen = {}, {}
  for _, f in ipairs(VFACES[v]) do
    if free_for_land(game, f) then
      for _, e in ipairs(FEDGES[f]) do
        local g = across(e, f)
        if free_for_land(game, g) then
          local key = f < g and f * 4096 + g or g * 4096 + f
          if not seen[key] then
            seen[key] = true
            local p1, p2 = rhombus_placements(f, g)
            if p1 then out[#out + 1] = math.min(p1, p2) end
          end
        end
      end
    end
  end
  table.sort(out)
  return out
end

--- The legal placements of river tile t (seed 2.a): it covers the face beyond the river's open end, the river enters
--- it through the open side and leaves through a side that has a free face beyond (so that the course goes on);
--- among them, only those next to the prospector at v when there are any ("si possible, adjacente au prospecteur").
function rules.river_placements(game, t, v)
  local open, ef = counter(game, "end_edge"), counter(game, "end_face")
  local all, near = {}, {}
  for _, e in ipairs(FEDGES[ef]) do
    local g = across(e, ef)
    if g and not tile_at(game, B, g) then
      local p1, p2 = rhombus_placements(ef, g)
      for _, p in ipairs({ p1, p2 }) do
        local a, k = placement_parts(p)
        local s1, s2 = global_side(a, k, IS_RIVER_TILE[t][1]), global_side(a, k, IS_RIVER_TILE[t][2])
        local exit = (s1 == open and s2) or (s2 == open and s1) or nil
        if exit then
          local fa, fb = rhombus_faces(a, k)
          local beyond
          for _, h in ipairs(EFACES[exit]) do if h ~= fa and h ~= fb then beyond = h end end
          if beyond and not tile_at(game, B, beyond) then
            all[#all + 1] = p
            for _, x in ipairs(FVERTS[fa]) do if x == v then near[#near + 1] = p; break end end
            if near[#near] ~= p then
              for _, x in ipairs(FVERTS[fb]) do if x == v then near[#near + 1] = p; break end end
            end
          end
        end
      end
    end
  end
  local out = #near > 0 and near or all
  table.sort(out)
  return out
end

--- The legal placements of the tile being laid (the one in `drawn`).
function rules.placements(game)
  local t = top_of(game, DRAWN)
  if not t then return {} end
  local v = counter(game, "exploring")
  if IS_RIVER_TILE[t] then return rules.river_placements(game, t, v) end
  return rules.land_placements(game, v)
end

-- Token laying (seed 2.d).
local function lay_tokens(game, pool, n, kind, site)
  for _ = 1, n do
    local c = top_of(game, pool)
    if not c then return end
    game:lay(c, B, kind, site, true)
  end
end

--- Banks: the corners of a river tile split by the river (seed 2.d, B.1 "sur la même rive"); two corners are on the
--- same bank when a path along the tile's sides and inner edges joins them without crossing the river.
function rules.same_bank(game, f, v, w)
  if v == w then return true end
  local faces = tile_faces(game, f)
  local reach, n = { v }, 1
  local i = 1
  while i <= n do
    local x = reach[i]
    for _, g in ipairs(faces) do
      for _, e in ipairs(FEDGES[g]) do
        if (EV1[e] == x or EV2[e] == x) and mark_of(game, B, "river", e) == 0 then
          local y = other_end(e, x)
          if y == w then return true end
          local seen = false
          for j = 1, n do if reach[j] == y then seen = true end end
          if not seen then n = n + 1; reach[n] = y end
        end
      end
    end
    i = i + 1
  end
  return false
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
    local corners = tile_corners(game, f1)
    table.sort(corners)
    local first = corners[1]
    for i, f in ipairs({ f1, f2 }) do
      for j, w in ipairs(FVERTS[f]) do
        if rules.same_bank(game, f1, first, w) == (i == 1) then
          game:set_mark(B, "bank", f, j)
          lay_tokens(game, POOL_GREEN, P.river_green_per_bank, "face", f)
          break
        end
      end
    end
  end
end

--- Lays river tile t at placement p: the tile, its course number, the river marks on the edges it crosses (its two
--- crossed sides and its inner side), and the river's new open end.
function rules.lay_river_tile(game, t, p)
  local a, k = placement_parts(p)
  local fa, fb = rhombus_faces(a, k)
  game:place_tile(t, B, game:vertex_text(B, a), k)
  local course = counter(game, "course") + 1
  set_counter(game, "course", 0, course)
  game:set_mark(B, "course", fa, course)
  game:set_mark(B, "course", fb, course)
  local open = counter(game, "end_edge")
  local exit
  for _, side in ipairs(IS_RIVER_TILE[t]) do
    local e = global_side(a, k, side)
    game:set_mark(B, "river", e, 1)
    if e ~= open then exit = e end
  end
  for _, e in ipairs(FEDGES[fa]) do
    for _, e2 in ipairs(FEDGES[fb]) do if e == e2 then game:set_mark(B, "river", e, 1) end end
  end
  local beyond
  for _, h in ipairs(EFACES[exit]) do if h ~= fa and h ~= fb then beyond = h end end
  set_counter(game, "end_edge", 0, exit)
  set_counter(game, "end_face", 0, beyond)
  rules.lay_symbols(game, t, { fa, fb })
  rules.after_laying(game, { fa, fb })
end

--- Lays the source at the river's open end (seed 2.a: no river tile fits or none is left; 2.b: the 32nd land rhombus;
--- 2.c: the river flows out of an enclosed hole): the triangle beyond the open side, its crossed side on it.
function rules.lay_source(game)
  local open, ef = counter(game, "end_edge"), counter(game, "end_face")
  if open == 0 or game:zone_of(SOURCE_TILE) ~= ASIDE then return end
  for _, a in ipairs(FVERTS[ef]) do
    for k = 0, 5 do
      local p1, p2 = global_vertex(a, k, 1, 0), global_vertex(a, k, 0, 1)
      if p1 and p2 and face_of(a, p1, p2) == ef and edge_between(a, p1) == open then
        game:place_tile(SOURCE_TILE, B, game:vertex_text(B, a), k)
        local course = counter(game, "course") + 1
        set_counter(game, "course", 0, course)
        game:set_mark(B, "course", ef, course)
        set_counter(game, "end_edge", 0, 0)
        set_counter(game, "end_face", 0, 0)
        rules.lay_symbols(game, SOURCE_TILE, { ef })
        rules.after_laying(game, { ef })
        return
      end
    end
  end
  error("the source does not fit at the river's end")
end

--- Whether the free face f is enclosed: every neighbour across its sides is covered or off the board, `ignore` apart.
local function enclosed(game, f, ignore)
  for _, e in ipairs(FEDGES[f]) do
    local g = across(e, f)
    if g and g ~= ignore and not tile_at(game, B, g) then return false end
  end
  return true
end

--- Enclosed holes (seed 2.c): a fully enclosed triangular hole gets a land triangle from the pile; when the river flows
--- out of an enclosed triangle (or an enclosed rhombus-shaped hole), the source is laid at its end instead.
function rules.fill_holes(game, faces)
  local ef = counter(game, "end_face")
  if ef ~= 0 and not tile_at(game, B, ef) then
    local hole = enclosed(game, ef)
    if not hole then
      for _, e in ipairs(FEDGES[ef]) do
        local g = across(e, ef)
        if g and not tile_at(game, B, g) and enclosed(game, g, ef) and enclosed(game, ef, g) then hole = true end
      end
    end
    if hole then rules.lay_source(game) end
  end
  for _, f in ipairs(faces) do
    for _, e in ipairs(FEDGES[f]) do
      local g = across(e, f)
      if g and not tile_at(game, B, g) and g ~= counter(game, "end_face") and enclosed(game, g) then
        local t = top_of(game, PILE_TRIANGLE)
        if t then
          for _, a in ipairs(FVERTS[g]) do
            local laid = false
            for k = 0, 5 do
              local p1, p2 = global_vertex(a, k, 1, 0), global_vertex(a, k, 0, 1)
              if p1 and p2 and face_of(a, p1, p2) == g then
                game:place_tile(t, B, game:vertex_text(B, a), k)
                rules.lay_symbols(game, t, { g })
                laid = true
                break
              end
            end
            if laid then break end
          end
        end
      end
    end
  end
end

--- After a tile is laid: holes (2.c), and the 32nd land rhombus brings the ice block (2.b).
function rules.after_laying(game, faces)
  rules.fill_holes(game, faces)
end

--- The 32nd and last land rhombus (seed 2.b): the ice block enters on the source (laid first at the river's end if
--- needed), movement along the border of the explored area opens, and the unused triangles and river tiles leave.
function rules.ice_enters(game)
  if counter(game, "ice") ~= 0 then return end
  rules.lay_source(game)
  set_counter(game, "ice", 0, 1)
  for _, z in ipairs({ PILE_RIVER, PILE_TRIANGLE }) do
    while top_of(game, z) do move(game, top_of(game, z), "box") end
  end
  -- the ice block stands on the source; without one (the river ran into the rim), on the river's last tile (ASSUMED)
  local best, bestc = nil, 0
  for f = 1, NF do
    local c = mark_of(game, B, "course", f)
    if c > bestc then best, bestc = f, c end
  end
  game:move_figure(ICE, B, "face", best)
  if game:zone_of(SOURCE_TILE) == ASIDE then move(game, SOURCE_TILE, "box") end
end

--- Lays the land rhombus t at placement p (seed 2.b), then its tokens, holes and the ice block after the last one.
function rules.lay_land_tile(game, t, p)
  local a, k = placement_parts(p)
  local fa, fb = rhombus_faces(a, k)
  game:place_tile(t, B, game:vertex_text(B, a), k)
  add_counter(game, "land_laid", 0, 1)
  rules.lay_symbols(game, t, { fa, fb })
  rules.after_laying(game, { fa, fb })
  if not top_of(game, PILE_LAND) then rules.ice_enters(game) end
end

--- Draws the next river tile that can be laid (seed 2.a): a tile that cannot goes under the pile and the next is
--- drawn; returns nil when none fits or none is left.
function rules.draw_river_tile(game, v)
  for _ = 1, size_of(game, PILE_RIVER) do
    local t = top_of(game, PILE_RIVER)
    if #rules.river_placements(game, t, v) > 0 then
      move(game, t, DRAWN)
      return t
    end
    game:put_under(t, PILE_RIVER)
  end
  return nil
end

--- Goes on with the exploration of the vertex in `exploring` (seed 2, steps a-d): river tiles first while the
--- prospector is near the river's unexplored end, then land rhombi until the intersection is complete. A tile with a
--- single legal placement is laid at once; otherwise the player chooses (phase LAY_RIVER / LAY_LAND).
function rules.explore(game, s)
  local v = counter(game, "exploring")
  while true do
    if rules.river_open(game) and counter(game, "ice") == 0 and rules.near_unexplored_river(game, v) then
      local t = rules.draw_river_tile(game, v)
      if not t then
        rules.lay_source(game)
      else
        local ps = rules.placements(game)
        if #ps == 1 then
          rules.lay_river_tile(game, t, ps[1])
        else
          game:set_phase(LAY_RIVER)
          return
        end
      end
    elseif counter(game, "ice") == 0 and not rules.explored(game, v) and top_of(game, PILE_LAND)
        and #rules.land_placements(game, v) > 0 then
      local t = top_of(game, PILE_LAND)
      move(game, t, DRAWN)
      local ps = rules.placements(game)
      if #ps == 1 then
        rules.lay_land_tile(game, t, ps[1])
      else
        game:set_phase(LAY_LAND)
        return
      end
    else
      break
    end
  end
  set_counter(game, "exploring", 0, 0)
  game:set_phase(MAIN)
end

-- ---- the ice block (seed C) ---------------------------------------------------------------------------------------
--- The ice die at the end of a turn once the ice block is in play: on `ice_roll` or more it moves one river tile
--- downstream; reaching the start tile's waterfall ends the game (seed FIN DU JEU).
function rules.roll_ice(game)
  if counter(game, "ice") == 0 then return end
  if game:random(P.die) < P.ice_roll then return end
  local _, _, f = game:figure(ICE)
  local c = mark_of(game, B, "course", f) - 1
  for g = 1, NF do
    if mark_of(game, B, "course", g) == c then
      game:move_figure(ICE, B, "face", g)
      break
    end
  end
  if c <= 1 then game:end_round() end
end

-- ---- the actions (seed B) ---------------------------------------------------------------------------------------

--- The tiles around vertex v (their canonical faces, ascending): "une tuile adjacente".
function rules.adjacent_tiles(game, v)
  local out, tiles = {}, {}
  for _, f in ipairs(VFACES[v]) do
    local t = tile_at(game, B, f)
    if t and not tiles[t] then -- a tile met again through another of its faces has the same head
      tiles[t] = true
      out[#out + 1] = tile_head(game, f)
    end
  end
  table.sort(out)
  return out
end
--- The tokens of `kind` ("gold" green/grey, "animal", "item" events) lying on the faces of the tile whose head is h.
function rules.tokens_on_tile(game, h, pred)
  local out = {}
  for _, f in ipairs((tile_faces(game, h))) do
    for _, c in ipairs(lying(game, B, "face", f)) do
      if pred(c) then out[#out + 1] = c end
    end
  end
  return out
end
-- A face-down token's kind shows on its back (green, grey, animal, event) and, here, follows from where it lies: green
-- gold on lakes, bushes and river banks (vertices), grey gold on mountains and the source, animals on the bear cave
-- and the animal forests, events on meadows and the other forests. So what is legal never depends on a hidden face
-- (a viewer sees a face-down token as 0), and a determinization that re-deals tokens changes no legal action.
local function any(c) return true end
local is_green, is_grey, is_animal, is_event = any, any, any, any
--- Which kind of token the tile whose head is h holds: "green", "grey", "animal", "event" or nil.
function rules.token_kind(game, h)
  local l = land_of(game, h)
  if l == LAKE or l == BUSHES then return "green" end
  if l == MOUNTAIN or l == SOURCE then return "grey" end
  if l == CAVE then return "animal" end
  if l == MEADOW then return "event" end
  if l == FOREST then return IS_ANIMAL_FOREST[tile_at(game, B, h)] and "animal" or "event" end
end

--- Where seat s at v may pan river gold (seed B.1): green tokens on an adjacent tile with water — a lake, a bushes
--- tile watered by a canal, or a river tile, on the same bank as the prospector (the tokens of one bank of a river
--- tile lie on the face whose `bank` mark names a corner of that bank). Returns sites: {"face", tile head} or
--- {"bank", face}.
function rules.pan_sites(game, v)
  local out = {}
  for _, h in ipairs(rules.adjacent_tiles(game, v)) do
    local l = land_of(game, h)
    if l == LAKE or (l == BUSHES and rules.has_water(game, h)) then
      if #rules.tokens_on_tile(game, h, is_green) > 0 then out[#out + 1] = { "face", h } end
    elseif l == RIVER and IS_RIVER_TILE[tile_at(game, B, h)] then
      for _, g in ipairs((tile_faces(game, h))) do
        local corner = mark_of(game, B, "bank", g)
        if corner ~= 0 and #lying(game, B, "face", g) > 0 and rules.same_bank(game, h, v, FVERTS[g][corner]) then
          out[#out + 1] = { "bank", g }
        end
      end
    end
  end
  return out
end

--- Where seat s at v may mine (seed B.1): grey tokens on an adjacent mountain or source tile that has a mine.
function rules.mine_sites(game, v)
  local out = {}
  for _, h in ipairs(rules.adjacent_tiles(game, v)) do
    local l = land_of(game, h)
    if (l == MOUNTAIN or l == SOURCE) and mark_of(game, B, "mine", h) ~= 0
        and #rules.tokens_on_tile(game, h, is_grey) > 0 then
      out[#out + 1] = h
    end
  end
  return out
end

--- The tiles around v with an event (seed B.2) / an animal (seed B.4) token.
function rules.event_sites(game, v)
  local out = {}
  for _, h in ipairs(rules.adjacent_tiles(game, v)) do
    if rules.token_kind(game, h) == "event" and #rules.tokens_on_tile(game, h, is_event) > 0 then out[#out + 1] = h end
  end
  return out
end
function rules.hunt_sites(game, v)
  local out = {}
  for _, h in ipairs(rules.adjacent_tiles(game, v)) do
    if rules.token_kind(game, h) == "animal" and #rules.tokens_on_tile(game, h, is_animal) > 0 then out[#out + 1] = h end
  end
  return out
end

--- Fish caught by seat s at v (seed B.3, cumulative): a fishing rod by a river or lake, a fish net built at v, a tile
--- with a fish symbol next to v.
function rules.fish_count(game, s, v)
  local n = 0
  local water, symbol = false, false
  for _, f in ipairs(VFACES[v]) do
    local feat = face_feature(game, B, f)
    local l = feat & 15
    if l == RIVER or l == LAKE then water = true end
    if feat & FISH ~= 0 then symbol = true end
  end
  if water and rules.owns(game, s, ROD) then n = n + 1 end
  if mark_of(game, B, "building", v) == 1 then n = n + 1 end
  if symbol then n = n + 1 end
  return n
end

--- Logs felled by seat s at v (seed B.5): an adjacent forest gives 1; at a sawmill or with an axe 2; both 3.
function rules.fell_count(game, s, v)
  local forest = false
  for _, f in ipairs(VFACES[v]) do if land_of(game, f) == FOREST then forest = true end end
  if not forest then return 0 end
  local n = 1
  if mark_of(game, B, "building", v) == 2 then n = n + 1 end
  if rules.owns(game, s, AXE) then n = n + 1 end
  return n
end

--- What may be built at v (seed B.6): a fish net at a river or lake intersection (1 tool), a sawmill at a forest
--- intersection (1 tool), one building per intersection; a canal (1 log) on a side at v between a tile with water and
--- a dry bushes or forest tile (never a mountain); a mine (1 tool, 1 food, 1 log) on an adjacent mountain or source.
function rules.may_build_net(game, s, v)
  if mark_of(game, B, "building", v) ~= 0 or counter(game, "net") == 0 or counter(game, "tool", s) < 1 then return false end
  for _, f in ipairs(VFACES[v]) do
    local l = land_of(game, f)
    if l == RIVER or l == LAKE then return true end
  end
  return false
end
function rules.may_build_sawmill(game, s, v)
  if mark_of(game, B, "building", v) ~= 0 or counter(game, "sawmill") == 0 or counter(game, "tool", s) < 1 then return false end
  for _, f in ipairs(VFACES[v]) do if land_of(game, f) == FOREST then return true end end
  return false
end
function rules.canal_edges(game, s, v)
  local out = {}
  if counter(game, "log", s) < 1 then return out end
  for _, e in ipairs(VEDGES[v]) do
    local fs = EFACES[e]
    if #fs == 2 and edge_class(game, B, e) & COVERED2 ~= 0 and mark_of(game, B, "canal", e) == 0 then
      local f, g = fs[1], fs[2]
      local lf, lg = land_of(game, f), land_of(game, g)
      if lf ~= MOUNTAIN and lg ~= MOUNTAIN then
        local wf, wg = rules.has_water(game, f), rules.has_water(game, g)
        if (wf and not wg and (lg == BUSHES or lg == FOREST)) or (wg and not wf and (lf == BUSHES or lf == FOREST)) then
          out[#out + 1] = e
        end
      end
    end
  end
  return out
end
function rules.mine_tiles(game, s, v)
  local out = {}
  if counter(game, "mine") == 0 or counter(game, "tool", s) < 1 or counter(game, "food", s) < 1
      or counter(game, "log", s) < 1 then return out end
  for _, h in ipairs(rules.adjacent_tiles(game, v)) do
    local l = land_of(game, h)
    if (l == MOUNTAIN or l == SOURCE) and mark_of(game, B, "mine", h) == 0 then out[#out + 1] = h end
  end
  return out
end

-- A tool is bought from the supply's base goods, not from the items: its purchase code follows the items'.
local BUY_TOOL <const> = #ITEMS + 1
--- The price of item i in nuggets and in X (seed B.7, prices ASSUMED in ruleset.toml); i = #ITEMS + 1 is a tool.
function rules.price(i)
  local name = ITEMS[i] or "tool"
  return P.prices[name] or 0, P.price_x[name] or 0
end
--- Whether a store sells seat s a tool (ASSUMED, the seed is silent: tools are spent building and go back to the
--- supply, "la réserve", and nothing else brings one back; with four players the twelve are all dealt at the start):
--- a tool from the supply for `prices.tool` nuggets, 0 meaning never.
function rules.sells_tool(game)
  return (P.prices.tool or 0) > 0 and counter(game, "tool", 0) > 0
end
--- Whether vertex v is at a refinery (seed 2.c: "une raffinerie, où elle peut, pour deux denrées de base de son
--- choix, acheter une bouteille de whisky").
function rules.at_refinery(game, v)
  for _, f in ipairs(VFACES[v]) do if land_of(game, f) == REFINERY then return true end end
  return false
end

-- ---- action encoding ---------------------------------------------------------------------------------------------
-- kind | a << 5 | b << 18 | c << 24 (below 2^28: a kind, a vertex, face, edge or component id, two small numbers)
local AK = { MOVE = 1, LAY = 2, PAN = 3, MINE = 4, EVENT = 5, KEEP = 6, FISH = 7, HUNT = 8, FELL = 9, NET = 10, SAWMILL = 11, CANAL = 12, BUILD_MINE = 13, BUY = 14, PAY = 15, REFINE = 16, DRINK = 17, USE_FISH = 18, DISCARD = 19, END = 20, DECLARE = 21 }
local function act(kind, a, b, c) return kind | ((a or 0) << 5) | ((b or 0) << 18) | ((c or 0) << 24) end
local function parts(x) return x & 31, (x >> 5) & 8191, (x >> 18) & 63, (x >> 24) & 15 end
rules.act, rules.parts = act, parts
rules.KINDS = AK

-- The pairs of base goods a payment of two may take (event, refinery): log+log, log+food, ...
local PAIRS = { { 1, 1 }, { 1, 2 }, { 1, 3 }, { 2, 2 }, { 2, 3 }, { 3, 3 } }
local function can_pay_pair(game, s, a, b)
  if a == b then return counter(game, BASE[a], s) >= 2 end
  return counter(game, BASE[a], s) >= 1 and counter(game, BASE[b], s) >= 1
end

--- The legal actions of the one action of a turn (seed B), for seat s at v.
function rules.turn_actions(game, s, v, out)
  for _, site in ipairs(counter(game, "food", s) >= 1 and rules.pan_sites(game, v) or {}) do
    out[#out + 1] = act(AK.PAN, site[2], site[1] == "bank" and 1 or 2)
  end
  if counter(game, "food", s) >= 1 and counter(game, "log", s) >= 1 then
    for _, h in ipairs(rules.mine_sites(game, v)) do
      out[#out + 1] = act(AK.MINE, h, 0)
      if not rules.owns(game, s, CRATE) and rules.owns(game, s, STICK) then out[#out + 1] = act(AK.MINE, h, 1) end
    end
  end
  local events = rules.event_sites(game, v)
  if #events > 0 then
    for _, pair in ipairs(PAIRS) do
      if can_pay_pair(game, s, pair[1], pair[2]) then
        for _, h in ipairs(events) do out[#out + 1] = act(AK.EVENT, h, pair[1], pair[2]) end
      end
    end
  end
  if rules.fish_count(game, s, v) > 0 and counter(game, "food", 0) > 0 then out[#out + 1] = act(AK.FISH) end
  for _, h in ipairs(rules.hunt_sites(game, v)) do out[#out + 1] = act(AK.HUNT, h) end
  if rules.fell_count(game, s, v) > 0 and counter(game, "log", 0) > 0 then out[#out + 1] = act(AK.FELL) end
  if rules.may_build_net(game, s, v) then out[#out + 1] = act(AK.NET) end
  if rules.may_build_sawmill(game, s, v) then out[#out + 1] = act(AK.SAWMILL) end
  for _, e in ipairs(rules.canal_edges(game, s, v)) do out[#out + 1] = act(AK.CANAL, e) end
  for _, h in ipairs(rules.mine_tiles(game, s, v)) do out[#out + 1] = act(AK.BUILD_MINE, h) end
  if rules.at_store(game, v) then rules.buy_actions(game, s, out) end
  if rules.at_refinery(game, v) and first_item(game, SHOP, WHISKY) then
    for _, pair in ipairs(PAIRS) do
      if can_pay_pair(game, s, pair[1], pair[2]) then out[#out + 1] = act(AK.REFINE, pair[1], pair[2]) end
    end
  end
end

--- The purchases open to seat s (seed B.7): each item in stock whose nugget price, added to the basket, the gold bag
--- covers; an X paid with a nugget (`buy horse`), a base good (`buy horse for log`) or an equipment (`... for rifle`);
--- a tool from the supply (rules.sells_tool).
function rules.buy_actions(game, s, out)
  local wealth = rules.nuggets(game, s) - counter(game, "basket")
  local seen = {}
  for _, c in ipairs(cards_of(game, SHOP)) do
    local i = ITEM[c]
    if not seen[i] then
      seen[i] = true
      local price, x = rules.price(i)
      if price > 0 or x > 0 then
        if price + x <= wealth then out[#out + 1] = act(AK.BUY, i, 0) end
        if x == 1 and price <= wealth then
          for g = 1, 3 do if counter(game, BASE[g], s) >= 1 then out[#out + 1] = act(AK.BUY, i, g) end end
          local eq = {}
          for _, d in ipairs(cards_of(game, EQUIP[s])) do
            if not eq[ITEM[d]] then eq[ITEM[d]] = true; out[#out + 1] = act(AK.BUY, i, 3 + ITEM[d]) end
          end
        end
      end
    end
  end
  if rules.sells_tool(game) and P.prices.tool <= wealth then out[#out + 1] = act(AK.BUY, BUY_TOOL, 0) end
end

--- Discards open to seat s at the end of its turn (seed "INVENTAIRE": "il doit se défausser des jetons en excédent,
--- selon son choix"): base goods when the backpack overflows, items when the equipment slots overflow.
function rules.discard_actions(game, s, out)
  local pack, equip = rules.overflows(game, s)
  if pack then
    for g = 1, 3 do if counter(game, BASE[g], s) > 0 then out[#out + 1] = act(AK.DISCARD, g) end end
  end
  if equip then
    local seen = {}
    for _, z in ipairs({ EQUIP[s], GOODS[s] }) do
      for _, c in ipairs(cards_of(game, z)) do
        if not seen[ITEM[c]] and item_slots(ITEM[c]) > 0 then seen[ITEM[c]] = true; out[#out + 1] = act(AK.DISCARD, 3 + ITEM[c]) end
      end
    end
  end
end

--- actions(game, out, seat, phase) -> count.
function rules.actions(game, out, seat, phase)
  geometry(game)
  seat = seat or game:to_move()
  phase = phase or game:phase()
  for i = #out, 1, -1 do out[i] = nil end
  if phase == LAY_RIVER or phase == LAY_LAND then
    for _, p in ipairs(rules.placements(game)) do out[#out + 1] = act(AK.LAY, p >> 3, p & 7) end
  elseif phase == KEEP then
    local seen = {}
    for _, c in ipairs(cards_of(game, LOOK[seat])) do
      if not seen[NAME[c]] then seen[NAME[c]] = true; out[#out + 1] = act(AK.KEEP, c) end
    end
  elseif phase == SHOPPING then
    rules.buy_actions(game, seat, out)
    out[#out + 1] = act(AK.PAY)
    if counter(game, "basket") > 0 then
      local seen = {}
      for _, c in ipairs(cards_of(game, GOLD[seat])) do
        if not seen[NAME[c]] then seen[NAME[c]] = true; out[#out + 1] = act(AK.PAY, c) end
      end
    end
  elseif phase == DISCARD then
    rules.discard_actions(game, seat, out)
  else
    local v = rules.position(game, seat)
    if counter(game, "moves") > 0 then
      for _, m in ipairs(rules.modes(game, seat)) do
        for _, w in ipairs(rules.destinations(game, seat, m)) do out[#out + 1] = act(AK.MOVE, w, m) end
      end
    end
    if counter(game, "acts") > 0 then rules.turn_actions(game, seat, v, out) end
    if counter(game, "drank") == 0 and rules.owns(game, seat, WHISKY) then
      if counter(game, "moves") == 0 then out[#out + 1] = act(AK.DRINK, 1) end
      if counter(game, "acts") == 0 then out[#out + 1] = act(AK.DRINK, 2) end
    end
    if rules.owns(game, seat, DRIED_FISH) and counter(game, "food", 0) > 0 then out[#out + 1] = act(AK.USE_FISH) end
    if rules.may_declare_end(game, seat) then out[#out + 1] = act(AK.DECLARE) end
    out[#out + 1] = act(AK.END)
  end
  -- texts must be unique: a move reachable on foot is offered on foot only
  return #out
end

--- Whether seat s may declare the end (seed FIN DU JEU): its prospector is at the start store with at least
--- `end_tokens` gold tokens.
function rules.may_declare_end(game, s)
  return rules.at_start_store(game, rules.position(game, s)) and size_of(game, GOLD[s]) >= P.end_tokens
end

--- Takes up to n tokens lying at a site into seat s's gold bag; returns how many.
local function take_tokens(game, s, tokens, n)
  local k = 0
  for i = 1, math.min(n, #tokens) do move(game, tokens[i], GOLD[s]); k = k + 1 end
  return k
end

--- The end of a turn (seed "UN TOUR DE JEU", C): the ice die once the ice block is in play, then the next seat; the
--- guard `max_rounds` stops a game that would not end (ASSUMED).
function rules.finish_turn(game, s)
  add_counter(game, "turns", 0, 1)
  rules.roll_ice(game)
  if game:over() then return end
  if counter(game, "turns") >= P.max_rounds * SEATS then game:end_round(); return end
  rules.begin_turn(game, s % SEATS + 1)
end

--- `pay` alone: the engine chooses the tokens for the player (a convenience, and the bots' default; `pay grey4`,
--- rules.pay_token, lets the player choose): from seat s's gold bag (seed B.7: "le magasin ne rend pas la monnaie"),
--- the tokens whose total covers the price with the least overpayment, then the fewest tokens;
--- between sets of the same total and size, the one the search below meets first, taking the tokens biggest first
--- (ASSUMED, the seed leaves it to the player: 5 nuggets from 4, 3, 2 and 1 are paid 3 + 2, keeping 4 and 1).
function rules.pay_nuggets(game, s, price)
  if price <= 0 then return end
  local tokens = cards_of(game, GOLD[s])
  table.sort(tokens, function(a, b) return NUGGETS[a] > NUGGETS[b] or (NUGGETS[a] == NUGGETS[b] and a < b) end)
  -- knapsack over sums: best[sum] = fewest tokens, with the chosen set
  local best = { [0] = {} }
  for _, c in ipairs(tokens) do
    local sums = {}
    for sum in pairs(best) do sums[#sums + 1] = sum end
    table.sort(sums, function(a, b) return a > b end)
    for _, sum in ipairs(sums) do
      local t = sum + NUGGETS[c]
      if sum < price then
        local cand = { table.unpack(best[sum]) }
        cand[#cand + 1] = c
        if not best[t] or #best[t] > #cand then best[t] = cand end
      end
    end
  end
  local target
  for sum in pairs(best) do
    if sum >= price and (not target or sum < target) then target = sum end
  end
  for _, c in ipairs(best[target]) do move(game, c, "box") end
end

--- The player pays with a gold token of its choice (seed B.7: the player pays in nuggets, "le magasin ne rend pas
--- la monnaie"): token c leaves the gold bag; once the basket is covered (overpaid or not, no change) shopping ends.
--- `pay token` is offered while nuggets are owed, one text per kind of token in the bag (`pay grey4`).
function rules.pay_token(game, s, c)
  move(game, c, "box")
  local owed = counter(game, "basket") - NUGGETS[c]
  if owed <= 0 then
    set_counter(game, "basket", 0, 0)
    game:set_phase(MAIN)
  else
    set_counter(game, "basket", 0, owed)
  end
end

--- apply(game, action, seat, phase).
function rules.apply(game, x, seat, phase)
  geometry(game)
  seat = seat or game:to_move()
  phase = phase or game:phase()
  local kind, a, b, c = parts(x)
  local v = rules.position(game, seat)
  if kind == AK.LAY then
    local t = top_of(game, DRAWN)
    if IS_RIVER_TILE[t] then rules.lay_river_tile(game, t, placement(a, b)) else rules.lay_land_tile(game, t, placement(a, b)) end
    rules.explore(game, seat)
  elseif kind == AK.MOVE then
    game:move_figure(seat, B, "vertex", a)
    add_counter(game, "moves", 0, -1)
    set_counter(game, "mode", 0, b)
    if counter(game, "ice") == 0 and not rules.explored(game, a) then
      set_counter(game, "exploring", 0, a)
      rules.explore(game, seat)
    end
  elseif kind == AK.END then
    local pack, equip = rules.overflows(game, seat)
    if pack or equip then
      game:set_phase(DISCARD)
    else
      rules.finish_turn(game, seat)
    end
  elseif kind == AK.DISCARD then
    if a <= 3 then pay_base(game, seat, BASE[a], 1) else spend_item(game, seat, a - 3) end
    local p1, p2 = rules.overflows(game, seat)
    if not p1 and not p2 then rules.finish_turn(game, seat) end
  elseif kind == AK.DRINK then
    spend_item(game, seat, WHISKY)
    set_counter(game, "drank", 0, 1)
    add_counter(game, a == 1 and "moves" or "acts", 0, 1)
  elseif kind == AK.USE_FISH then
    spend_item(game, seat, DRIED_FISH)
    take_base(game, seat, "food", 4)
  elseif kind == AK.DECLARE then
    game:end_round()
  elseif kind == AK.KEEP then
    -- the kept event goes to the inventory; the other goes back face down on its meadow
    rules.gain_event(game, seat, a)
    local f = counter(game, "look_face")
    while top_of(game, LOOK[seat]) do game:lay(top_of(game, LOOK[seat]), B, "face", f, true) end
    set_counter(game, "look_face", 0, 0)
    game:set_phase(MAIN)
  elseif kind == AK.BUY then
    local price, xs = rules.price(a)
    if a == BUY_TOOL then take_base(game, seat, "tool", 1) else take_item(game, seat, a) end
    add_counter(game, "basket", 0, price + (b == 0 and xs or 0))
    if b >= 1 and b <= 3 then pay_base(game, seat, BASE[b], 1)
    elseif b > 3 then spend_item(game, seat, b - 3) end
    if phase == MAIN then add_counter(game, "acts", 0, -1) end
    game:set_phase(SHOPPING)
  elseif kind == AK.PAY and a ~= 0 then
    rules.pay_token(game, seat, a)
  elseif kind == AK.PAY then
    rules.pay_nuggets(game, seat, counter(game, "basket"))
    set_counter(game, "basket", 0, 0)
    game:set_phase(MAIN)
  else
    add_counter(game, "acts", 0, -1)
    rules.perform(game, seat, v, kind, a, b, c)
  end
end

--- An event token taken (seed B.2): gold into the gold bag, face down ("Si c'est de l'or, il est placé, face cachée,
--- dans son sac d'or"); equipment into the equipment slots; goods (whisky, dynamite stick, dried fish) face down
--- among them.
function rules.gain_event(game, s, c)
  if NUGGETS[c] > 0 then move(game, c, GOLD[s]); return end
  move(game, c, IS_GOOD[ITEM[c]] and GOODS[s] or EQUIP[s])
end

--- The seven actions' effects (seed B.1-7), the action already counted.
function rules.perform(game, s, v, kind, a, b, c)
  if kind == AK.PAN then
    pay_base(game, s, "food", 1)
    local tokens = {}
    if b == 1 then
      for _, t in ipairs(lying(game, B, "face", a)) do if is_green(t) then tokens[#tokens + 1] = t end end
    else
      tokens = rules.tokens_on_tile(game, a, is_green)
    end
    take_tokens(game, s, tokens, rules.owns(game, s, SIEVE) and 2 or 1)
  elseif kind == AK.MINE then
    pay_base(game, s, "food", 1)
    pay_base(game, s, "log", 1)
    local n = 1
    if rules.owns(game, s, CRATE) then n = 2 elseif b == 1 then n = 2; spend_item(game, s, STICK) end
    take_tokens(game, s, rules.tokens_on_tile(game, a, is_grey), n)
  elseif kind == AK.EVENT then
    pay_base(game, s, BASE[b], 1)
    pay_base(game, s, BASE[c], 1)
    local tokens = rules.tokens_on_tile(game, a, is_event)
    if #tokens >= 2 then
      -- a meadow: look at both, keep one (seed B.2)
      move(game, tokens[1], LOOK[s]); move(game, tokens[2], LOOK[s])
      set_counter(game, "look_face", 0, game:face(B, game:face_text(B, a)))
      local _, _, fid = game:site_of(tokens[1])
      local _ = fid
      game:set_phase(KEEP)
    else
      rules.gain_event(game, s, tokens[1])
    end
  elseif kind == AK.FISH then
    take_base(game, s, "food", rules.fish_count(game, s, v))
  elseif kind == AK.HUNT then
    local animal = rules.tokens_on_tile(game, a, is_animal)[1]
    local hunter = game:random(P.die) + (rules.owns(game, s, RIFLE) and P.rifle_bonus or 0)
    local beast = game:random(P.die)
    if hunter > beast then
      move(game, animal, KILLED)
      take_base(game, s, "food", FOOD_OF[animal])
      if land_of(game, a) == CAVE then lay_tokens(game, POOL_ANIMAL, 1, "face", a) end
    end
  elseif kind == AK.FELL then
    take_base(game, s, "log", rules.fell_count(game, s, v))
  elseif kind == AK.NET then
    pay_base(game, s, "tool", 1)
    add_counter(game, "net", 0, -1)
    game:set_mark(B, "building", v, 1)
  elseif kind == AK.SAWMILL then
    pay_base(game, s, "tool", 1)
    add_counter(game, "sawmill", 0, -1)
    game:set_mark(B, "building", v, 2)
  elseif kind == AK.CANAL then
    pay_base(game, s, "log", 1)
    game:set_mark(B, "canal", a, 1)
    for _, f in ipairs(EFACES[a]) do
      if not rules.has_water(game, f) then
        for _, g in ipairs((tile_faces(game, f))) do game:set_mark(B, "water", g, 1) end
      end
    end
  elseif kind == AK.BUILD_MINE then
    pay_base(game, s, "tool", 1); pay_base(game, s, "food", 1); pay_base(game, s, "log", 1)
    add_counter(game, "mine", 0, -1)
    for _, g in ipairs((tile_faces(game, a))) do game:set_mark(B, "mine", g, 1) end
  elseif kind == AK.REFINE then
    pay_base(game, s, BASE[a], 1)
    pay_base(game, s, BASE[b], 1)
    take_item(game, s, WHISKY)
  end
end

-- ---- texts --------------------------------------------------------------------------------------------------------
local function vtext(v) return VQ[v] .. "," .. VR[v] end
rules.vertex_text = vtext
function rules.action_text(game, x)
  geometry(game)
  local kind, a, b, c = parts(x)
  if kind == AK.MOVE then return "move " .. vtext(a) .. (b == FOOT and "" or " " .. MODE_NAME[b]) end
  if kind == AK.LAY then return "lay " .. vtext(a) .. " r" .. b end
  if kind == AK.PAN then return "pan " .. game:face_text(B, a) end
  if kind == AK.MINE then return "mine " .. game:face_text(B, a) .. (b == 1 and " stick" or "") end
  if kind == AK.EVENT then return "event " .. game:face_text(B, a) .. " " .. BASE[b] .. " " .. BASE[c] end
  if kind == AK.KEEP then return "keep " .. NAME[a] end
  if kind == AK.FISH then return "fish" end
  if kind == AK.HUNT then return "hunt " .. game:face_text(B, a) end
  if kind == AK.FELL then return "fell" end
  if kind == AK.NET then return "build net" end
  if kind == AK.SAWMILL then return "build sawmill" end
  if kind == AK.CANAL then return "build canal " .. game:edge_text(B, a) end
  if kind == AK.BUILD_MINE then return "build mine " .. game:face_text(B, a) end
  if kind == AK.BUY then
    local text = "buy " .. (ITEMS[a] or "tool")
    if b >= 1 and b <= 3 then text = text .. " for " .. BASE[b] elseif b > 3 then text = text .. " for " .. ITEMS[b - 3] end
    return text
  end
  if kind == AK.PAY then return a == 0 and "pay" or "pay " .. NAME[a] end
  if kind == AK.REFINE then return "refine " .. BASE[a] .. " " .. BASE[b] end
  if kind == AK.DRINK then return a == 1 and "drink for move" or "drink for action" end
  if kind == AK.USE_FISH then return "use dried-fish" end
  if kind == AK.DISCARD then return "discard " .. (a <= 3 and BASE[a] or ITEMS[a - 3]) end
  if kind == AK.END then return "end turn" end
  if kind == AK.DECLARE then return "declare end" end
  return "?"
end

-- ---- scoring ------------------------------------------------------------------------------------------------------
--- score(game, seat): the nuggets in the seat's gold bag (seed FIN DU JEU: "Le joueur le plus riche"; the seed's
--- example: 11 tokens worth 25 lose to 8 worth 30).
function rules.score(game, seat)
  return rules.nuggets(game, seat)
end

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
function rules.promise(game, s, w, pan_ready, mine_ready, tool, sieve, crate)
  local value = 0
  local green = 0
  for _, site in ipairs(rules.pan_sites(game, w)) do
    local n = site[1] == "bank" and #lying(game, B, "face", site[2]) or #rules.tokens_on_tile(game, site[2], is_green)
    green = math.max(green, math.min(n, sieve and 2 or 1))
  end
  value = green * GREEN_MEAN * pan_ready
  local grey = 0
  for _, h in ipairs(rules.adjacent_tiles(game, w)) do
    local l = land_of(game, h)
    if l == MOUNTAIN or l == SOURCE then
      local n = math.min(#rules.tokens_on_tile(game, h, is_grey), 2)
      local mine = mark_of(game, B, "mine", h) ~= 0 and 1 or (tool > 0 and 0.35 or 0.15)
      local v = n * GREY_MEAN * (crate and 1 or 0.75) * mine
      if v > grey then grey = v end
    end
  end
  value = math.max(value, grey * mine_ready)
  if counter(game, "ice") == 0 and not rules.explored(game, w) then value = math.max(value, EXPLORE_VALUE) end
  return value
end

--- The intersections seat s could walk to, with the number of sides on the way (a map vertex -> sides, at most
--- `reach` sides): the sides its prospector may take (on foot or on horseback: land, along the river, the fords; with
--- a boat also across the river, seed A.1), never through an intersection not fully explored before the ice block
--- is in play (seed 2.b), nor along the border of the explored area before then.
function rules.walking_distances(game, s, reach)
  geometry(game)
  local v = rules.position(game, s)
  local ice = counter(game, "ice") ~= 0
  local allowed = LAND_WAY | ALONG | FORD_WAY
  if rules.owns(game, s, BOAT) then allowed = allowed | CROSSING end
  local dist, frontier = { [v] = 0 }, { v }
  for d = 1, reach do
    local nextf = {}
    for _, x in ipairs(frontier) do
      if ice or x == v or rules.explored(game, x) then
        for _, e in ipairs(VEDGES[x]) do
          local w = other_end(e, x)
          if not dist[w] then
            local way = rules.way(game, e)
            if way & allowed ~= 0 and (ice or way & BORDER == 0) then
              dist[w] = d
              nextf[#nextf + 1] = w
            end
          end
        end
      end
    end
    frontier = nextf
  end
  return dist
end

--- heuristic(game, seat): for the greedy bot, an estimate of the seat's final nuggets: the gold bag (less what a
--- basket owes), base goods (each one worth less than the one before, GOOD_VALUE; what overflows the backpack counts
--- against it) and equipment at a fraction of their use, and 0.6 of the best promise (rules.promise) among the
--- intersections the prospector can walk to within 24 sides (rules.walking_distances), 0.85 of it per side of walking
--- (0.92 on horseback).
local GOOD_VALUE = { food = { [0] = 0, 0.4, 0.65, 0.75, 0.85 }, log = { [0] = 0, 0.3, 0.5, 0.6 },
                     tool = { [0] = 0, 0.5, 1.0, 1.3 } } -- the worth of holding 0, 1, 2... of a base good
local EQUIP_VALUE = { [HORSE] = 2, [CART] = 0.5, [BOAT] = 1.5, [CRATE] = 2.5, [SIEVE] = 1.5, [AXE] = 0.5, [ROD] = 0.6,
                      [RIFLE] = 0.4, [WHISKY] = 0.8, [STICK] = 0.8, [DRIED_FISH] = 1 }
function rules.heuristic(game, seat)
  geometry(game)
  local h = rules.nuggets(game, seat)
  if game:over() then return h end
  if game:to_move() == seat then h = h - counter(game, "basket") end
  local food, log, tool = counter(game, "food", seat), counter(game, "log", seat), counter(game, "tool", seat)
  -- tools are scarce (three each at the start, seed "INVENTAIRE") and build mines: worth more than the food or the
  -- log an event could be paid with instead; a third food waits long for its use while others take the gold
  h = h + GOOD_VALUE.food[math.min(food, 4)] + GOOD_VALUE.log[math.min(log, 3)] + GOOD_VALUE.tool[math.min(tool, 3)]
  -- what does not fit is discarded at the end of the turn (seed "INVENTAIRE"): gathering into a full backpack
  -- gains nothing and costs the action
  local used, room = rules.backpack(game, seat)
  if used > room then h = h - 0.45 * (used - room) end
  for _, z in ipairs({ EQUIP[seat], GOODS[seat] }) do
    for _, c in ipairs(cards_of(game, z)) do h = h + (EQUIP_VALUE[ITEM[c]] or 0.5) end
  end
  local sieve, crate = rules.owns(game, seat, SIEVE), rules.owns(game, seat, CRATE)
  local decay = rules.owns(game, seat, HORSE) and 0.92 or 0.85
  local dist = rules.walking_distances(game, seat, 24)
  -- panning costs a food, mining a food and a log (seed B.1): without them, gold is as far as the nearest place to
  -- fish or hunt, or to fell a tree (0.3 when there is none within reach)
  local food_at, log_at = food > 0 and 0 or nil, log > 0 and 0 or nil
  if not food_at or not log_at then
    for w, d in pairs(dist) do
      if not food_at or d < food_at then
        if rules.fish_count(game, seat, w) > 0 or #rules.hunt_sites(game, w) > 0 then food_at = d end
      end
      if not log_at or d < log_at then
        if rules.fell_count(game, seat, w) > 0 then log_at = d end
      end
    end
  end
  local pan_ready = food_at and (food_at == 0 and 1 or 0.85 * decay ^ food_at) or 0.3
  local mine_ready = math.min(pan_ready, log_at and (log_at == 0 and 1 or 0.85 * decay ^ log_at) or 0.3)
  local best = 0
  for w, d in pairs(dist) do
    local p = decay ^ d * rules.promise(game, seat, w, pan_ready, mine_ready, tool, sieve, crate)
    if p > best then best = p end
  end
  return h + 0.6 * best
end

-- ---- invariants ------------------------------------------------------------------------------------------------
--- invariants(game): base goods are conserved (supply + seats), no counter is negative, every prospector stands on
--- the board within the room of its intersection.
function rules.invariants(game)
  geometry(game)
  for _, name in ipairs(BASE) do
    local total = counter(game, name, 0)
    if total < 0 then return "the supply holds " .. total .. " " .. name end
    for s = 1, SEATS do
      local n = counter(game, name, s)
      if n < 0 then return "seat " .. s .. " holds " .. n .. " " .. name end
      total = total + n
    end
    if total ~= (P.base[name] or 0) then return name .. ": " .. total .. " in play, expected " .. (P.base[name] or 0) end
  end
  for s = 1, SEATS do
    local v = rules.position(game, s)
    if not v then return "seat " .. s .. "'s prospector is off the board" end
    if prospectors_on(game, v) > rules.room_at(game, v) then return "too many prospectors on " .. vtext(v) end
  end
end

local view = require("view")
view.install(rules, {
  P = P, SEATS = SEATS, B = B, W = W, H = H, LETTER = LETTER, LANDSCAPE_NAME = LANDSCAPE_NAME, NAME = NAME,
  ITEMS = ITEMS, ITEM = ITEM, NUGGETS = NUGGETS, EQUIP = EQUIP, GOODS = GOODS, GOLD = GOLD, SHOP = SHOP,
  DRAWN = DRAWN, PILE_RIVER = PILE_RIVER, PILE_LAND = PILE_LAND, PILE_TRIANGLE = PILE_TRIANGLE, ICE = ICE,
  VQ = VQ, VR = VR, vid = vid, geometry = geometry, land_of = land_of, MODE_NAME = MODE_NAME,
  PHASES = { [MAIN] = "move and act", [LAY_RIVER] = "lay the river tile", [LAY_LAND] = "lay the land tile",
             [KEEP] = "keep one event", [SHOPPING] = "buy, then pay", [DISCARD] = "discard the excess" },
})

return rules
