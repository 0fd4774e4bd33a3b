-- Lost Valley, chapters MISE EN PLACE and INVENTAIRE DU PROSPECTEUR (seed 004): the start tile in a corner, the piles
-- shuffled face down, the round tokens mixed face down, the supply; each prospector's inventory (a backpack of 6
-- slots, a log taking 2; a cart adds 4; six equipment slots; the gold bag) and the start inventory: "3 outils, 1
-- paquet de nourriture, 1 tronc d'arbre et 2 flasques de whisky".

local K = require("valley")
local rules = K.rules
local CN, BASE_CN = K.CN, K.BASE_CN
local P, SEATS, B, RIVER, START, LAND_TILES = K.P, K.SEATS, K.B, K.RIVER, K.START, K.LAND_TILES
local RIVER_TILES, SOURCE_TILE, TRIANGLE_TILES = K.RIVER_TILES, K.SOURCE_TILE, K.TRIANGLE_TILES
local GREEN_TOKENS, GREY_TOKENS, ANIMAL_TOKENS = K.GREEN_TOKENS, K.GREY_TOKENS, K.ANIMAL_TOKENS
local EVENT_TOKENS, CART, WHISKY, IS_GOOD, item_slots = K.EVENT_TOKENS, K.CART, K.WHISKY, K.IS_GOOD, K.item_slots
local SUPPLY_ITEMS, PILE_RIVER, PILE_LAND, PILE_TRIANGLE = K.SUPPLY_ITEMS, K.PILE_RIVER, K.PILE_LAND, K.PILE_TRIANGLE
local ASIDE, POOL_GREEN, POOL_GREY, POOL_ANIMAL = K.ASIDE, K.POOL_GREEN, K.POOL_GREY, K.POOL_ANIMAL
local POOL_EVENT, SHOP, EQUIP, GOODS, GOLD, BASE = K.POOL_EVENT, K.SHOP, K.EQUIP, K.GOODS, K.GOLD, K.BASE
local ITEM, NUGGETS, counter, set_counter, cards_of = K.ITEM, K.NUGGETS, K.counter, K.set_counter, K.cards_of
local move, vid, geometry, edge_between, face_of = K.move, K.vid, K.geometry, K.edge_between, K.face_of
local across, land_of, tile_faces, take_base, take_item = K.across, K.land_of, K.tile_faces, K.take_base, K.take_item
local FIRST = K.FIRST

local HELD = {} -- a reused list for game:cards (read up to the count it returns)
local BASE_COUNT_ITEM

--- Whether seat s holds an item of kind i (equipment or goods).
function rules.owns(game, s, i)
  if rules.count_item ~= BASE_COUNT_ITEM then return rules.count_item(game, s, i) > 0 end
  -- the base count, stopped at the first item of kind i
  local cs, m = cards_of(game, IS_GOOD[i] and GOODS[s] or EQUIP[s], HELD)
  for j = 1, m do if ITEM[cs[j]] == i then return true end end
  return false
end

--- How many items of kind i seat s holds (equipment or goods).
function rules.count_item(game, s, i)
  local n = 0
  local cs, m = cards_of(game, IS_GOOD[i] and GOODS[s] or EQUIP[s], HELD)
  for j = 1, m do if ITEM[cs[j]] == i then n = n + 1 end end
  return n
end
BASE_COUNT_ITEM = rules.count_item

--- Backpack slots used and available (seed "INVENTAIRE": 6 slots, a log 2, food or a tool 1; a cart adds 4).
function rules.backpack(game, s)
  local used = P.log_slots * counter(game, CN.log, s) + counter(game, CN.food, s) + counter(game, CN.tool, s)
  local room = P.backpack + (rules.owns(game, s, CART) and P.cart_slots or 0)
  return used, room
end

--- Equipment slots used and available (seed: six slots; horse and boat two, every other item one; digest: the cart
--- takes none).
function rules.equipment(game, s)
  local used = 0
  for z = 1, 2 do
    local cs, m = cards_of(game, z == 1 and EQUIP[s] or GOODS[s], HELD)
    for j = 1, m do used = used + item_slots(ITEM[cs[j]]) end
  end
  return used, P.equipment_slots
end

local BASE_BACKPACK, BASE_EQUIPMENT, BASE_OWNS = rules.backpack, rules.equipment, rules.owns
local CART_ZONE_IS_GOODS = IS_GOOD[CART] or false

--- Whether seat s holds more than its inventory carries (then it discards at the end of its turn, seed "INVENTAIRE").
function rules.overflows(game, s)
  if rules.backpack == BASE_BACKPACK and rules.equipment == BASE_EQUIPMENT and rules.owns == BASE_OWNS
     and rules.count_item == BASE_COUNT_ITEM then
    -- the base rules' sums with each zone read once: the equipment's slots and the cart (rules.owns) in one pass
    local used, cart = 0, false
    for z = 1, 2 do
      local goods = z == 2
      local cs, m = cards_of(game, goods and GOODS[s] or EQUIP[s], HELD)
      local cart_zone = goods == CART_ZONE_IS_GOODS
      for j = 1, m do
        local i = ITEM[cs[j]]
        used = used + item_slots(i)
        if cart_zone and i == CART then cart = true end
      end
    end
    local pack = P.log_slots * counter(game, CN.log, s) + counter(game, CN.food, s) + counter(game, CN.tool, s)
    return pack > P.backpack + (cart and P.cart_slots or 0), used > P.equipment_slots
  end
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
  set_counter(game, CN.end_edge, 0, open)
  set_counter(game, CN.end_face, 0, across(open, face_of(vid(1, 0), vid(2, 0), vid(1, 1))))
  set_counter(game, CN.course, 0, 1)
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
