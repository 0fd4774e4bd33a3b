-- two-actions.lua — a house rule for the tests of Lost Valley's turn budget (README "For variant authors"): the
-- turn's moves, actions and whiskies are one rule, rules.turn_budget (turn.lua, seed UN TOUR DE JEU); replacing it
-- alone gives every turn two actions.
local rules = ...
function rules.turn_budget(game, s)
  return { moves = 1, actions = 2, whisky = 1 }
end
return rules
