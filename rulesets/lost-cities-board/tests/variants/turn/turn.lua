-- turn.lua — the board game's turn replaced through its named rules: who moves next, when the expedition ends.
local rules = ...
function rules.next_seat(game, seat) return (seat - 2) % houserules.seats + 1 end
function rules.round_ends(game) return game:size("deck") <= 5 end
return rules
