-- Lost Valley, chapter B.7 "acheter équipements et marchandises" (seed 004): "Un prospecteur peut acheter dans un
-- magasin autant d'équipement et de marchandises qu'il le souhaite ... payés en pépites d'or, et le magasin ne rend
-- pas la monnaie. Un «X» dans un prix peut être payé avec soit une pépite, soit un produit de base, soit un
-- équipement." The player chooses the gold tokens that pay; a refinery (seed A.2) turns two base goods into whisky.

local K = require("valley")
local rules = K.rules
local CN, BASE_CN = K.CN, K.BASE_CN
local P, ITEMS, SHOP, EQUIP, GOLD, BASE, MAIN, ITEM = K.P, K.ITEMS, K.SHOP, K.EQUIP, K.GOLD, K.BASE, K.MAIN, K.ITEM
local NUGGETS, counter, set_counter, cards_of, move = K.NUGGETS, K.counter, K.set_counter, K.cards_of, K.move
local BUY_TOOL, AK, act = K.BUY_TOOL, K.AK, K.act

--- rules.price(item) -> nuggets, x: the price of an item named `item` ("whisky", "horse", ... as in
--- ruleset.toml's `prices`; "tool" for a tool from the supply) in nuggets, and the X it costs besides (seed B.7
--- "Le magasin", prices ASSUMED in ruleset.toml). Asked when the purchases are listed and when one is applied.
function rules.price(item)
  return P.prices[item] or 0, P.price_x[item] or 0
end

--- Whether a store sells seat s a tool (ASSUMED, the seed is silent: tools are spent building and go back to the
--- supply, "la réserve", and nothing else brings one back; with four players the twelve are all dealt at the start):
--- a tool from the supply for `prices.tool` nuggets, 0 meaning never.
function rules.sells_tool(game)
  return (P.prices.tool or 0) > 0 and counter(game, CN.tool, 0) > 0
end

--- The purchases open to seat s (seed B.7): each item in stock whose nugget price, added to the basket, the gold bag
--- covers; an X paid with a nugget (`buy horse`), a base good (`buy horse for log`) or an equipment (`... for rifle`);
--- a tool from the supply (rules.sells_tool).
function rules.buy_actions(game, s, out)
  local wealth = rules.nuggets(game, s) - counter(game, CN.basket)
  local seen = {}
  for _, c in ipairs(cards_of(game, SHOP)) do
    local i = ITEM[c]
    if not seen[i] then
      seen[i] = true
      local price, x = rules.price(ITEMS[i])
      if price > 0 or x > 0 then
        if price + x <= wealth then out[#out + 1] = act(AK.BUY, i, 0) end
        if x == 1 and price <= wealth then
          for g = 1, 3 do if counter(game, BASE_CN[g], s) >= 1 then out[#out + 1] = act(AK.BUY, i, g) end end
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

--- `pay` alone: the engine chooses the tokens for the player (a convenience, and the bots' default; `pay grey4`,
--- rules.pay_token, lets the player choose): from seat s's gold bag (seed B.7: "le magasin ne rend pas la monnaie"),
--- the tokens whose total covers the price with the least overpayment, then the fewest tokens;
--- between sets of the same total and size, the one the search below meets first, taking the tokens biggest first,
--- and of the same worth the one declared first (river gold before an event's gold) (ASSUMED, the seed leaves it to
--- the player: 5 nuggets from 4, 3, 2 and 1 are paid 3 + 2, keeping 4 and 1; a green2 is paid before a gold2).
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
  local owed = counter(game, CN.basket) - NUGGETS[c]
  if owed <= 0 then
    set_counter(game, CN.basket, 0, 0)
    game:set_phase(MAIN)
  else
    set_counter(game, CN.basket, 0, owed)
  end
end
