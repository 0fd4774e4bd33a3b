-- Lost Valley, chapter UN TOUR DE JEU (seed 004): "Durant son tour, un joueur peut déplacer son prospecteur et
-- explorer la vallée, ainsi qu'effectuer une action, et ce dans l'ordre de son choix", and the whisky: "permet de
-- bénéficier soit d'un second déplacement, soit d'une seconde action durant son tour. Un joueur ne peut dépenser
-- qu'un seul jeton whisky par tour." The turn's budget is one rule (rules.turn_budget); the legal actions of each phase
-- (rules.actions), their effects (rules.apply) and their texts (rules.action_text) dispatch to the chapters.

local K = require("valley")
local rules = K.rules
-- the kernel's methods bound to locals (docs: houserules.game): no method look-up on the game at each call
local move_figure, set_phase = K.G.move_figure, K.G.set_phase
local G = K.G
local CN, BASE_CN = K.CN, K.BASE_CN
local P, SEATS, B, ITEMS, WHISKY, DRIED_FISH = K.P, K.SEATS, K.B, K.ITEMS, K.WHISKY, K.DRIED_FISH
local item_slots, DRAWN, EQUIP, GOODS, GOLD, LOOK = K.item_slots, K.DRAWN, K.EQUIP, K.GOODS, K.GOLD, K.LOOK
local BASE, MAIN, LAY_RIVER, LAY_LAND, KEEP, SHOPPING = K.BASE, K.MAIN, K.LAY_RIVER, K.LAY_LAND, K.KEEP, K.SHOPPING
local DISCARD, FOOT, MODE_NAME, NAME, ITEM = K.DISCARD, K.FOOT, K.MODE_NAME, K.NAME, K.ITEM
local IS_RIVER_TILE, counter, set_counter, add_counter = K.IS_RIVER_TILE, K.counter, K.set_counter, K.add_counter
local top_of, cards_of, geometry, prospectors_on = K.top_of, K.cards_of, K.geometry, K.prospectors_on
local take_base, pay_base, take_item, spend_item = K.take_base, K.pay_base, K.take_item, K.spend_item
local placement, BUY_TOOL, AK, act, parts, vtext = K.placement, K.BUY_TOOL, K.AK, K.act, K.parts, K.vtext

--- The turn's budget (seed UN TOUR DE JEU: "un joueur peut déplacer son prospecteur et explorer la vallée, ainsi
--- qu'effectuer une action"; the whisky: "soit d'un second déplacement, soit d'une seconde action ... Un joueur ne
--- peut dépenser qu'un seul jeton whisky par tour"): how many moves and actions seat s has when its turn begins, and
--- how many whiskies it may drink in the turn (each buys one more move or action). A variant changes the turn by
--- replacing this one function (two actions a turn: `return { moves = 1, actions = 2, whisky = 1 }`).
function rules.turn_budget(game, s)
  return { moves = 1, actions = 1, whisky = 1 }
end

--- A turn begins with its budget (rules.turn_budget): no whisky drunk, no way of moving chosen yet.
local BASE_TURN_BUDGET = rules.turn_budget
function rules.begin_turn(game, s)
  if rules.turn_budget == BASE_TURN_BUDGET then
    -- the base budget's one move and one action without building its table at every turn
    set_counter(game, CN.moves, 0, 1)
    set_counter(game, CN.acts, 0, 1)
  else
    local budget = rules.turn_budget(game, s)
    set_counter(game, CN.moves, 0, budget.moves)
    set_counter(game, CN.acts, 0, budget.actions)
  end
  set_counter(game, CN.drank, 0, 0)
  set_counter(game, CN.mode, 0, 0)
  G.set_to_move(game, s, MAIN)
end

