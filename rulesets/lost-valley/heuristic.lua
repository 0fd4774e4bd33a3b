-- Lost Valley: the greedy bot's estimate (not a rule of the seed; docs/bots.md). What a position promises a seat in
-- nuggets: its gold, its goods and equipment at a fraction of their use, and the best gold within walking distance.
-- Speed (docs/performance.md, "Lost Valley's heuristic"): one call reads each tile and intersection once (a survey,
-- forgotten when the call returns), and looks at the intersections nearest first, stopping where no farther one can
-- promise more; the value is the same as reading them all. While the rules below are the base ones, what the map
-- promises at each intersection and the best promise are also kept across calls under the board's digest
-- (game:board_digest: the same map gives the same numbers), for the last few maps only, and what the map promises at
-- an intersection (and whether a seat can get food or fell a tree there) also under what the board shows around it
-- (game:vertex_digest), across maps.

local K = require("valley")
local rules = K.rules
local B, MOUNTAIN, SOURCE, LAKE, BUSHES, RIVER = K.B, K.MOUNTAIN, K.SOURCE, K.LAKE, K.BUSHES, K.RIVER
local HORSE, BOAT, CRATE, SIEVE, ROD, AXE, CART = K.HORSE, K.BOAT, K.CRATE, K.SIEVE, K.ROD, K.AXE, K.CART
local EQUIP, GOODS, ITEM, counter, cards_of, VEDGES, VFACES = K.EQUIP, K.GOODS, K.ITEM, K.counter, K.cards_of, K.VEDGES, K.VFACES
local FVERTS, FEDGES, EV1, EV2, IS_RIVER_TILE = K.FVERTS, K.FEDGES, K.EV1, K.EV2, K.IS_RIVER_TILE
local geometry, other_end, mark_of, lying, land_of, tile_at = K.geometry, K.other_end, K.mark_of, K.lying, K.land_of, K.tile_at
local tile_faces = K.tile_faces
local LAND_WAY, ALONG, CROSSING, FORD_WAY, BORDER = K.LAND_WAY, K.ALONG, K.CROSSING, K.FORD_WAY, K.BORDER
local GREEN_MEAN, GREY_MEAN = K.GREEN_MEAN, K.GREY_MEAN
local EXPLORE_VALUE, GOOD_VALUE, EQUIP_VALUE = K.EXPLORE_VALUE, K.GOOD_VALUE, K.EQUIP_VALUE
local max, min = math.max, math.min -- read once (math is a read-only proxy once the rules are loaded)

--- A survey of the map for one heuristic call: what each tile holds for the bots (`survey:tile(h)`), the tiles around
--- an intersection (`survey:around(v)`), whether an intersection is explored (`survey:explored(v)`), each read from
--- the game once and kept for the call only (the state does not change during it). A speed idiom: the values are those
--- of rules.adjacent_tiles, rules.tokens_on_tile, rules.has_water and rules.explored.
local Survey = {}
Survey.__index = Survey
-- The base rules the speed idioms below stand for (movement.lua, setup.lua: loaded before this file); a variant that
-- replaces one of them takes the plain path.
local BASE_WAY, BASE_EXPLORED, BASE_OWNS, BASE_COUNT_ITEM = rules.way, rules.explored, rules.owns, rules.count_item
local BASE_SAME_BANK, BASE_HAS_WATER = rules.same_bank, rules.has_water -- exploration.lua, movement.lua
local COUNTED = {} -- game:lying's and game:cards' `into` (only read up to the count they return)
local HELD = {} -- the seat's equipment (game:cards' `into`, read up to its count), read once a heuristic call
local BASE_NUGGETS, BASE_BACKPACK = rules.nuggets, rules.backpack -- setup.lua
local P, GOLD, NUGGETS, CN = K.P, K.GOLD, K.NUGGETS, K.CN -- (CN: the counters by name, read by number)

-- What the surveys read per face and per vertex, in arrays filled once (one slot a site: no table grows a call):
-- an entry is the survey's while its `read` slot holds that survey's number (a new survey's number makes every
-- entry stale; a survey used after a newer one reads again what the newer one overwrote).
local SURVEYS = 0
local FACE_TILE, FACE_READ, AROUND, AROUND_READ, EXPLORED, EXPLORED_READ = {}, {}, {}, {}, {}, {}

--- A new survey of `game` (nothing read yet).
function rules.survey(game)
  geometry(game)
  if #FACE_READ == 0 then
    for f = 1, K.GEO.NF do FACE_TILE[f], FACE_READ[f] = false, 0 end
    for v = 1, K.GEO.NV do AROUND[v], AROUND_READ[v], EXPLORED[v], EXPLORED_READ[v] = false, 0, false, 0 end
  end
  SURVEYS = SURVEYS + 1
  return setmetatable({ game = game, number = SURVEYS, head_of_tile = {}, faces_of_head = {}, tiles = {} }, Survey)
