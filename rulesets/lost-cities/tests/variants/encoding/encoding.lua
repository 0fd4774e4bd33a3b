-- encoding.lua — a house rule for the tests of lost-cities' rules.encoding and rules.constants (README "For
-- variant authors", "rules.encoding: action kinds and phases by name"), reading what only variants read: the
-- phase names ("place", "last_turn", "draw"), a phase of its own, the piles' names in action records, and
-- rules.constants. Two rules:
-- - Bury: before placing, a player may put a card from their hand under the deck; they are then in the phase
--   "refill" of this house rule, where the only action is "refill": the deck's top card comes to their hand,
--   and they place as usual.
-- - The red discard pile is closed: nobody draws from it.
local rules = ...
local ENC, C = rules.encoding, rules.constants
local REFILL = ENC:phase("refill") -- a phase of the house rule's own (a negative number)
local CLOSED_PILE = "red"

ENC:kind {
  name = "bury", phase = "place", args = { { name = "card", cards = true } },
  --- legal(game, seat, record): the card is in the seat's hand (rules.constants.hand_of_seat) and the deck
  --- holds a card to refill with.
  legal = function(game, seat, record)
    return game:size("deck") > 0 and game:zone_of(record.card) == C.hand_of_seat[seat]
  end,
  apply = function(game, seat, record)
    game:put_under(record.card, "deck")
    game:set_phase(REFILL)
  end,
  --- explain(game, seat): the phase is named by rules.encoding:phase_of.
  explain = function(game, seat)
    return "you may bury a card only before placing, with cards in the deck (now: the "
      .. ENC:phase_of(game) .. " phase)"
  end,
}

ENC:kind {
  name = "refill", phase = "refill",
  --- legal(game, seat): in this house rule's own phase, which the kernel names too (game:phase_name(), issue 35).
  legal = function(game, seat) return game:phase_name() == "refill" end,
  apply = function(game, seat)
    game:move_top("deck", C.hand_of_seat[seat])
    game:set_phase(ENC:phase_number("place"))
  end,
  explain = "you refill only after burying a card",
}

-- The closed pile: the parent's draws without the ones whose record names that pile.
local parent_actions = rules.actions
function rules.actions(game, out, seat, phase)
  local n = parent_actions(game, out, seat, phase)
  local kept = 0
  for i = 1, n do
    local record = ENC:read(out[i])
    if not (record.kind == "draw" and record.pile == CLOSED_PILE) then
      kept = kept + 1
      out[kept] = out[i]
    end
  end
  return kept
end

return rules
