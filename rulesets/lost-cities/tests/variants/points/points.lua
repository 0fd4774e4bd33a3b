-- points.lua — the examples of lost-cities' README "For variant authors", one per extension point, in one
-- house rule for the tests (points_test.toml), plus an older variant's habit: calling the parent's actions
-- and apply hooks without the seat and phase arguments (README "The hooks").
local rules = ...
local CARD, DECK, P = houserules.components, houserules.zones.deck, houserules.params

-- may_play: numbers may climb by at most 3.
local parent_play = rules.may_play
function rules.may_play(game, seat, card, column, n)
  local ok, why = parent_play(game, seat, card, column, n)
  local last = n > 0 and CARD[column[n]].value or 0
  if ok and last > 0 and CARD[card].value > last + 3 then
    return false, CARD[card].name .. " is more than 3 above " .. CARD[column[n]].name
  end
  return ok, why
end

-- may_draw: after a discard, draw from the deck.
local parent_draw = rules.may_draw
function rules.may_draw(game, seat, pile, discarded)
  if discarded and pile ~= DECK then
    return false, "after a discard you draw from the deck"
  end
  return parent_draw(game, seat, pile, discarded)
end

-- column_score: each wager adds half, not the whole.
function rules.column_score(sum, wagers, cards)
  if cards == 0 then return 0 end
  local bonus = cards >= P.bonus_threshold and P.bonus or 0
  return (sum - P.expedition_cost) * (2 + wagers) // 2 + bonus
end

-- round_ends: short rounds, the last 4 cards are never drawn.
function rules.round_ends(game)
  return game:size(DECK) <= 4
end

-- next_round_leader: the player behind starts.
function rules.next_round_leader(game)
  local leader = 1
  for s = 2, houserules.seats do
    if game:match_score(s) < game:match_score(leader) then leader = s end
  end
  return leader
end

-- An older variant's wrappers: the parent's hooks called without seat and phase (they read them from the game).
local parent_actions, parent_apply = rules.actions, rules.apply
function rules.actions(game, out) return parent_actions(game, out) end
function rules.apply(game, action) return parent_apply(game, action) end

return rules
