-- Lost Valley, chapter B "effectuer une action", 1-6 (seed 004): "Un prospecteur ne peut effectuer qu'une seule action
-- durant son tour": 1. chercher de l'or (pan, mine), 2. déclencher un événement, 3. attraper du poisson, 4. chasser
-- un animal, 5. abattre un arbre, 6. construire (fish net, sawmill, canal, mine). Buying (7) is in store.lua.

local K = require("valley")
local rules = K.rules
-- the kernel's methods bound to locals (docs: houserules.game): no method look-up on the game at each call
local set_mark, set_phase = K.G.set_mark, K.G.set_phase
local G = K.G
local CN, BASE_CN = K.CN, K.BASE_CN
local P, B, FOREST, MOUNTAIN, BUSHES, LAKE, RIVER = K.P, K.B, K.FOREST, K.MOUNTAIN, K.BUSHES, K.LAKE, K.RIVER
local SOURCE, REFINERY, CAVE, MEADOW, FISH, COVERED2 = K.SOURCE, K.REFINERY, K.CAVE, K.MEADOW, K.FISH, K.COVERED2
local CRATE, SIEVE, AXE, ROD, RIFLE, WHISKY, STICK = K.CRATE, K.SIEVE, K.AXE, K.ROD, K.RIFLE, K.WHISKY, K.STICK
local IS_GOOD, POOL_ANIMAL, SHOP, KILLED, EQUIP, GOODS = K.IS_GOOD, K.POOL_ANIMAL, K.SHOP, K.KILLED, K.EQUIP, K.GOODS
local GOLD, LOOK, BASE, KEEP, ITEM, NUGGETS, FOOD_OF = K.GOLD, K.LOOK, K.BASE, K.KEEP, K.ITEM, K.NUGGETS, K.FOOD_OF
local IS_ANIMAL_FOREST, IS_RIVER_TILE, counter = K.IS_ANIMAL_FOREST, K.IS_RIVER_TILE, K.counter
local set_counter, add_counter, move, VEDGES, VFACES = K.set_counter, K.add_counter, K.move, K.VEDGES, K.VFACES
local EFACES, FVERTS, tile_at, face_feature, edge_class = K.EFACES, K.FVERTS, K.tile_at, K.face_feature, K.edge_class
local mark_of, lying, land_of, tile_faces, tile_head = K.mark_of, K.lying, K.land_of, K.tile_faces, K.tile_head
local first_item, take_base, pay_base, take_item = K.first_item, K.take_base, K.pay_base, K.take_item
local spend_item, lay_tokens, is_green, is_grey = K.spend_item, K.lay_tokens, K.is_green, K.is_grey
local is_animal, is_event, AK, act, PAIRS = K.is_animal, K.is_event, K.AK, K.act, K.PAIRS
local faces_of_tile, sort_short, feature_of = K.faces_of_tile, K.sort_short, K.feature_of
local feature_of_tile = K.feature_of_tile
local LYING = {} -- a reused list for game:lying (read up to the count it returns)

