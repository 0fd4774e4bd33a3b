-- Mulligan: once per round, at the start of your turn, you may put your hand under the deck and draw as
-- many cards. A new kind of action, registered by name in the parent's rules.encoding: the encoding gives it
-- its code, the parent offers it in the phase it names ("place": the start of a turn, before placing) when
-- `legal` says so, runs its `apply`, shows its text and explains it when it is refused.
-- The counter `mulligans` (one per seat) is declared in mulligan.toml.
local rules = ...
local parent_start_round = rules.start_round

--- start_round(game): the parent's deal, and nobody has taken their mulligan yet.
function rules.start_round(game)
  parent_start_round(game)
  for seat = 1, houserules.seats do game:set_counter("mulligans", seat, 0) end
end

rules.encoding:kind {
  name = "mulligan", -- its text is "mulligan"; read as the record {kind = "mulligan"}
  phase = "place",
  --- legal(game, seat): offered at the start of the seat's turn if it has not taken its mulligan this round.
  legal = function(game, seat) return game:counter("mulligans", seat) == 0 end,
  explain = "you may take a mulligan once per round, at the start of your turn (before you place a card)",
  --- apply(game, seat): the hand goes under the deck, bottom card first; then as many cards from the top.
  apply = function(game, seat)
    local hand = "hand." .. seat
    local cards = game:cards(hand)
    for _, card in ipairs(cards) do game:put_under(card, "deck") end
    for _ = 1, #cards do game:move_top("deck", hand) end
    game:set_counter("mulligans", seat, 1)
  end,
}

return rules
