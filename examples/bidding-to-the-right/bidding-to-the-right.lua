-- Bidding to the right: rules.next_bidder (Rivals' README, "For variant authors") says who bids after a seat;
-- here the next seat counter-clockwise that is still in the auction (rules.in_auction).
local rules = ...

function rules.next_bidder(game, seat)
  local s = seat
  repeat s = (s - 2) % game:seats() + 1 until rules.in_auction(game, s)
  return s
end

return rules