end

--- The tile (component) covering face f, or false where no tile lies.
function Survey:tile_on(f)
  if FACE_READ[f] == self.number then return FACE_TILE[f] end
  local t = tile_at(self.game, B, f) or false
  FACE_TILE[f], FACE_READ[f] = t, self.number
  return t
end

--- The head (canonical face: tile_head) of the tile covering face f, or false where no tile lies; the tile's faces
--- are kept for Survey:tile.
function Survey:head(f)
  local c = self:tile_on(f)
  if not c then return false end
  local h = self.head_of_tile[c]
  if not h then
    local faces, n = tile_faces(self.game, f)
    h = faces[1]
    for i = 2, n do if faces[i] < h then h = faces[i] end end
    self.head_of_tile[c], self.faces_of_head[h] = h, faces
  end
  return h
end

--- The heads of the tiles around vertex v, each once (rules.adjacent_tiles, in no particular order).
function Survey:around(v)
  if AROUND_READ[v] == self.number then return AROUND[v] end
  local out = {}
  local fs = VFACES[v]
  for i = 1, #fs do
    local h = self:head(fs[i])
    if h then
      local seen = false
      for j = 1, #out do if out[j] == h then seen = true end end
      if not seen then out[#out + 1] = h end
    end
  end
  AROUND[v], AROUND_READ[v] = out, self.number
  return out
end

--- The banks of a river tile, for Survey:same_bank: each corner of the tile (the faces `faces`) -> the lowest corner
--- joined to it by the tile's sides and inner edges that the river does not cross (rules.same_bank's paths, read in
--- one pass over the tile's edges instead of a walk per question).
local function bank_sides(game, faces)
  local side, open, n = {}, {}, 0
  for i = 1, #faces do
    local g = faces[i]
    local xs, es = FVERTS[g], FEDGES[g]
    for j = 1, #xs do side[xs[j]] = xs[j] end
    for j = 1, #es do
      if mark_of(game, B, "river", es[j]) == 0 then n = n + 1; open[n] = es[j] end
    end
  end
  local changed = true
  while changed do -- a corner takes the lowest label of a corner it is joined to, until none changes
    changed = false
    for i = 1, n do
      local a, b = EV1[open[i]], EV2[open[i]]
      local x, y = side[a], side[b]
      if x < y then side[b] = x; changed = true elseif y < x then side[a] = y; changed = true end
    end
  end
  return side
end

--- What the tile whose head is h holds for the bots: its landscape `land`, its tokens `count` (all faces), `pan` (a
--- lake or a watered bushes tile: its tokens are panned from any corner), `banks` (a river tile: the faces holding a
--- bank's tokens, each {face, tokens, corner vertex of that bank}; `side`, its corners by bank, while rules.same_bank is the
--- base rule), `mine` (a mine is built on it).
function Survey:tile(h)
  local t = self.tiles[h]
  if t then return t end
  local game = self.game
  local l = land_of(game, h)
  local faces = self.faces_of_head[h] or tile_faces(game, h)
  local count = 0
  for i = 1, #faces do
    local _, n = lying(game, B, "face", faces[i], COUNTED)
    count = count + n
  end
  t = { land = l, count = count, mine = false, pan = false }
  if l == LAKE or (l == BUSHES and rules.has_water(game, h)) then
    t.pan = true
  elseif l == RIVER and IS_RIVER_TILE[tile_at(game, B, h)] then
    t.banks = {}
    for i = 1, #faces do
      local g = faces[i]
      local corner = mark_of(game, B, "bank", g)
      local n = corner ~= 0 and select(2, lying(game, B, "face", g, COUNTED)) or 0
      if n > 0 then t.banks[#t.banks + 1] = { g, n, FVERTS[g][corner] } end
    end
    if rules.same_bank == BASE_SAME_BANK then t.side = bank_sides(game, faces) end
  elseif l == MOUNTAIN or l == SOURCE then
    t.mine = mark_of(game, B, "mine", h) ~= 0
  end
  self.tiles[h] = t
  return t
end

--- rules.explored(game, v), read once per call (the base rule from the tiles the survey read: every face around v
--- covered).
function Survey:explored(v)
  if EXPLORED_READ[v] == self.number then return EXPLORED[v] end
  local e
  if rules.explored == BASE_EXPLORED then
    e = true
    local fs = VFACES[v]
    for i = 1, #fs do
      if not self:tile_on(fs[i]) then e = false; break end
    end
  else
    e = rules.explored(self.game, v)
  end
  EXPLORED[v], EXPLORED_READ[v] = e, self.number
  return e
end

--- rules.same_bank(game, h, v, w) for the tile whose head is h (v and w corners of it), from the tile's banks as read
--- once (`side`) while rules.same_bank is the base rule.
function Survey:same_bank(h, v, w)
  local side = self:tile(h).side
  if not side then return rules.same_bank(self.game, h, v, w) end
  local x = side[v]
  return v == w or (x ~= nil and x == side[w])
end

--- What standing at vertex w promises seat s, in nuggets, before any action (docs/bots.md): the green gold it could pan
--- there (rules.pan_sites: at most one token a pan, two with a sieve) × GREEN_MEAN × pan_ready; up to two grey tokens
--- of an adjacent mountain or source × GREY_MEAN (× 0.75 without a crate; × 0.35 without a mine, 0.15 without a tool
--- to build one) × mine_ready; 1 for an intersection to explore while the ice block is not in play. `survey` (optional,
--- rules.survey) carries what the map holds between the calls of one heuristic.
function rules.promise(game, s, w, pan_ready, mine_ready, tool, sieve, crate, survey)
  survey = survey or rules.survey(game)
  local cap = sieve and 2 or 1
  local green, grey = 0, 0
  for _, h in ipairs(survey:around(w)) do
    local t = survey:tile(h)
    if t.pan then
      if t.count > 0 then green = math.max(green, math.min(t.count, cap)) end
    elseif t.banks then
      for _, bank in ipairs(t.banks) do
        if survey:same_bank(h, w, bank[3]) then green = math.max(green, math.min(bank[2], cap)) end
      end
    elseif t.land == MOUNTAIN or t.land == SOURCE then
      local n = math.min(t.count, 2)
      local mine = t.mine and 1 or (tool > 0 and 0.35 or 0.15)
      local v = n * GREY_MEAN * (crate and 1 or 0.75) * mine
      if v > grey then grey = v end
    end
  end
  local value = green * GREEN_MEAN * pan_ready
  value = math.max(value, grey * mine_ready)
  if counter(game, "ice") == 0 and not survey:explored(w) then value = math.max(value, EXPLORE_VALUE) end
  return value
end

--- The most rules.promise can give with these readinesses (two tokens panned with a sieve, two grey tokens in a mine
--- with a crate, or an intersection to explore): the heuristic stops looking farther once decay^d of it cannot beat
--- the best found. A variant that makes promise larger replaces this too (math.huge: look everywhere).
function rules.promise_bound(game, pan_ready, mine_ready, sieve, crate)
  local value = (sieve and 2 or 1) * GREEN_MEAN * pan_ready
  value = math.max(value, 2 * GREY_MEAN * (crate and 1 or 0.75) * 1 * mine_ready)
  if counter(game, "ice") == 0 then value = math.max(value, EXPLORE_VALUE) end
  return value
end

-- The kernel's walk (a speed idiom for rules.walking_distances while rules.way and rules.explored are the base
-- rules of movement.lua): game:reachable with a filter that says what rules.way and rules.explored say.
local START, COVERED2, COVERED1, OFFBOARD = K.START, K.COVERED2, K.COVERED1, K.OFFBOARD
local START_INNER = {} -- "anchor rotation" of the start tile -> its inner sides there (static geometry)

--- The inner sides of the start tile where it lies (seed MISE EN PLACE; rules.way: paths, its fords among them).
local function start_inner_sides(game)
  local board, kind, anchor, rotation = game:site_of(START)
  if board ~= B or kind ~= "tile" then return {} end
  local key = anchor * 8 + rotation
  local sides = START_INNER[key]
  if sides then return sides end
  sides = {}
  local on = {}
  local faces = game:placement_faces(B, START, K.VQ[anchor] .. "," .. K.VR[anchor] .. " r" .. rotation)
  for _, f in ipairs(faces) do on[f] = true end
  for _, f in ipairs(faces) do
    for _, e in ipairs(K.FEDGES[f]) do
      local fs = K.EFACES[e]
      if fs[1] ~= f and on[fs[1]] or fs[2] ~= f and on[fs[2]] then
        local seen = false
        for _, x in ipairs(sides) do if x == e then seen = true end end
        if not seen then sides[#sides + 1] = e end
      end
    end
  end
  START_INNER[key] = sides
  return sides
end

-- rules.way's classes (kernel edge classes, exact values): between two tiles, a tile's side on the board's rim
-- (never a border: off the board counts as explored), and the border of the explored area (once the ice block is in
-- play). Inner sides are never walked but the start tile's, listed one by one (`allow`).
local CLASSES = { [false] = { COVERED2, COVERED1 | OFFBOARD }, [true] = { COVERED2, COVERED1 | OFFBOARD, COVERED1 } }
local WALK = { [false] = { [false] = {}, [true] = {} }, [true] = { [false] = {}, [true] = {} } } -- [boat][ice]: filters
local ALLOW = {} -- the start tile's inner sides this seat may take (refilled each call)
local WALK_VS, WALK_DS = {}, {} -- game:reachable's lists, filled in place (read up to its count)

--- rules.walking_distances by the kernel (game:reachable): the sides rules.way allows `allowed` (without a boat the
--- river is crossed only at a ford: no side marked `river` but the start tile's), through explored intersections
--- only (rules.explored: every face around covered) until the ice block is in play.
local function allowed_inner_sides(game, allowed, into)
  local n = 0
  for _, e in ipairs(start_inner_sides(game)) do
    if BASE_WAY(game, e) & allowed ~= 0 then n = n + 1; into[n] = e end
  end
  for i = #into, n + 1, -1 do into[i] = nil end
  return into
end

--- (`allow`, optional: the start tile's inner sides this seat may take, as allowed_inner_sides lists them, when the
--- caller knows them for this map)
local function kernel_walk(game, v, reach, allowed, boat, ice, allow, vs_into, ds_into)
  allow = allow or allowed_inner_sides(game, allowed, ALLOW)
  local filter = WALK[boat][ice]
  filter.class_in, filter.through_covered, filter.allow = CLASSES[ice], not ice, allow
  if not boat then filter.mark, filter.mark_none = "river", 255 end
  local vs, ds, count = game:reachable(B, v, reach, filter, vs_into or WALK_VS, ds_into or WALK_DS)
  if vs_into then return vs, ds, count end -- the lists as they are (the memo's walk)
  local dist, order = { [v] = 0 }, { v }
  for i = 1, count do
    local w = vs[i]
    dist[w] = ds[i]
    order[i + 1] = w
  end
  return dist, order
end

--- The intersections seat s could walk to, with the number of sides on the way (a map vertex -> sides, at most
--- `reach` sides): the sides its prospector may take (on foot or on horseback: land, along the river, the fords; with
--- a boat also across the river, seed A.1), never through an intersection not fully explored before the ice block
--- is in play (seed 2.b), nor along the border of the explored area before then. Second result: the same
--- intersections nearest first (the walk's own order). `survey` (optional) as in rules.promise.
function rules.walking_distances(game, s, reach, survey)
  geometry(game)
  local v = rules.position(game, s)
  local ice = counter(game, "ice") ~= 0
  local allowed = LAND_WAY | ALONG | FORD_WAY
  local boat = rules.owns(game, s, BOAT)
  if boat then allowed = allowed | CROSSING end
  if rules.way == BASE_WAY and rules.explored == BASE_EXPLORED then return kernel_walk(game, v, reach, allowed, boat, ice) end
  survey = survey or rules.survey(game)
  local dist, order = { [v] = 0 }, { v }
  local first, last = 1, 1 -- the frontier: order[first..last]
  for d = 1, reach do
    for i = first, last do
      local x = order[i]
      if ice or x == v or survey:explored(x) then
        for _, e in ipairs(VEDGES[x]) do
          local w = other_end(e, x)
          if not dist[w] then
            local way = rules.way(game, e)
            if way & allowed ~= 0 and (ice or way & BORDER == 0) then
              dist[w] = d
              order[#order + 1] = w
            end
          end
        end
      end
    end
    if #order == last then break end
    first, last = last + 1, #order
  end
  return dist, order
end

--- How many sides away (in `order`, nearest first, with `dist`) the nearest intersection where seat s can get food (to
--- fish or hunt) is, and the nearest where it can fell a tree; nil where there is none within reach.
function rules.nearest_supplies(game, s, dist, order, need_food, need_log)
  local food_at, log_at
  for _, w in ipairs(order) do
    if need_food and not food_at and (rules.fish_count(game, s, w) > 0 or #rules.hunt_sites(game, w) > 0) then
      food_at = dist[w]
    end
    if need_log and not log_at and rules.fell_count(game, s, w) > 0 then log_at = dist[w] end
    if (food_at or not need_food) and (log_at or not need_log) then break end
  end
  return food_at, log_at
end

-- ---- kept across calls (a speed idiom for rules.promise, rules.walking_distances, rules.nearest_supplies and the best
-- promise) ----------------------------------------------------------------------------------------------------------
-- While the rules below are the base ones, what the heuristic reads of the map is a function of the map alone, and of
-- the ice counter, the prospector's intersection and the seat's boat, horse, tool, sieve, crate, rod and axe and
-- whether it has food and a log, which the keys hold. A memo is kept per map, under game:board_digest(B) (the tiles,
-- marks and what lies where, without the identity of a token some seat cannot see: the heuristic only counts them,
-- and determinized samples that differ in face-down tokens share their memo), for the last MEMO_MAPS maps, each
-- holding at most MEMO_BESTS bests of each key (emptied when full): bounded whatever the number of games or
-- positions. The walks are not kept (a map seldom sees the same walk twice): game:reachable's lists are read as they
-- are.
local BASE_PROMISE, BASE_PROMISE_BOUND, BASE_SURVEY = rules.promise, rules.promise_bound, rules.survey
local BASE_WALKING, BASE_SUPPLIES = rules.walking_distances, rules.nearest_supplies
-- what rules.nearest_supplies asks (actions.lua, loaded before this file): while these are the base rules, the nearest
-- food and log are a function of the map, the walk and the seat's fishing rod and axe (rules.owns), which the raw key
-- below holds
local BASE_FISH_COUNT, BASE_FELL_COUNT, BASE_HUNT_SITES = rules.fish_count, rules.fell_count, rules.hunt_sites
local BASE_ADJACENT_TILES, BASE_TOKEN_KIND, BASE_TOKENS_ON_TILE = rules.adjacent_tiles, rules.token_kind, rules.tokens_on_tile
local MEMO_MAPS, MEMO_BESTS = 8, 512
local MEMOS, MEMO_NEXT, MEMO_NUMBER = {}, 1, 0

--- Whether every rule the memo stands for is the base rule (a variant that replaces one takes the plain path).
local function memo_ok()
  return rules.promise == BASE_PROMISE and rules.promise_bound == BASE_PROMISE_BOUND and rules.survey == BASE_SURVEY
    and rules.same_bank == BASE_SAME_BANK and rules.has_water == BASE_HAS_WATER and rules.explored == BASE_EXPLORED
    and rules.way == BASE_WAY and rules.walking_distances == BASE_WALKING and rules.nearest_supplies == BASE_SUPPLIES
    and rules.fish_count == BASE_FISH_COUNT and rules.fell_count == BASE_FELL_COUNT and rules.hunt_sites == BASE_HUNT_SITES
    and rules.adjacent_tiles == BASE_ADJACENT_TILES and rules.token_kind == BASE_TOKEN_KIND
    and rules.tokens_on_tile == BASE_TOKENS_ON_TILE and rules.owns == BASE_OWNS and rules.count_item == BASE_COUNT_ITEM
end

--- The memo of the map `game` shows (a new one, replacing the oldest, for a map not among the last MEMO_MAPS): per
--- intersection w, once `read[w] == number`: terms[w], what the map holds at w (the entry kept under w's vertex
--- digest, read_terms); allow[boat] (the start tile's inner sides a seat with or without a boat may take);
--- best[key] and raw[key] (rules.heuristic's best promise, keys below).
local function memo_of(game)
  local d = game:board_digest(B)
  for i = 1, #MEMOS do
    local m = MEMOS[i]
    if m.digest == d then return m end
  end
  MEMO_NUMBER = MEMO_NUMBER + 1
  local m = MEMOS[MEMO_NEXT]
  if not m then
    m = { read = {}, terms = {}, allow = {} }
    MEMOS[MEMO_NEXT] = m
  end
  m.digest, m.number, m.best, m.nbest, m.raw, m.nraw = d, MEMO_NUMBER, {}, 0, {}, 0
  m.allow[false], m.allow[true] = false, false
  MEMO_NEXT = MEMO_NEXT % MEMO_MAPS + 1
  return m
end

-- What rules.promise reads of the map at an intersection w depends only on the tiles touching w (whole: their
-- tokens, banks, river marks, mine and water) and on which faces around w are covered: game:vertex_digest(B, w) digests
-- exactly that (and w), so the terms are also kept under it, across maps (a new map mostly differs from a known one
-- near one site: the terms of the intersections away from it are found again). So is what rules.nearest_supplies
-- asks at w (food: rules.fish_count(game, s, w) > 0 or rules.hunt_sites(game, w) not empty; a log:
-- rules.fell_count(game, s, w) > 0), which, while these are the base rules, depends only on the tiles touching w
-- (their landscapes, fish symbols and tokens), the building at w (a vertex mark, not in the digest: part of the
-- entry's slot) and the seat's rod and axe. At most TERMS_MAX entries (emptied when full): bounded whatever the
-- number of games or positions.
local TERMS, TERMS_N, TERMS_MAX = {}, 0, 16384

-- decay ^ d for the two decays rules.heuristic uses and the distances a walk of 24 sides gives (the same operation:
-- the same numbers), read instead of computed in the memo's loop
local POWERS = { [0.85] = {}, [0.92] = {} }
for decay, pow in pairs(POWERS) do for d = 0, 24 do pow[d] = decay ^ d end end

--- What the map holds at w for rules.promise (its own expressions, for each sieve, crate and tool): the entry
--- { g1, g2, grey[0..3], explored, supplies } kept under w's vertex digest (g1 and g2 the green tokens it could pan
--- there, one a pan or two with a sieve; grey[k] its grey term for k = (crate and 2 or 0) + (tool > 0 and 1 or 0);
--- explored; supplies: what supply_at found there), read from the survey when new (then kept), and noted in memo m
--- for w. Second result: the survey (read once a call, when an entry is new).
local function read_terms(m, game, survey, w)
  local d = game:vertex_digest(B, w)
  local t = TERMS[d]
  if not t then
    survey = survey or rules.survey(game)
    local g1, g2, grey0, grey1, grey2, grey3 = 0, 0, 0, 0, 0, 0
    local around = survey:around(w)
    for i = 1, #around do
      local h = around[i]
      local tile = survey:tile(h)
      if tile.pan then
        if tile.count > 0 then g1, g2 = max(g1, min(tile.count, 1)), max(g2, min(tile.count, 2)) end
      elseif tile.banks then
        local banks = tile.banks
        for j = 1, #banks do
          local bank = banks[j]
          if survey:same_bank(h, w, bank[3]) then g1, g2 = max(g1, min(bank[2], 1)), max(g2, min(bank[2], 2)) end
        end
      elseif tile.land == MOUNTAIN or tile.land == SOURCE then
        local n = min(tile.count, 2)
        local v0 = n * GREY_MEAN * 0.75 * (tile.mine and 1 or 0.15)
        local v1 = n * GREY_MEAN * 0.75 * (tile.mine and 1 or 0.35)
        local v2 = n * GREY_MEAN * 1 * (tile.mine and 1 or 0.15)
        local v3 = n * GREY_MEAN * 1 * (tile.mine and 1 or 0.35)
        if v0 > grey0 then grey0 = v0 end
        if v1 > grey1 then grey1 = v1 end
        if v2 > grey2 then grey2 = v2 end
        if v3 > grey3 then grey3 = v3 end
      end
    end
    if TERMS_N >= TERMS_MAX then TERMS, TERMS_N = {}, 0 end
    t = { g1, g2, grey0, grey1, grey2, grey3, survey:explored(w), {} }
    TERMS[d], TERMS_N = t, TERMS_N + 1
  end
  m.terms[w], m.read[w] = t, m.number
  return t, survey
end

--- Whether seat s (holding the rod `rod` and the axe `axe`, as rules.owns says) can get food at w (need_log false) or
--- fell a tree there (need_log true), as rules.nearest_supplies asks it: from w's entry (read_terms), per building
--- at w, rod, axe and question, asked of the rules the first time.
local function supply_at(m, game, survey, s, w, rod, axe, need_log)
  local t
  if m.read[w] == m.number then t = m.terms[w] else t, survey = read_terms(m, game, survey, w) end
  local e = t[8]
  local slot = mark_of(game, B, "building", w) * 8 + (rod and 4 or 0) + (axe and 2 or 0) + (need_log and 1 or 0) + 1
  local here = e[slot]
  if here == nil then
    if need_log then here = rules.fell_count(game, s, w) > 0
    else here = rules.fish_count(game, s, w) > 0 or #rules.hunt_sites(game, w) > 0 end
    e[slot] = here
  end
  return here, survey
end

--- rules.nearest_supplies(game, s, dist, order, need_food, need_log) by supply_at (the same loop, over the walk from v
--- as memo_walk gives it: v at 0 sides, then vs[i] at ds[i]). Third result: the survey.
local function memo_supplies(m, game, survey, s, v, vs, ds, count, need_food, need_log, rod, axe)
  local food_at, log_at
  for i = 0, count do
    local w, d = v, 0
    if i > 0 then w, d = vs[i], ds[i] end
    if need_food and not food_at then
      local here
      here, survey = supply_at(m, game, survey, s, w, rod, axe, false)
      if here then food_at = d end
    end
    if need_log and not log_at then
      local here
      here, survey = supply_at(m, game, survey, s, w, rod, axe, true)
      if here then log_at = d end
    end
    if (food_at or not need_food) and (log_at or not need_log) then break end
  end
  return food_at, log_at, survey
end

--- rules.walking_distances(game, s, 24) for a prospector at v (boat: the seat owns one; ice: the ice block is in
--- play) as game:reachable's lists: the intersections vs[1..count] (v itself, at 0 sides, not among them) and their
--- distances ds[1..count], nearest first, in lists reused by every call (read them before the next walk). The start
--- tile's inner sides the seat may take are kept per map (its tile and marks).
local MEMO_VS, MEMO_DS = {}, {}
local function memo_walk(m, game, v, boat, ice)
  local allowed = LAND_WAY | ALONG | FORD_WAY
  if boat then allowed = allowed | CROSSING end
  local allow = m.allow[boat]
  if not allow then
    allow = allowed_inner_sides(game, allowed, {})
    m.allow[boat] = allow
  end
  return kernel_walk(game, v, 24, allowed, boat, ice, allow, MEMO_VS, MEMO_DS)
end

--- The best promise of memo m for a prospector at v (memo_best, its raw key missed): the walk from v, the nearest food
--- and log (rules.nearest_supplies), then the best promise under its key (v, nearest food and log, boat, ice, horse,
--- tool, sieve, crate), or found nearest first from the memo's terms.
local function memo_best_of(m, game, seat, v, ice, food, log, tool, sieve, crate, horse, boat, rod, axe, decay)
  local vs, ds, count, survey
  local food_at, log_at = 0, 0
  if food == 0 or log == 0 then
    vs, ds, count = memo_walk(m, game, v, boat, ice)
    food_at, log_at, survey = memo_supplies(m, game, survey, seat, v, vs, ds, count, food == 0, log == 0, rod, axe)
    if food > 0 then food_at = 0 end
    if log > 0 then log_at = 0 end
  end
  local key = ((((v * 32 + (food_at or 31)) * 32 + (log_at or 31)) * 2 + (boat and 1 or 0)) * 2 + (ice and 1 or 0)) * 16
    + (horse and 8 or 0) + (tool > 0 and 4 or 0) + (sieve and 2 or 0) + (crate and 1 or 0)
  local best = m.best[key]
  if best then return best end
  if not vs then vs, ds, count = memo_walk(m, game, v, boat, ice) end
  local pow = POWERS[decay]
  local pan_ready = food_at and (food_at == 0 and 1 or 0.85 * pow[food_at]) or 0.3
  local mine_ready, log_ready = pan_ready, log_at and (log_at == 0 and 1 or 0.85 * pow[log_at]) or 0.3
  if log_ready < mine_ready then mine_ready = log_ready end -- math.min's answer (its first operand on a tie)
  -- rules.promise_bound's expressions (the base rule while the memo is used), with the ice counter read above; each
  -- math.max written out as the comparison it makes (the first operand kept on a tie: the same number)
  local bound = (sieve and 2 or 1) * GREEN_MEAN * pan_ready
  local grey_bound = 2 * GREY_MEAN * (crate and 1 or 0.75) * 1 * mine_ready
  if grey_bound > bound then bound = grey_bound end
  if not ice and EXPLORE_VALUE > bound then bound = EXPLORE_VALUE end
  local g, k = sieve and 2 or 1, 3 + (crate and 2 or 0) + (tool > 0 and 1 or 0)
  local read, terms, number = m.read, m.terms, m.number
  best = 0
  for i = 0, count do -- nearest first (v, then the walk's list), stopping as the heuristic does
    local w, dd = v, pow[0]
    if i > 0 then w, dd = vs[i], pow[ds[i]] end
    if dd * bound <= best then break end
    local t
    if read[w] == number then t = terms[w] else t, survey = read_terms(m, game, survey, w) end
    local value, grey = t[g] * GREEN_MEAN * pan_ready, t[k] * mine_ready
    if grey > value then value = grey end
    if not ice and not t[7] and EXPLORE_VALUE > value then value = EXPLORE_VALUE end
    local p = dd * value
    if p > best then best = p end
  end
  if m.nbest >= MEMO_BESTS then m.best, m.nbest = {}, 0 end
  m.best[key], m.nbest = best, m.nbest + 1
  return best
end

--- rules.heuristic's best promise (0.6 of it counts) by the memo: the same walk, readinesses, bound and terms, each
--- promise from the memo's terms by rules.promise's expressions; remembered per prospector's intersection, boat,
--- ice, horse, nearest food and log, tool, sieve and crate, and also under the raw inputs (`raw`: the nearest food
--- and log replaced by what they are found from: food == 0 and the rod, log == 0 and the axe), which a call looks up
--- first: a hit skips the walk and rules.nearest_supplies. The seat's boat, rod and axe as rules.owns says them.
local function memo_best(game, seat, food, log, tool, sieve, crate, horse, boat, rod, axe, decay)
  local m = memo_of(game)
  local v = rules.position(game, seat)
  local ice = counter(game, CN.ice) ~= 0
  local need_food, need_log = food == 0, log == 0
  local raw = v * 1024 + (ice and 512 or 0) + (boat and 256 or 0) + (need_food and 128 or 0) + (need_log and 64 or 0)
    + (need_food and rod and 32 or 0) + (need_log and axe and 16 or 0)
    + (horse and 8 or 0) + (tool > 0 and 4 or 0) + (sieve and 2 or 0) + (crate and 1 or 0)
  local best = m.raw[raw]
  if best then return best end
  best = memo_best_of(m, game, seat, v, ice, food, log, tool, sieve, crate, horse, boat, rod, axe, decay)
  if m.nraw >= MEMO_BESTS then m.raw, m.nraw = {}, 0 end
  m.raw[raw], m.nraw = best, m.nraw + 1
  return best
end

--- heuristic(game, seat): for the greedy bot, an estimate of the seat's final nuggets: the gold bag (less what a
--- basket owes), base goods (each one worth less than the one before, GOOD_VALUE; what overflows the backpack counts
--- against it) and equipment at a fraction of their use, and 0.6 of the best promise (rules.promise) among the
--- intersections the prospector can walk to within 24 sides (rules.walking_distances), 0.85 of it per side of walking
--- (0.92 on horseback).
function rules.heuristic(game, seat)
  geometry(game)
  local h
  if rules.nuggets == BASE_NUGGETS then -- the gold bag counted into a reused list (rules.nuggets' sum, in its order)
    h = 0
    local _, n = cards_of(game, GOLD[seat], COUNTED)
    for i = 1, n do h = h + NUGGETS[COUNTED[i]] end
  else
    h = rules.nuggets(game, seat)
  end
  if game:over() then return h end
  if game:to_move() == seat then h = h - counter(game, CN.basket) end
  local food, log, tool = counter(game, CN.food, seat), counter(game, CN.log, seat), counter(game, CN.tool, seat)
  -- tools are scarce (three each at the start, seed "INVENTAIRE") and build mines: worth more than the food or the
  -- log an event could be paid with instead; a third food waits long for its use while others take the gold
  h = h + GOOD_VALUE.food[food < 4 and food or 4] + GOOD_VALUE.log[log < 3 and log or 3] + GOOD_VALUE.tool[tool < 3 and tool or 3]
  -- the equipment read once (a speed idiom: rules.owns reads the zone again for each item asked; the cart is for
  -- rules.backpack, the boat, the rod and the axe for the memo's key)
  local fast = rules.owns == BASE_OWNS and rules.count_item == BASE_COUNT_ITEM
  local sieve, crate, horse, boat, rod, axe, cart, ne
  if fast then
    sieve, crate, horse, boat, rod, axe, cart = false, false, false, false, false, false, false
    local _, n = cards_of(game, EQUIP[seat], HELD)
    ne = n
    for i = 1, ne do
      local item = ITEM[HELD[i]]
      if item == SIEVE then sieve = true elseif item == CRATE then crate = true elseif item == HORSE then horse = true
      elseif item == BOAT then boat = true elseif item == ROD then rod = true elseif item == AXE then axe = true
      elseif item == CART then cart = true end
    end
  end
  -- what does not fit is discarded at the end of the turn (seed "INVENTAIRE"): gathering into a full backpack
  -- gains nothing and costs the action
  local used, room
  if fast and rules.backpack == BASE_BACKPACK then -- rules.backpack's sums, the cart from the equipment read above
    used, room = P.log_slots * log + food + tool, P.backpack + (cart and P.cart_slots or 0)
  else
    used, room = rules.backpack(game, seat)
  end
  if used > room then h = h - 0.45 * (used - room) end
  if fast then
    for i = 1, ne do h = h + (EQUIP_VALUE[ITEM[HELD[i]]] or 0.5) end
    local _, n = cards_of(game, GOODS[seat], COUNTED)
    for i = 1, n do h = h + (EQUIP_VALUE[ITEM[COUNTED[i]]] or 0.5) end
  else
    for _, z in ipairs({ EQUIP[seat], GOODS[seat] }) do
      for _, c in ipairs(cards_of(game, z)) do h = h + (EQUIP_VALUE[ITEM[c]] or 0.5) end
    end
    sieve, crate, horse = rules.owns(game, seat, SIEVE), rules.owns(game, seat, CRATE), rules.owns(game, seat, HORSE)
  end
  local decay = horse and 0.92 or 0.85
  if memo_ok() then return h + 0.6 * memo_best(game, seat, food, log, tool, sieve, crate, horse, boat, rod, axe, decay) end
  local survey = rules.survey(game)
  local dist, order = rules.walking_distances(game, seat, 24, survey)
  -- panning costs a food, mining a food and a log (seed B.1): without them, gold is as far as the nearest place to
  -- fish or hunt, or to fell a tree (0.3 when there is none within reach)
  local food_at, log_at = rules.nearest_supplies(game, seat, dist, order, food == 0, log == 0)
  if food > 0 then food_at = 0 end
  if log > 0 then log_at = 0 end
  local pan_ready = food_at and (food_at == 0 and 1 or 0.85 * decay ^ food_at) or 0.3
  local mine_ready = math.min(pan_ready, log_at and (log_at == 0 and 1 or 0.85 * decay ^ log_at) or 0.3)
  local bound = rules.promise_bound(game, pan_ready, mine_ready, sieve, crate)
  local best = 0
  for i = 1, #order do -- nearest first: past the distance where even the bound cannot beat best, stop
    local w = order[i]
    local d = dist[w]
    if decay ^ d * bound <= best then break end
    local p = decay ^ d * rules.promise(game, seat, w, pan_ready, mine_ready, tool, sieve, crate, survey)
    if p > best then best = p end
  end
  return h + 0.6 * best
end
