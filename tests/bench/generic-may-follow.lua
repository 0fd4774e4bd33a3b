-- rules.may_follow replaced by a function that only asks the parent's: same rules, generic path.
local rules = ...
local parent = rules.may_follow

--- may_follow(game, seat, colour, c, top): the parent's answer (a new function, so the fast paths built on the base one stand aside).
function rules.may_follow(game, seat, colour, c, top)
  return parent(game, seat, colour, c, top)
end

return rules
