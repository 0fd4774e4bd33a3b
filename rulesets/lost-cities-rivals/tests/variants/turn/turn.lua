-- turn.lua — Rivals' turn replaced through its named rules: who takes the next turn, when the game ends.
local rules = ...
local parent_round_ends = rules.round_ends
function rules.next_seat(game, seat) return (seat - 2) % houserules.seats + 1 end
function rules.round_ends(game) return parent_round_ends(game) or game:size("river") >= 4 end
return rules
