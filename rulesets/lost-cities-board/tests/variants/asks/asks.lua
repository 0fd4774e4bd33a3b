-- The house rule of asks.toml: rules.may_follow replaced by a function that only asks the base one (the same
-- game). The heuristic then counts the cards that fit a path card by card, asking rules.may_follow, instead of its
-- base rule's count by colour (K.follow_floor): asks_test.toml checks both give the same values.
local rules = ...
local parent = rules.may_follow
function rules.may_follow(game, seat, colour, c, top)
  return parent(game, seat, colour, c, top)
end
return rules
