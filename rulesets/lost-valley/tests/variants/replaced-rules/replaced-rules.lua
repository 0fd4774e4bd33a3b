-- replaced-rules.lua — house rules for the tests of Lost Valley's extension points (README "For variant authors"):
-- the legal actions and the moves read a rule through their own fast path, or from a survey or a walk kept across
-- calls, only while that rule is the base one. Each variant file of this folder names in `replaced` the one rule it
-- replaces, with the house rule below; its scenarios check that the legal actions follow the replacement, and, the
-- house rule depending on what the memos do not key on (the ice counter, what the prospector to move carries), that a
-- survey or a walk kept from before is not read in its place.
local rules = ...

-- The ice block is in play (seed 2.b): these house rules say what the cold changes.
local function icy(game) return game:counter("ice") ~= 0 end
-- The prospector to move carries no food: the movement house rules say what hunger changes.
local function hungry(game) return game:counter("food", game:to_move()) == 0 end
local function landscape_is(game, f, name) return rules.landscape(game, f) == name end
local NONE = {}

local HOUSE = {}

-- The tiles around v (seed B "une tuile adjacente"): once the ice is in play, a frozen lake is out of reach.
function HOUSE.adjacent_tiles(parent)
  return function(game, v)
    if not icy(game) then return parent(game, v) end
    local out = {}
    for _, h in ipairs(parent(game, v)) do if not landscape_is(game, h, "lake") then out[#out + 1] = h end end
    return out
  end
end

-- The tokens on a tile (seed B.1-4): once the ice is in play, a tile's last token is frozen in (out of reach).
function HOUSE.tokens_on_tile(parent)
  return function(game, h, pred)
    local out = parent(game, h, pred)
    if icy(game) then out[#out] = nil end
    return out
  end
end

-- Which kind of token a tile holds (seed 2.d): once the ice is in play, a cave's animal hibernates (none to hunt).
function HOUSE.token_kind(parent)
  return function(game, h)
    if icy(game) and landscape_is(game, h, "bear cave") then return nil end
    return parent(game, h)
  end
end

-- Whether face f has water (seed B.1, B.6): once the ice is in play, its melting waters every bushes tile.
function HOUSE.has_water(parent)
  return function(game, f)
    if icy(game) and landscape_is(game, f, "bushes") then return true end
    return parent(game, f)
  end
end

-- Whether a river tile's bank is v's (seed B.1): a prospector to move who owns a boat pans the far bank too (in the
-- main phase: where a new river tile's tokens lie, while it is laid, keeps the base rule).
local BOAT
for i, name in ipairs(rules.constants.ITEMS) do if name == "boat" then BOAT = i end end
function HOUSE.same_bank(parent)
  return function(game, f, v, w)
    if game:phase_name() == "main" and rules.owns(game, game:to_move(), BOAT) then return true end
    return parent(game, f, v, w)
  end
end

-- The site rules (seed B.1-4): once the ice is in play, no panning on a lake (frozen), no mining (the veins
-- frozen), no event, no hunting.
function HOUSE.pan_sites(parent)
  return function(game, v)
    if not icy(game) then return parent(game, v) end
    local out = {}
    for _, site in ipairs(parent(game, v)) do
      if site[1] ~= "face" or not landscape_is(game, site[2], "lake") then out[#out + 1] = site end
    end
    return out
  end
end
function HOUSE.mine_sites(parent) return function(game, v) if icy(game) then return NONE end return parent(game, v) end end
function HOUSE.event_sites(parent) return function(game, v) if icy(game) then return NONE end return parent(game, v) end end
function HOUSE.hunt_sites(parent) return function(game, v) if icy(game) then return NONE end return parent(game, v) end end

-- Felling (seed B.5): once the ice is in play, the trees are frozen hard: one log less (none without an axe or a
-- sawmill).
function HOUSE.fell_count(parent)
  return function(game, s, v)
    local n = parent(game, s, v)
    if icy(game) and n > 0 then n = n - 1 end
    return n
  end
end

-- Building (seed B.6): once the ice is in play, nothing is built on the frozen ground (no fish net, sawmill, canal
-- or mine), and the refinery is closed (seed 2.c).
function HOUSE.may_build_net(parent)
  return function(game, s, v) return not icy(game) and parent(game, s, v) end
end
function HOUSE.may_build_sawmill(parent)
  return function(game, s, v) return not icy(game) and parent(game, s, v) end
end
function HOUSE.canal_edges(parent)
  return function(game, s, v) if icy(game) then return {} end return parent(game, s, v) end
end
function HOUSE.mine_tiles(parent)
  return function(game, s, v) if icy(game) then return {} end return parent(game, s, v) end
end
function HOUSE.at_refinery(parent)
  return function(game, v) return not icy(game) and parent(game, v) end
end

-- Moving (seed A.1): a prospector without food goes one side only, whichever rule says it: no second side
-- (may_move_along), no side along the river (way: a first side along the river is what lets a walker go on), no
-- intersection gone through (explored).
function HOUSE.may_move_along(parent)
  return function(game, mode, e, step, first_way)
    if step > 1 and hungry(game) then return false end
    return parent(game, mode, e, step, first_way)
  end
end
function HOUSE.way(parent)
  return function(game, e)
    local w = parent(game, e)
    if hungry(game) then w = w & ~rules.WAYS.ALONG end
    return w
  end
end
function HOUSE.explored(parent)
  return function(game, v) return not hungry(game) and parent(game, v) end
end
-- Room (seed A.1): a prospector without food may stop nowhere but at the start store.
function HOUSE.room_at(parent)
  return function(game, v)
    if hungry(game) and not rules.at_start_store(game, v) then return 0 end
    return parent(game, v)
  end
end

local which = houserules.params.replaced
if HOUSE[which] then rules[which] = HOUSE[which](rules[which]) end
return rules
