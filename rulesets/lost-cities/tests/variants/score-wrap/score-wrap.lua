local rules = ...
local parent_score = rules.score
function rules.score(game, seat) return parent_score(game, seat) + 5 end
return rules
