-- Bold bonus: the bonus of a long expedition (params.bonus, for params.bonus_threshold cards or more) is
-- multiplied by (1 + wagers) like the rest of the column, instead of being added once.
--
-- The parent's score already counts the bonus once per long column, so this script adds
-- bonus x wagers for each long column of the seat.
local rules = ...                -- the parent's rules (lost-cities, or whatever this extends), ours to change
local hr = houserules
local P = hr.params
local CARD = hr.components
local parent_score = rules.score -- keep the parent's hook before replacing it

local BONUS, THRESHOLD = P.bonus, P.bonus_threshold

-- Which cards are wagers, as a plain array (faster than CARD[c].wager in the hook).
local WAGER = {}
for c = 1, #CARD do WAGER[c] = CARD[c].wager end

-- The zones of each seat's columns. lost-cities names them expedition.<seat>.<colour>, or with teams
-- (params.teams, e.g. the four-player-teams variant) expedition.<team letter>.<colour>.
local COLUMNS = {}
for s = 1, hr.seats do
  local owner = #P.teams > 0 and string.char(64 + P.teams[s]) or tostring(s)
  COLUMNS[s] = {}
  for k, colour in ipairs(P.colours) do COLUMNS[s][k] = hr.zones["expedition." .. owner .. "." .. colour] end
end

local cards_of = hr.game.cards -- bound once: cards_of(game, zone, into) is game:cards(zone, into)
local scratch = {}             -- reused by every call; holds nothing between calls

--- score(game, seat): the usual score, plus bonus x wagers for each column long enough for the bonus.
function rules.score(game, seat)
  local extra = 0
  local columns = COLUMNS[seat]
  for k = 1, #columns do
    local cards, count = cards_of(game, columns[k], scratch)
    if count >= THRESHOLD then
      local wagers = 0
      for i = 1, count do
        if WAGER[cards[i]] then wagers = wagers + 1 end
      end
      extra = extra + BONUS * wagers
    end
  end
  return parent_score(game, seat) + extra
end

return rules
