local rules = ...
local parent_in_auction = rules.in_auction
function rules.in_auction(game, seat)
  return parent_in_auction(game, seat)
    and (seat == game:counter("high") or game:counter("coins", seat) > game:counter("bid"))
end
return rules
