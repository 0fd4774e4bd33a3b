-- The house rule of points.toml: two extension points of lost-cities-rivals replaced (README "For variant
-- authors"). rules.may_add: the README's example, wagers at any time, numbers as the parent says.
-- rules.pay_bid: the winner's coins go out of the game, not into the gold reserve.
local rules = ...
local parent_may_add = rules.may_add
function rules.may_add(game, seat, c)
  return houserules.components[c].value == 0 or parent_may_add(game, seat, c)
end
function rules.pay_bid(game, winner, bid)
  game:add_counter("coins", winner, -bid)
end
return rules
