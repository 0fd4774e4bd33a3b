-- heuristic.lua — Lost Cities: heuristic(game, seat), an estimate of the seat's final score (its match total
-- so far plus the expected score of the round being played), from what the seat may see. Used by the greedy
-- bot (one ply) and by ismcts to evaluate the leaves of its search (docs/bots.md). rules.lua installs it as
-- rules.heuristic = require("heuristic")(rules, base); variants inherit it (they change the same rules table)
-- and may replace it.
--
-- It values the rules in force: which cards are still playable comes from rules.may_play and the value of a
-- column from rules.column_score. While those are the base functions (`base`, compared by identity at each
-- call) it uses the same rules built into fast code below; when a variant replaced one, it asks the variant's.
--
-- Information: it reads the public zones (expeditions, discard piles), the seat's own hand, zone sizes, and
-- of other hands only the cards game:knows(seat, card) says the seat knows (taken from a discard pile) —
-- never an unknown card's identity or place. So its value is the same for every state the seat cannot tell
-- apart (tests/games/ismcts_test.cpp checks it).
--
-- The estimate, per colour k of the seat's columns (its own, or its team's with teams):
--   committed   the column: sum of numbers S, wagers W, count n, last value t;
--   in hand     the seat's cards of colour k still playable on it (numbers above t; wagers while t <= 0),
--               each weighted HAND_WEIGHT;
--   to come     the numbers of colour k above t whose place the seat does not know (deck or hidden hands),
--               each weighted p = (deck draws left to the seat) / (cards unknown to it) * DRAW_USE;
--   value       (S' - cost) * (1 + W') + bonus (from `bonus_threshold` cards, phased in over the last card),
--               with S', W', n' the weighted sum, wagers and count; an expedition not started counts
--               max(0, value), since the seat need not start it.
-- No term counts the turns left against the cards to play: it made drawing a useless card from a discard pile
-- (which does not shorten the round) look better than drawing from the deck, and two greedy players then
-- stalled for thousands of plies (docs/bots.md). DRAW_USE and HAND_WEIGHT are estimates, not fitted.
-- Cost: one game:cards per non-empty public zone and per hand, game:knows for the cards of other hands; no
-- allocation.

local hr = houserules
local P = hr.params
local SEATS = hr.seats
local COLOURS = P.colours
local NCOLOURS = #COLOURS
local CARD = hr.components
local Z = hr.zones
local NCARDS = #CARD
local COST, BONUS, THRESHOLD = P.expedition_cost, P.bonus, P.bonus_threshold
--- Of the hidden cards a seat may draw, the share it can still use (drawn in time, not taken first).
local DRAW_USE = 0.75
--- A card in hand counts this much of a card on the column: it may never be played (the round ends first,
--- a higher card is played before it), and it makes playing a good card now better than holding it.
local HAND_WEIGHT = 0.8

local COLOUR, VALUE = {}, {}
for c = 1, NCARDS do
  COLOUR[c] = CARD[c].colour_index
  VALUE[c] = CARD[c].value
end

-- The seat's hand and expedition columns (with teams, partners share the columns "expedition.A.<colour>"),
-- and the other column sets it sees: their zone group (declared by rules.lua) and zones in colour order.
local HAND, COLUMNS, OWNER = {}, {}, {}
local function columns_of(owner)
  local zones = {}
  for k = 1, NCOLOURS do zones[k] = Z["expedition." .. owner .. "." .. COLOURS[k]] end
  return zones
end
for s = 1, SEATS do
  HAND[s] = Z["hand." .. s]
  OWNER[s] = #P.teams > 0 and string.char(64 + P.teams[s]) or tostring(s)
  COLUMNS[s] = columns_of(OWNER[s])