-- The tiles around vertex v, read once for the site rules below: a flat record, per tile (ascending heads) its head,
-- the tile, its rotation, its anchor and its landscape at R[5i-4 .. 5i], their number in R.n. `read_around` fills it
-- from one game:tile_at a face around v while rules.adjacent_tiles is the base rule, and returns with it the
-- landscapes around v as bits (around_mask's); `record_of` builds it from a replaced rule's list.
local FISH_BIT <const> = 1 << 20
local function read_around(game, v, R)
  local n, mask = 0, 0
  local fs = VFACES[v]
  for i = 1, #fs do
    local f = fs[i]
    local t, k, a = tile_at(game, B, f)
    if t then
      local feat = feature_of_tile(game, f, t)
      mask = mask | (1 << (feat & 15))
      if feat & FISH ~= 0 then mask = mask | FISH_BIT end
      -- the tile's head: its lowest face (a tile met again through another of its faces has the same head)
      local faces, m = faces_of_tile(game, f, t, k, a)
      local h = faces[1]
      for j = 2, m do if faces[j] < h then h = faces[j] end end
      local j = n -- insert h in order, unless listed
      while j >= 1 and R[5 * j - 4] > h do j = j - 1 end
      if j == 0 or R[5 * j - 4] ~= h then
        for x = 5 * n, 5 * j + 1, -1 do R[x + 5] = R[x] end
        local b = 5 * j
        R[b + 1], R[b + 2], R[b + 3], R[b + 4] = h, t, k, a
        R[b + 5] = h == f and feat & 15 or feature_of_tile(game, h, t) & 15
        n = n + 1
      end
    end
  end
  R.n = n
  return R, mask
end

local function record_of(game, list)
  local R = { n = #list }
  for i = 1, #list do
    local h = list[i]
    local t, k, a = tile_at(game, B, h)
    local b = 5 * i - 5
    R[b + 1], R[b + 2], R[b + 3], R[b + 4], R[b + 5] = h, t, k, a, land_of(game, h)
  end
  return R
end

--- The tiles around vertex v (their canonical faces, ascending): "une tuile adjacente".
function rules.adjacent_tiles(game, v)
  local R = read_around(game, v, { n = 0 })
  local out = {}
  for i = 1, R.n do out[i] = R[5 * i - 4] end
  return out
end

-- The record of the tiles around v (above): read once while rules.adjacent_tiles is the base rule, else from its list.
-- The record is a reused table while no other caller holds it (a rule called while it is read, or an error, takes a
-- new one): give it back with `release` once read.
local BASE_ADJACENT_TILES = rules.adjacent_tiles
local SHARED, shared_held = { n = 0 }, false
local function around_of(game, v)
  if rules.adjacent_tiles ~= BASE_ADJACENT_TILES then return record_of(game, rules.adjacent_tiles(game, v)), nil end
  if shared_held then return read_around(game, v, { n = 0 }) end
  shared_held = true
  return read_around(game, v, SHARED)
end
local function release(R)
  if R == SHARED then shared_held = false end
end

--- The tokens of `kind` ("gold" green/grey, "animal", "item" events) lying on the faces of the tile whose head is h.
function rules.tokens_on_tile(game, h, pred)
  local out = {}
  local faces, m = faces_of_tile(game, h, tile_at(game, B, h))
  for i = 1, m do
    local cs, n = lying(game, B, "face", faces[i], LYING)
    for j = 1, n do
      local c = cs[j]
      if pred(c) then out[#out + 1] = c end
    end
  end
  return out
end

--- Which kind of token the tile whose head is h holds: "green", "grey", "animal", "event" or nil.
function rules.token_kind(game, h)
  local l = land_of(game, h)
  if l == LAKE or l == BUSHES then return "green" end
  if l == MOUNTAIN or l == SOURCE then return "grey" end
  if l == CAVE then return "animal" end
  if l == MEADOW then return "event" end
  if l == FOREST then return IS_ANIMAL_FOREST[tile_at(game, B, h)] and "animal" or "event" end
end

-- rules.token_kind for the i-th tile of record R (its landscape and tile already read) while it is the base rule, as
-- far as its callers ask: whether it is "animal" or "event" (event_sites, hunt_sites); "green" and "grey" are nil here.
local BASE_TOKEN_KIND = rules.token_kind
local function token_kind_in(game, R, i)
  if rules.token_kind ~= BASE_TOKEN_KIND then return rules.token_kind(game, R[5 * i - 4]) end
  local l = R[5 * i]
  if l == CAVE then return "animal" end
  if l == MEADOW then return "event" end
  if l == FOREST then return IS_ANIMAL_FOREST[R[5 * i - 3]] and "animal" or "event" end
end

-- Whether the i-th tile of record R holds a token `pred` accepts (#rules.tokens_on_tile(game, h, pred) > 0, without
-- the list, while rules.tokens_on_tile is the base rule).
local BASE_TOKENS_ON_TILE = rules.tokens_on_tile
local function has_tokens(game, R, i, pred)
  local b = 5 * i - 4
  local h = R[b]
  if rules.tokens_on_tile ~= BASE_TOKENS_ON_TILE then return #rules.tokens_on_tile(game, h, pred) > 0 end
  local faces, m = faces_of_tile(game, h, R[b + 1], R[b + 2], R[b + 3])
  for i = 1, m do
    local cs, n = lying(game, B, "face", faces[i], LYING)
    for j = 1, n do if pred(cs[j]) then return true end end
  end
  return false
end

-- The site rules below, each over the record of the tiles around v (around_of: turn_actions reads it once for all of
-- them while they are the base rules).
local function pan_sites_around(game, v, R)
  local out = {}
  for i = 1, R.n do
    local h, l = R[5 * i - 4], R[5 * i]
    if l == LAKE or (l == BUSHES and rules.has_water(game, h)) then
      if has_tokens(game, R, i, is_green) then out[#out + 1] = { "face", h } end
    elseif l == RIVER then
      local t, k, a = R[5 * i - 3], R[5 * i - 2], R[5 * i - 1]
      if IS_RIVER_TILE[t] then
        local faces, m = faces_of_tile(game, h, t, k, a)
        for j = 1, m do
          local g = faces[j]
          local corner = mark_of(game, B, "bank", g)
          if corner ~= 0 and select(2, lying(game, B, "face", g, LYING)) > 0
              and rules.same_bank(game, h, v, FVERTS[g][corner]) then
            out[#out + 1] = { "bank", g }
          end
        end
      end
    end
  end
  return out
end

local function mine_sites_around(game, v, R)
  local out = {}
  for i = 1, R.n do
    local h, l = R[5 * i - 4], R[5 * i]
    if (l == MOUNTAIN or l == SOURCE) and mark_of(game, B, "mine", h) ~= 0 and has_tokens(game, R, i, is_grey) then
      out[#out + 1] = h
    end
  end
  return out
end

local function event_sites_around(game, v, R)
  local out = {}
  for i = 1, R.n do
    if token_kind_in(game, R, i) == "event" and has_tokens(game, R, i, is_event) then out[#out + 1] = R[5 * i - 4] end
  end
  return out
end

local function hunt_sites_around(game, v, R)
  local out = {}
  for i = 1, R.n do
    if token_kind_in(game, R, i) == "animal" and has_tokens(game, R, i, is_animal) then out[#out + 1] = R[5 * i - 4] end
  end
  return out
end

--- Where seat s at v may pan river gold (seed B.1): green tokens on an adjacent tile with water — a lake, a bushes
--- tile watered by a canal, or a river tile, on the same bank as the prospector (the tokens of one bank of a river
--- tile lie on the face whose `bank` mark names a corner of that bank). Returns sites: {"face", tile head} or
--- {"bank", face}.
function rules.pan_sites(game, v)
  local R = around_of(game, v)
  local out = pan_sites_around(game, v, R)
  release(R)
  return out
end

--- Where seat s at v may mine (seed B.1): grey tokens on an adjacent mountain or source tile that has a mine.
function rules.mine_sites(game, v)
  local R = around_of(game, v)
  local out = mine_sites_around(game, v, R)
  release(R)
  return out
end

--- The tiles around v with an event (seed B.2) / an animal (seed B.4) token.
function rules.event_sites(game, v)
  local R = around_of(game, v)
  local out = event_sites_around(game, v, R)
  release(R)
  return out
end

function rules.hunt_sites(game, v)
  local R = around_of(game, v)
  local out = hunt_sites_around(game, v, R)
  release(R)
  return out
end

-- The landscapes of the faces around v as bits (1 << landscape), with FISH_BIT when one of them shows a fish symbol:
-- one read of the faces around v for the rules below, which turn_actions reads once for all of them (with the tiles
-- around v: read_around) while they are the base ones.
local WATER_BITS <const>, FOREST_BIT <const>, REFINERY_BIT <const> = (1 << RIVER) | (1 << LAKE), 1 << FOREST, 1 << REFINERY
local DRY_BITS <const> = (1 << BUSHES) | (1 << FOREST) -- the landscapes a canal waters
local function around_mask(game, v)
  local mask = 0
  local fs = VFACES[v]
  for i = 1, #fs do
    local feat = feature_of(game, fs[i])
    mask = mask | (1 << (feat & 15))
    if feat & FISH ~= 0 then mask = mask | FISH_BIT end
  end
  return mask
end

-- (`building`: the building mark at v, game:mark(B, "building", v), read once by turn_actions for the four rules)
local function fish_count_for(game, s, v, around, building)
  local n = 0
  if around & WATER_BITS ~= 0 and rules.owns(game, s, ROD) then n = n + 1 end
  if building == 1 then n = n + 1 end
  if around & FISH_BIT ~= 0 then n = n + 1 end
  return n
end

local function fell_count_for(game, s, v, around, building)
  if around & FOREST_BIT == 0 then return 0 end
  local n = 1
  if building == 2 then n = n + 1 end
  if rules.owns(game, s, AXE) then n = n + 1 end
  return n
end

local function may_build_net_for(game, s, v, around, building)
  if building ~= 0 or counter(game, CN.net) == 0 or counter(game, CN.tool, s) < 1 then return false end
  return around & WATER_BITS ~= 0
end

local function may_build_sawmill_for(game, s, v, around, building)
  if building ~= 0 or counter(game, CN.sawmill) == 0 or counter(game, CN.tool, s) < 1 then return false end
  return around & FOREST_BIT ~= 0
end

--- Fish caught by seat s at v (seed B.3, cumulative): a fishing rod by a river or lake, a fish net built at v, a tile
--- with a fish symbol next to v.
function rules.fish_count(game, s, v)
  return fish_count_for(game, s, v, around_mask(game, v), mark_of(game, B, "building", v))
end

--- Logs felled by seat s at v (seed B.5): an adjacent forest gives 1; at a sawmill or with an axe 2; both 3.
function rules.fell_count(game, s, v)
  local around = around_mask(game, v)
  return fell_count_for(game, s, v, around, around & FOREST_BIT ~= 0 and mark_of(game, B, "building", v))
end

--- What may be built at v (seed B.6): a fish net at a river or lake intersection (1 tool), a sawmill at a forest
--- intersection (1 tool), one building per intersection; a canal (1 log) on a side at v between a tile with water and
--- a dry bushes or forest tile (never a mountain); a mine (1 tool, 1 food, 1 log) on an adjacent mountain or source.
function rules.may_build_net(game, s, v)
  return may_build_net_for(game, s, v, around_mask(game, v), mark_of(game, B, "building", v))
end

function rules.may_build_sawmill(game, s, v)
  return may_build_sawmill_for(game, s, v, around_mask(game, v), mark_of(game, B, "building", v))
end

-- The sides at v where a canal may go (rules.canal_edges' test of the map, the log left out).
local function canal_sides(game, v, out)
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

function rules.canal_edges(game, s, v)
  local out = {}
  if counter(game, CN.log, s) < 1 then return out end
  return canal_sides(game, v, out)
end

-- The mountain and source tiles around v without a mine (rules.mine_tiles' test of the map, the seat's goods left out).
local function minable_around(game, v, R, out)
  for i = 1, R.n do
    local h, l = R[5 * i - 4], R[5 * i]
    if (l == MOUNTAIN or l == SOURCE) and mark_of(game, B, "mine", h) == 0 then out[#out + 1] = h end
  end
  return out
end

local function may_build_mine(game, s)
  return counter(game, CN.mine) ~= 0 and counter(game, CN.tool, s) >= 1 and counter(game, CN.food, s) >= 1
      and counter(game, CN.log, s) >= 1
end

local function mine_tiles_around(game, s, v, R)
  local out = {}
  if not may_build_mine(game, s) then return out end
  return minable_around(game, v, R, out)
end

function rules.mine_tiles(game, s, v)
  local R = around_of(game, v)
  local out = mine_tiles_around(game, s, v, R)
  release(R)
  return out
end

--- Whether vertex v is at a refinery (seed 2.c: "une raffinerie, où elle peut, pour deux denrées de base de son
--- choix, acheter une bouteille de whisky").
function rules.at_refinery(game, v)
  return around_mask(game, v) & REFINERY_BIT ~= 0
end

local function can_pay_pair(game, s, a, b)
  if a == b then return counter(game, BASE_CN[a], s) >= 2 end
  return counter(game, BASE_CN[a], s) >= 1 and counter(game, BASE_CN[b], s) >= 1
end

-- What the map offers at an intersection, kept under what the board shows around it (game:vertex_digest: the tiles
-- touching v, whole, with their face and side marks and how many tokens lie on each face; which faces around v are
-- covered): the landscapes around v (around_mask's bits), the pan, mine, event and hunt sites, the tiles where a mine
-- may be built and the sides where a canal may go, as the site rules above read them. They read nothing else of the
-- game (the tokens' kinds follow from where they lie, never from a hidden face), so the same digest gives the same
-- survey in every game and determinization (but for a 64-bit collision); turn_actions reads a survey instead of the
-- tiles while every rule the survey stands for is the base one. The memo is bounded (emptied when full).
local BASE_HAS_WATER, BASE_SAME_BANK = rules.has_water, rules.same_bank -- movement.lua, exploration.lua
local SURVEYS, NSURVEYS, MAX_SURVEYS = {}, 0, 4096
local NONE = {} -- an empty list, never written

--- Whether the surveys stand for the rules in place (each site rule they read is the base one).
local function survey_ok()
  return rules.adjacent_tiles == BASE_ADJACENT_TILES and rules.tokens_on_tile == BASE_TOKENS_ON_TILE
     and rules.token_kind == BASE_TOKEN_KIND and rules.has_water == BASE_HAS_WATER
     and rules.same_bank == BASE_SAME_BANK
end

--- The survey of vertex v (read from the map, or kept from a map that shows the same around v).
local function survey(game, v)
  local d = game:vertex_digest(B, v)
  local S = SURVEYS[d]
  if S then return S end
  local R, around = around_of(game, v)
  S = { around = around, pan = pan_sites_around(game, v, R), mine = mine_sites_around(game, v, R),
        event = event_sites_around(game, v, R), hunt = hunt_sites_around(game, v, R),
        minable = minable_around(game, v, R, {}),
        canal = around & DRY_BITS ~= 0 and canal_sides(game, v, {}) or NONE }
  release(R)
  if NSURVEYS >= MAX_SURVEYS then SURVEYS, NSURVEYS = {}, 0 end
  SURVEYS[d], NSURVEYS = S, NSURVEYS + 1
  return S
end

--- The legal actions of the one action of a turn (seed B), for seat s at v.
local BASE_PAN_SITES, BASE_MINE_SITES, BASE_EVENT_SITES = rules.pan_sites, rules.mine_sites, rules.event_sites
local BASE_HUNT_SITES, BASE_MINE_TILES = rules.hunt_sites, rules.mine_tiles
local BASE_FISH_COUNT, BASE_FELL_COUNT, BASE_AT_REFINERY = rules.fish_count, rules.fell_count, rules.at_refinery
local BASE_MAY_BUILD_NET, BASE_MAY_BUILD_SAWMILL = rules.may_build_net, rules.may_build_sawmill
local BASE_CANAL_EDGES = rules.canal_edges
function rules.turn_actions(game, s, v, out)
  -- the tiles around v (and the landscapes around it), read once for the site rules that are the base ones (each
  -- would read the same tiles)
  -- (or their survey, kept under v's digest, while the rules it stands for are the base ones)
  local S, R, around = survey_ok() and survey(game, v), nil, nil
  if S then around = S.around
  else
    R, around = around_of(game, v)
    around = around or around_mask(game, v)
  end
  local food, log = counter(game, CN.food, s), counter(game, CN.log, s)
  if food >= 1 then
    local sites = rules.pan_sites == BASE_PAN_SITES and (S and S.pan or pan_sites_around(game, v, R))
                  or rules.pan_sites(game, v)
    for _, site in ipairs(sites) do out[#out + 1] = act(AK.PAN, site[2], site[1] == "bank" and 1 or 2) end
  end
  if food >= 1 and log >= 1 then
    local sites = rules.mine_sites == BASE_MINE_SITES and (S and S.mine or mine_sites_around(game, v, R))
                  or rules.mine_sites(game, v)
    if #sites > 0 then
      local stick = not rules.owns(game, s, CRATE) and rules.owns(game, s, STICK)
      for _, h in ipairs(sites) do
        out[#out + 1] = act(AK.MINE, h, 0)
        if stick then out[#out + 1] = act(AK.MINE, h, 1) end
      end
    end
  end
  -- an event costs two base goods (a pair of PAIRS): the base rule's sites are not read when none can be paid
  local events
  if rules.event_sites ~= BASE_EVENT_SITES then events = rules.event_sites(game, v)
  elseif food + log + counter(game, CN.tool, s) >= 2 then events = S and S.event or event_sites_around(game, v, R) end
  if events and #events > 0 then
    for _, pair in ipairs(PAIRS) do
      if can_pay_pair(game, s, pair[1], pair[2]) then
        for _, h in ipairs(events) do out[#out + 1] = act(AK.EVENT, h, pair[1], pair[2]) end
      end
    end
  end
  local building = mark_of(game, B, "building", v) -- read once for the four base rules below
  local fish = rules.fish_count == BASE_FISH_COUNT and fish_count_for(game, s, v, around, building)
               or rules.fish_count(game, s, v)
  if fish > 0 and counter(game, CN.food, 0) > 0 then out[#out + 1] = act(AK.FISH) end
  for _, h in ipairs(rules.hunt_sites == BASE_HUNT_SITES and (S and S.hunt or hunt_sites_around(game, v, R))
                    or rules.hunt_sites(game, v)) do out[#out + 1] = act(AK.HUNT, h) end
  local logs = rules.fell_count == BASE_FELL_COUNT and fell_count_for(game, s, v, around, building)
               or rules.fell_count(game, s, v)
  if logs > 0 and counter(game, CN.log, 0) > 0 then out[#out + 1] = act(AK.FELL) end
  local net, sawmill
  if rules.may_build_net == BASE_MAY_BUILD_NET then net = may_build_net_for(game, s, v, around, building)
  else net = rules.may_build_net(game, s, v) end
  if net then out[#out + 1] = act(AK.NET) end
  if rules.may_build_sawmill == BASE_MAY_BUILD_SAWMILL then sawmill = may_build_sawmill_for(game, s, v, around, building)
  else sawmill = rules.may_build_sawmill(game, s, v) end
  if sawmill then out[#out + 1] = act(AK.SAWMILL) end
  -- a canal's dry side is a bushes or forest tile around v: the base rule finds none where no such tile is
  if rules.canal_edges ~= BASE_CANAL_EDGES then
    for _, e in ipairs(rules.canal_edges(game, s, v)) do out[#out + 1] = act(AK.CANAL, e) end
  elseif around & DRY_BITS ~= 0 and log >= 1 then
    for _, e in ipairs(S and S.canal or canal_sides(game, v, {})) do out[#out + 1] = act(AK.CANAL, e) end
  end
  local tiles
  if rules.mine_tiles ~= BASE_MINE_TILES then tiles = rules.mine_tiles(game, s, v)
  elseif S then tiles = may_build_mine(game, s) and S.minable or NONE
  else tiles = mine_tiles_around(game, s, v, R) end
  for _, h in ipairs(tiles) do out[#out + 1] = act(AK.BUILD_MINE, h) end
  if rules.at_store(game, v) then rules.buy_actions(game, s, out) end
  local refinery
  if rules.at_refinery == BASE_AT_REFINERY then refinery = around & REFINERY_BIT ~= 0 else refinery = rules.at_refinery(game, v) end
  if refinery and first_item(game, SHOP, WHISKY) then
    for _, pair in ipairs(PAIRS) do
      if can_pay_pair(game, s, pair[1], pair[2]) then out[#out + 1] = act(AK.REFINE, pair[1], pair[2]) end
    end
  end
  release(R)
end

--- Takes up to n tokens lying at a site into seat s's gold bag; returns how many.
local function take_tokens(game, s, tokens, n)
  local k = 0
  for i = 1, math.min(n, #tokens) do move(game, tokens[i], GOLD[s]); k = k + 1 end
  return k
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
      set_counter(game, CN.look_face, 0, game:face(B, game:face_text(B, a)))
      local _, _, fid = game:site_of(tokens[1])
      local _ = fid
      set_phase(game, KEEP)
    else
      rules.gain_event(game, s, tokens[1])
    end
  elseif kind == AK.FISH then
    take_base(game, s, "food", rules.fish_count(game, s, v))
  elseif kind == AK.HUNT then
    local animal = rules.tokens_on_tile(game, a, is_animal)[1]
    local hunter = G.random(game, P.die) + (rules.owns(game, s, RIFLE) and P.rifle_bonus or 0)
    local beast = G.random(game, P.die)
    set_counter(game, CN.hunter_roll, 0, hunter) -- public dice: the turn's summary shows them
    set_counter(game, CN.animal_roll, 0, beast)
    if hunter > beast then
      move(game, animal, KILLED)
      take_base(game, s, "food", FOOD_OF[animal])
      if land_of(game, a) == CAVE then lay_tokens(game, POOL_ANIMAL, 1, "face", a) end
    end
  elseif kind == AK.FELL then
    take_base(game, s, "log", rules.fell_count(game, s, v))
  elseif kind == AK.NET then
    pay_base(game, s, "tool", 1)
    add_counter(game, CN.net, 0, -1)
    set_mark(game, B, "building", v, 1)
  elseif kind == AK.SAWMILL then
    pay_base(game, s, "tool", 1)
    add_counter(game, CN.sawmill, 0, -1)
    set_mark(game, B, "building", v, 2)
  elseif kind == AK.CANAL then
    pay_base(game, s, "log", 1)
    set_mark(game, B, "canal", a, 1)
    for _, f in ipairs(EFACES[a]) do
      if not rules.has_water(game, f) then
        for _, g in ipairs((tile_faces(game, f))) do set_mark(game, B, "water", g, 1) end
      end
    end
  elseif kind == AK.BUILD_MINE then
    pay_base(game, s, "tool", 1); pay_base(game, s, "food", 1); pay_base(game, s, "log", 1)
    add_counter(game, CN.mine, 0, -1)
    for _, g in ipairs((tile_faces(game, a))) do set_mark(game, B, "mine", g, 1) end
  elseif kind == AK.REFINE then
    pay_base(game, s, BASE[a], 1)
    pay_base(game, s, BASE[b], 1)
    take_item(game, s, WHISKY)
  end
end
