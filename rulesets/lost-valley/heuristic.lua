-- Lost Valley: the greedy bot's estimate (not a rule of the seed; docs/bots.md). What a position promises a seat in
-- nuggets: its gold, its goods and equipment at a fraction of their use, and the best gold within walking distance.

local K = require("valley")
local rules = K.rules
local B, MOUNTAIN, SOURCE, HORSE, BOAT, CRATE, SIEVE = K.B, K.MOUNTAIN, K.SOURCE, K.HORSE, K.BOAT, K.CRATE, K.SIEVE
local EQUIP, GOODS, ITEM, counter, cards_of, VEDGES = K.EQUIP, K.GOODS, K.ITEM, K.counter, K.cards_of, K.VEDGES
local geometry, other_end, mark_of, lying, land_of = K.geometry, K.other_end, K.mark_of, K.lying, K.land_of
local LAND_WAY, ALONG, CROSSING, FORD_WAY, BORDER = K.LAND_WAY, K.ALONG, K.CROSSING, K.FORD_WAY, K.BORDER
local is_green, is_grey, GREEN_MEAN, GREY_MEAN = K.is_green, K.is_grey, K.GREEN_MEAN, K.GREY_MEAN
local EXPLORE_VALUE, GOOD_VALUE, EQUIP_VALUE = K.EXPLORE_VALUE, K.GOOD_VALUE, K.EQUIP_VALUE

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
