-- Lost Valley, chapter A.1 "déplacement" (seed 004): "Les prospecteurs se déplacent le long des côtés des tuiles,
-- d'une intersection à une autre. On ne peut jamais traverser une tuile. Il n'est possible de traverser la rivière
-- qu'aux deux gués ... ou en utilisant un bateau." One prospector per intersection, two on a river bank, any number
-- at the start store; on foot one side (two along the river), on horseback two, by boat three along or across the
-- river; one way of moving per turn (rules.MODES names them: foot, horse, boat).

local K = require("valley")
local rules = K.rules
local CN, BASE_CN = K.CN, K.BASE_CN
local SEATS = K.SEATS
local B, RIVER, SOURCE, WATER, HOME_STORE, INNER = K.B, K.RIVER, K.SOURCE, K.WATER, K.HOME_STORE, K.INNER
local COVERED2, COVERED1, START, HORSE, BOAT, FOOT = K.COVERED2, K.COVERED1, K.START, K.HORSE, K.BOAT, K.FOOT
local ON_HORSE, BY_BOAT, counter, VEDGES, VFACES = K.ON_HORSE, K.BY_BOAT, K.counter, K.VEDGES, K.VFACES
local EFACES, geometry, other_end, tile_at = K.EFACES, K.geometry, K.other_end, K.tile_at
local face_feature, edge_class, mark_of, land_of = K.face_feature, K.edge_class, K.mark_of, K.land_of
local LAND_WAY, ALONG, CROSSING, FORD_WAY, BORDER = K.LAND_WAY, K.ALONG, K.CROSSING, K.FORD_WAY, K.BORDER
local prospectors_on, feature_of, sort_short = K.prospectors_on, K.feature_of, K.sort_short

--- Whether every corner (face) around vertex v is explored, i.e. covered by a tile; faces off the board count as
--- explored (seed 2: "une intersection dont tous les coins n'ont pas encore été explorés").
function rules.explored(game, v)
  geometry(game)
  local fs = VFACES[v]
  for i = 1, #fs do
    if not tile_at(game, B, fs[i]) then return false end
  end
  return true
end

--- Whether face f holds water: the river, a lake, or a tile watered by a canal (seed B.1, B.6; not the source).
function rules.has_water(game, f)
  return (feature_of(game, f) & WATER) ~= 0 or mark_of(game, B, "water", f) ~= 0
end

--- Whether vertex v is on a river bank: a corner of a river face (the start tile's or a river tile's; the source
--- is a river tile only for moving, seed 2.c).
function rules.on_river_bank(game, v)
  geometry(game)
  local fs = VFACES[v]
  for i = 1, #fs do
    if land_of(game, fs[i]) == RIVER then return true end
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
    local fs = EFACES[e]
    for i = 1, #fs do
      local l = land_of(game, fs[i])
      if l == RIVER or l == SOURCE then w = ALONG end
    end
  end
  if class & COVERED1 ~= 0 then
    local fs = EFACES[e]
    if #fs == 2 then w = w | BORDER end
  end
  return w
end

-- rules.may_move_along for an edge whose way (rules.way) is w.
local function may_move_along_way(game, mode, w, step, first_way)
  if w == 0 then return false end
  if w & BORDER ~= 0 and counter(game, CN.ice) == 0 then return false end
  if mode == FOOT then
    if step == 1 then return w & (LAND_WAY | ALONG | FORD_WAY) ~= 0 end
    return step == 2 and first_way & ALONG ~= 0 and w & ALONG ~= 0
  elseif mode == ON_HORSE then
    return step <= 2 and w & (LAND_WAY | ALONG | FORD_WAY) ~= 0
  else
    return step <= 3 and w & (ALONG | CROSSING) ~= 0
  end
end
--- Whether a prospector moving `mode` may take edge e as the `step`-th edge of its move (seed A.1): on foot one edge
--- on land or along the river or through a ford, or two edges along the river; on horseback up to two edges on land
--- or along the river (fords included); by boat up to three edges along or across the river. Edges on the border
--- of the explored area only once the ice block is in play (seed 2.b).
function rules.may_move_along(game, mode, e, step, first_way)
  return may_move_along_way(game, mode, rules.way(game, e), step, first_way)
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

