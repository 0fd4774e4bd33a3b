-- Bold bonus: the bonus of a long expedition (params.bonus, for params.bonus_threshold cards or more) is
-- multiplied by (1 + wagers) like the rest of the column, instead of being added once.
--
-- One sentence of the rulebook changes: rules.column_score, "the score of one column". The base ruleset's
-- score adds it up over the columns (with teams, over the team's), and its heuristic values columns with it,
-- so the scores, the match totals and what the bots aim for all follow.
local rules = ...                              -- the parent's rules (lost-cities, or a variant of it)
local P = houserules.params
local parent_column_score = rules.column_score

--- column_score(sum, wagers, cards): the usual score, plus bonus x wagers when the column is long enough.
function rules.column_score(sum, wagers, cards)
  local extra = cards >= P.bonus_threshold and P.bonus * wagers or 0
  return parent_column_score(sum, wagers, cards) + extra
end

return rules