--- Discards open to seat s at the end of its turn (seed "INVENTAIRE": "il doit se défausser des jetons en excédent,
--- selon son choix"): base goods when the backpack overflows, items when the equipment slots overflow.
function rules.discard_actions(game, s, out)
  local pack, equip = rules.overflows(game, s)
  if pack then
    for g = 1, 3 do if counter(game, BASE_CN[g], s) > 0 then out[#out + 1] = act(AK.DISCARD, g) end end
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

local BASE_OWNS, BASE_COUNT_ITEM = rules.owns, rules.count_item -- setup.lua
local GOODS_ZONE_ITEMS = K.IS_GOOD[WHISKY] and K.IS_GOOD[DRIED_FISH] -- both kept in the goods zone
local HELD = {} -- a reused list for game:cards (read up to the count it returns)
--- actions(game, out, seat, phase) -> count.
function rules.actions(game, out, seat, phase)
  geometry(game)
  seat = seat or G.to_move(game)
  phase = phase or G.phase(game)
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
    if counter(game, CN.basket) > 0 then
      local seen = {}
      for _, c in ipairs(cards_of(game, GOLD[seat])) do
        if not seen[NAME[c]] then seen[NAME[c]] = true; out[#out + 1] = act(AK.PAY, c) end
      end
    end
  elseif phase == DISCARD then
    rules.discard_actions(game, seat, out)
  else
    local v = rules.position(game, seat)
    -- the turn's moves and actions left, read once (listing the actions changes no counter)
    local moves, acts = counter(game, CN.moves), counter(game, CN.acts)
    if moves > 0 then
      for _, m in ipairs(rules.modes(game, seat)) do
        for _, w in ipairs(rules.destinations(game, seat, m)) do out[#out + 1] = act(AK.MOVE, w, m) end
      end
    end
    if acts > 0 then rules.turn_actions(game, seat, v, out) end
    -- the whiskies a turn allows: the base budget's one without building its table at every call
    local whisky = rules.turn_budget == BASE_TURN_BUDGET and 1 or rules.turn_budget(game, seat).whisky
    local may_drink = counter(game, CN.drank) < whisky
    local whisky_held, fish_held
    if rules.owns == BASE_OWNS and rules.count_item == BASE_COUNT_ITEM and GOODS_ZONE_ITEMS then
      -- the base rules.owns for both goods with the goods zone read once
      local cs, m = cards_of(game, GOODS[seat], HELD)
      whisky_held, fish_held = false, false
      for j = 1, m do
        local i = ITEM[cs[j]]
        if i == WHISKY then whisky_held = true elseif i == DRIED_FISH then fish_held = true end
      end
    else
      whisky_held = may_drink and rules.owns(game, seat, WHISKY)
      fish_held = rules.owns(game, seat, DRIED_FISH)
    end
    if may_drink and whisky_held then
      if moves == 0 then out[#out + 1] = act(AK.DRINK, 1) end
      if acts == 0 then out[#out + 1] = act(AK.DRINK, 2) end
    end
    if fish_held and counter(game, CN.food, 0) > 0 then out[#out + 1] = act(AK.USE_FISH) end
    if rules.may_declare_end(game, seat) then out[#out + 1] = act(AK.DECLARE) end
    out[#out + 1] = act(AK.END)
  end
  -- texts must be unique: a move reachable on foot is offered on foot only
  return #out
end

--- The end of a turn (seed "UN TOUR DE JEU", C): the ice die once the ice block is in play, then the next seat; the
--- guard `max_rounds` stops a game that would not end (ASSUMED).
function rules.finish_turn(game, s)
  add_counter(game, CN.turns, 0, 1)
  rules.roll_ice(game)
  if G.over(game) then return end
  if counter(game, CN.turns) >= P.max_rounds * SEATS then G.end_round(game); return end
  rules.begin_turn(game, s % SEATS + 1)
end

-- The action kinds rules.apply tells apart, as compile-time constants (AK's numbers, checked below): a comparison with
-- a constant is one instruction, with AK's field a table read and a call.
local KIND_MOVE <const>, KIND_LAY <const>, KIND_KEEP <const>, KIND_BUY <const>, KIND_PAY <const> = 1, 2, 6, 14, 15
local KIND_DRINK <const>, KIND_USE_FISH <const>, KIND_DISCARD <const>, KIND_END <const> = 17, 18, 19, 20
local KIND_DECLARE <const> = 21
for name, v in pairs({ MOVE = KIND_MOVE, LAY = KIND_LAY, KEEP = KIND_KEEP, BUY = KIND_BUY, PAY = KIND_PAY,
                       DRINK = KIND_DRINK, USE_FISH = KIND_USE_FISH, DISCARD = KIND_DISCARD, END = KIND_END,
                       DECLARE = KIND_DECLARE }) do
  assert(AK[name] == v, "turn.lua: action kind " .. name .. " is not " .. v)
end

--- apply(game, action, seat, phase).
function rules.apply(game, x, seat, phase)
  geometry(game)
  seat = seat or G.to_move(game)
  phase = phase or G.phase(game)
  local kind, a, b, c = parts(x)
  if kind == KIND_LAY then
    local t = top_of(game, DRAWN)
    if IS_RIVER_TILE[t] then rules.lay_river_tile(game, t, placement(a, b)) else rules.lay_land_tile(game, t, placement(a, b)) end
    rules.explore(game, seat)
  elseif kind == KIND_MOVE then
    move_figure(game, seat, B, "vertex", a)
    add_counter(game, CN.moves, 0, -1)
    set_counter(game, CN.mode, 0, b)
    if counter(game, CN.ice) == 0 and not rules.explored(game, a) then
      set_counter(game, CN.exploring, 0, a)
      rules.explore(game, seat)
    end
  elseif kind == KIND_END then
    local pack, equip = rules.overflows(game, seat)
    if pack or equip then
      set_phase(game, DISCARD)
    else
      rules.finish_turn(game, seat)
    end
  elseif kind == KIND_DISCARD then
    if a <= 3 then pay_base(game, seat, BASE[a], 1) else spend_item(game, seat, a - 3) end
    local p1, p2 = rules.overflows(game, seat)
    if not p1 and not p2 then rules.finish_turn(game, seat) end
  elseif kind == KIND_DRINK then
    spend_item(game, seat, WHISKY)
    add_counter(game, CN.drank, 0, 1)
    add_counter(game, a == 1 and CN.moves or CN.acts, 0, 1)
  elseif kind == KIND_USE_FISH then
    spend_item(game, seat, DRIED_FISH)
    take_base(game, seat, "food", 4)
  elseif kind == KIND_DECLARE then
    G.end_round(game)
  elseif kind == KIND_KEEP then
    -- the kept event goes to the inventory; the other goes back face down on its meadow
    rules.gain_event(game, seat, a)
    local f = counter(game, CN.look_face)
    while top_of(game, LOOK[seat]) do game:lay(top_of(game, LOOK[seat]), B, "face", f, true) end
    set_counter(game, CN.look_face, 0, 0)
    set_phase(game, MAIN)
  elseif kind == KIND_BUY then
    local price, xs = rules.price(a == BUY_TOOL and "tool" or ITEMS[a])
    if a == BUY_TOOL then take_base(game, seat, "tool", 1) else take_item(game, seat, a) end
    add_counter(game, CN.basket, 0, price + (b == 0 and xs or 0))
    if b >= 1 and b <= 3 then pay_base(game, seat, BASE[b], 1)
    elseif b > 3 then spend_item(game, seat, b - 3) end
    if phase == MAIN then add_counter(game, CN.acts, 0, -1) end
    set_phase(game, SHOPPING)
  elseif kind == KIND_PAY and a ~= 0 then
    rules.pay_token(game, seat, a)
  elseif kind == KIND_PAY then
    rules.pay_nuggets(game, seat, counter(game, CN.basket))
    set_counter(game, CN.basket, 0, 0)
    set_phase(game, MAIN)
  else
    local v = rules.position(game, seat)
    add_counter(game, CN.acts, 0, -1)
    rules.perform(game, seat, v, kind, a, b, c)
  end
end

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
