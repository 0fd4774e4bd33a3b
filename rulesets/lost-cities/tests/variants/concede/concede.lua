-- concede.lua — the README's example of rules.encoding:kind (README "For variant authors"): before placing,
-- a player may concede the round once the deck holds fewer than 10 cards; the round ends at once.
local rules = ...
rules.encoding:kind {
  name = "concede", phase = "place",                 -- the text "concede", offered before placing
  legal = function(game, seat) return game:size("deck") < 10 end,
  apply = function(game, seat) game:end_round() end,
  explain = "you may concede only when the deck holds fewer than 10 cards",
}
return rules