end
local OTHER_COLUMNS = {} -- seat -> list of {group = zone group, zones = columns}, one per other column set
for s = 1, SEATS do
  OTHER_COLUMNS[s] = {}
  local listed = { [OWNER[s]] = true }
  for o = 1, SEATS do
    if not listed[OWNER[o]] then
      listed[OWNER[o]] = true
      OTHER_COLUMNS[s][#OTHER_COLUMNS[s] + 1] = { group = hr.groups["columns." .. OWNER[o]], zones = columns_of(OWNER[o]) }
    end
  end
end
local DRAW_SOURCES = hr.groups.draw_sources -- the deck, then the discard piles in colour order
local DISCARD = {}
for k = 1, NCOLOURS do DISCARD[k] = Z["discard." .. COLOURS[k]] end

-- ABOVE_SUM[k][t + 2], ABOVE_COUNT[k][t + 2]: the sum and number of the number cards of colour k above t
-- (t = -1 for an empty column, 0 with wagers only, else the last number).
local ABOVE_SUM, ABOVE_COUNT = {}, {}
for k = 1, NCOLOURS do
  ABOVE_SUM[k], ABOVE_COUNT[k] = {}, {}
  for t = -1, P.max_value do
    local sum, count = 0, 0
    for c = 1, NCARDS do
      if COLOUR[c] == k and VALUE[c] > 0 and VALUE[c] > t then sum, count = sum + VALUE[c], count + 1 end
    end
    ABOVE_SUM[k][t + 2], ABOVE_COUNT[k][t + 2] = sum, count
  end
end

local G = hr.game
local cards_of, sizes_of, knows, match_score, over, to_move_of =
  G.cards, G.sizes, G.knows, G.match_score, G.over, G.to_move

-- Scratch lists (overwritten before every use; nothing is kept between calls).
local scratch, sizes = {}, {}
for c = 1, NCARDS do scratch[c] = 0 end
for k = 1, NCOLOURS + 1 do sizes[k] = 0 end
local top, sum, wagers, count = {}, {}, {}, {}
local hand_sum, hand_count, hand_wagers, future_sum, future_count = {}, {}, {}, {}, {}

--- The value of one column from its expected final sum, wagers and count; `started` columns may be negative.
local function column_value(s, w, n, started)
  local v = (s - COST) * (1 + w)
  if n > THRESHOLD - 1 then v = v + BONUS * (n >= THRESHOLD and 1 or n - THRESHOLD + 1) end
  if not started and v < 0 then return 0 end
  return v
end

--- Removes cards the seat sees (cards[first..last]) from the cards still to come.
local function seen(cards, last, first)
  for i = first or 1, last do
    local c = cards[i]
    local k, v = COLOUR[c], VALUE[c]
    if v > 0 and v > top[k] then
      future_sum[k] = future_sum[k] - v
      future_count[k] = future_count[k] - 1
    end
  end
end

-- For variants that replace rules.may_play: per card, whether the seat may play it on its column now; the
-- cards of each of the seat's columns (one list per colour: may_play looks at the whole column).
local playable = {}
local column_cards, column_counts = {}, {}
for k = 1, NCOLOURS do column_cards[k], column_counts[k] = {}, 0 end

--- seen() for a variant's may_play: a number card still to come counts if the seat may play it now.
local function seen_playable(cards, last, first)
  for i = first or 1, last do
    local c = cards[i]
    if VALUE[c] > 0 and playable[c] then
      local k = COLOUR[c]
      future_sum[k] = future_sum[k] - VALUE[c]
      future_count[k] = future_count[k] - 1
    end
  end
end

--- (rules, base) -> heuristic(game, seat) -> number: the seat's match total plus the expected final score of
--- this round, valued by rules.may_play and rules.column_score.
return function(rules, base)
return function(game, seat)
  if over(game) then return match_score(game, seat) end
  local may_play, column_score = rules.may_play, rules.column_score
  local generic = may_play ~= base.may_play
  local seen = generic and seen_playable or seen
  local columns = COLUMNS[seat]
  for k = 1, NCOLOURS do
    local cards, n = cards_of(game, columns[k], generic and column_cards[k] or scratch)
    column_counts[k] = n
    local s, w, t = 0, 0, -1
    for i = 1, n do
      local v = VALUE[cards[i]]
      if v == 0 then w = w + 1 else s = s + v end
      t = v
    end
    top[k], sum[k], wagers[k], count[k] = t, s, w, n
    hand_sum[k], hand_count[k], hand_wagers[k] = 0, 0, 0
    future_sum[k], future_count[k] = ABOVE_SUM[k][t + 2], ABOVE_COUNT[k][t + 2]
  end
  if generic then
    -- the number cards to come are those the variant's may_play allows now (not the ones above t)
    for k = 1, NCOLOURS do future_sum[k], future_count[k] = 0, 0 end
    for c = 1, NCARDS do
      local k = COLOUR[c]
      playable[c] = may_play(game, seat, c, column_cards[k], column_counts[k]) and true or false
      if playable[c] and VALUE[c] > 0 then
        future_sum[k], future_count[k] = future_sum[k] + VALUE[c], future_count[k] + 1
      end
    end
  end
  -- The seat's own hand: the cards still playable on its columns.
  local hand, held = cards_of(game, HAND[seat], scratch)
  for i = 1, held do
    local c = hand[i]
    local k, v = COLOUR[c], VALUE[c]
    if (generic and playable[c]) or (not generic and (v > top[k] or (v == 0 and top[k] <= 0))) then
      hand_sum[k] = hand_sum[k] + v
      hand_count[k] = hand_count[k] + 1
      if v == 0 then hand_wagers[k] = hand_wagers[k] + 1 end
    end
  end
  -- The cards to come are those whose place the seat does not know (deck, other hands): all but its hand,
  -- the public zones (other columns, discard piles: each card is shown as it arrives) and the cards of other
  -- hands it knows (taken from a discard pile).
  seen(hand, held)
  local piles = sizes_of(game, DRAW_SOURCES, sizes)
  local deck = piles[1]
  for k = 1, NCOLOURS do
    if piles[k + 1] > 0 then seen(cards_of(game, DISCARD[k], scratch)) end
  end
  local others = OTHER_COLUMNS[seat]
  for g = 1, #others do
    local zones = others[g].zones
    local column_sizes = sizes_of(game, others[g].group, sizes)
    for k = 1, NCOLOURS do
      if column_sizes[k] > 0 then seen(cards_of(game, zones[k], scratch)) end
    end
  end
  local unknown = deck
  for o = 1, SEATS do
    if o ~= seat then
      local cards, n = cards_of(game, HAND[o], scratch)
      for i = 1, n do
        local c = cards[i]
        if knows(game, seat, c) then
          seen(cards, i, i)
        else
          unknown = unknown + 1
        end
      end
    end
  end
  -- The deck draws left to the seat: the draw of the seat to move comes first (its turn ends with it), then
  -- one in every SEATS cards. So drawing from a discard pile instead of the deck does not change the draws
  -- left to anyone; each unknown card is in the deck with chance deck / unknown.
  local ahead = (seat - to_move_of(game)) % SEATS
  local draws = deck > ahead and (deck - ahead - 1) // SEATS + 1 or 0
  local p = unknown > 0 and draws / unknown * DRAW_USE or 0
  local total = match_score(game, seat)
  for k = 1, NCOLOURS do
    local s = sum[k] + HAND_WEIGHT * hand_sum[k] + p * future_sum[k]
    local w = wagers[k] + HAND_WEIGHT * hand_wagers[k]
    local n = count[k] + HAND_WEIGHT * hand_count[k] + p * future_count[k]
    if column_score == base.column_score then
      total = total + column_value(s, w, n, count[k] > 0)
    else
      local v = column_score(s, w, n) -- an expedition not started counts only if it would gain
      total = total + ((count[k] > 0 or v > 0) and v or 0)
    end
  end
  return total
end
end