--- The modes seat s may move with this turn: foot always, horse and boat if it owns one (seed A.1), and only the
--- mode already used this turn (seed: "ne peut se déplacer que d'une seule manière lors d'un tour donné").
function rules.modes(game, s)
  local used = counter(game, CN.mode)
  local out = {}
  for m = FOOT, BY_BOAT do
    if (used == 0 or used == m) and (m == FOOT or rules.owns(game, s, m == ON_HORSE and HORSE or BOAT)) then
      out[#out + 1] = m
    end
  end
  return out
end

-- The vertex where figure f stands (game:figure gives its board, "vertex" and the vertex: docs/boards.md), nil off
-- the board.
local function vertex_of(game, f)
  local _, b, c = game:figure(f)
  if c then return c end
  return b
end

local AT = {} -- seat -> the vertex of its prospector (false off the board), read anew by each rules.destinations
local BASE_MAY_MOVE_ALONG, BASE_ROOM_AT = rules.may_move_along, rules.room_at
local BASE_WAY, BASE_EXPLORED = rules.way, rules.explored

-- The intersections a prospector at `from` reaches moving by `mode` (rules.destinations' walk, before room is
-- checked), each once, in the order found: paths of edges rules.may_move_along allows, going on from an intersection
-- only if rules.explored (or the ice block is in play).
local function walk(game, from, mode, ice)
  local out, seen = {}, { [from] = true }
  -- the vertices reached at the last step, and the way of the first edge taken to each
  local at, first_ways, n = { from }, { 0 }, 1
  local max_steps = mode == FOOT and 2 or (mode == ON_HORSE and 2 or 3)
  local fast = rules.may_move_along == BASE_MAY_MOVE_ALONG
  for step = 1, max_steps do
    local next_at, next_ways, m = {}, {}, 0
    for i = 1, n do
      local v, first = at[i], first_ways[i]
      -- on foot only a first side along the river goes on (the base rules.may_move_along lets no second side pass
      -- after another): the sides from v are not read for nothing
      local goes_on = not fast or mode ~= FOOT or step == 1 or first & ALONG ~= 0
      if goes_on and (step == 1 or ice or rules.explored(game, v)) then
        local es = VEDGES[v]
        for j = 1, #es do
          local e = es[j]
          local w = other_end(e, v)
          -- the edge's way read once for the base rule (rules.may_move_along would read it again), and not at all
          -- towards a vertex already reached (nothing more happens there)
          local way = fast and not seen[w] and rules.way(game, e)
          if fast and way and may_move_along_way(game, mode, way, step, first)
              or not fast and rules.may_move_along(game, mode, e, step, first) then
            way = step == 1 and (way or rules.way(game, e)) or first
            if not seen[w] then
              seen[w] = true
              out[#out + 1] = w
              m = m + 1
              next_at[m], next_ways[m] = w, way
            end
          end
        end
      end
    end
    at, first_ways, n = next_at, next_ways, m
  end
  return out
end

-- The walks kept across calls (a speed idiom for rules.destinations while rules.way, rules.may_move_along and
-- rules.explored are the base rules: then a walk is a function of the map, the ice counter, the start and the mode
-- alone). Kept per map under game:board_digest(B) (tiles, marks and what lies where: docs/boards.md "Digest of a
-- board"), for the last WALK_MAPS maps, each holding at most WALK_MAX walks (emptied when full): bounded whatever the
-- number of games or positions. A kept walk is shared: read it, never change it.
local WALK_MAPS, WALK_MAX = 8, 4096
local WALKS, WALKS_NEXT = {}, 1

local function kept_walk(game, from, mode, ice)
  local d = game:board_digest(B)
  local m
  for i = 1, #WALKS do
    if WALKS[i].digest == d then m = WALKS[i]; break end
  end
  if not m then
    m = { digest = d, walks = {}, n = 0 }
    WALKS[WALKS_NEXT] = m
    WALKS_NEXT = WALKS_NEXT % WALK_MAPS + 1
  end
  local key = (from * 4 + mode) * 2 + (ice and 1 or 0)
  local out = m.walks[key]
  if not out then
    if m.n >= WALK_MAX then m.walks, m.n = {}, 0 end
    out = walk(game, from, mode, ice)
    m.walks[key], m.n = out, m.n + 1
  end
  return out
end

--- The destinations of seat s's prospector moving by `mode`, as a list of vertices in increasing order (seed A.1-2):
--- paths of edges the mode allows (rules.may_move_along); a move ends at an intersection not fully explored (before
--- the ice block is in play, the move cannot go through one: rules.explored); the destination must have room
--- (rules.room_at).
function rules.destinations(game, s, mode)
  geometry(game)
  local from = rules.position(game, s)
  local ice = counter(game, CN.ice) ~= 0
  local reached
  if rules.way == BASE_WAY and rules.may_move_along == BASE_MAY_MOVE_ALONG and rules.explored == BASE_EXPLORED then
    reached = kept_walk(game, from, mode, ice)
  else
    reached = walk(game, from, mode, ice)
  end
  -- the prospectors' vertices read once (one game:figure a seat) instead of game:figures_on at each vertex reached
  for f = 1, SEATS do AT[f] = vertex_of(game, f) or false end
  local base_room = rules.room_at == BASE_ROOM_AT
  local out = {}
  for i = 1, #reached do
    local w = reached[i]
    local here = 0 -- prospectors_on(game, w)
    for f = 1, SEATS do if AT[f] == w then here = here + 1 end end
    -- room: an empty intersection always has some (the base rules.room_at is at least one)
    if here == 0 and base_room or here < rules.room_at(game, w) then out[#out + 1] = w end
  end
  return sort_short(out)
end
