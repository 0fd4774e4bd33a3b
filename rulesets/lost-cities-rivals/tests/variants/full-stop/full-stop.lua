-- The house style of full-stop.toml: rules.explain's refusal, as the base ruleset words it, then ".".
local rules = ...
local parent_explain = rules.explain
function rules.explain(game, text)
  local reason = parent_explain(game, text)
  return reason and reason .. "." or reason
end
return rules
