-- Either direction: an expedition may rise or fall. Its first number card may be followed by any other
-- number card of the colour; that second number fixes the direction (higher: the column rises, lower: it
-- falls) and every later number must continue it. Wagers still go only before the first number card.
--
-- What changes, hook by hook:
--   actions     the parent's list, minus the plays that go up a falling column, plus the plays that go
--               down a column that falls or has one number card so far
--   explain     says "must be lower than" on a falling column
--   invariants  columns may fall (the parent's invariants insist that they rise)
--   describe    adds a line with the direction of each of the seat's columns
-- apply, scoring, the turn and the end of the round are the parent's: apply is only ever given a legal
-- action, and a play of card c is the same action whichever way the column runs.
local rules = ...
local hr = houserules
local P = hr.params
local CARD = hr.components
local Z = hr.zones
local G = hr.game
local parent_actions, parent_explain, parent_describe = rules.actions, rules.explain, rules.describe

-- The base ruleset's encoding (rules.constants): the phases of a turn (the draw phase is DRAW, or DRAW + k
-- after a discard) and the code of a play in a last turn (a play in a normal turn is the card number).
local K = rules.constants
local DRAW, LAST_TURN, LAST_TURN_PLAY_BASE = K.DRAW, K.LAST_TURN, K.LAST_TURN_PLAY_BASE

local SEATS, COLOURS, NCOLOURS, NCARDS = hr.seats, P.colours, #P.colours, #CARD
local COLOUR, VALUE, NAME, WAGER = {}, {}, {}, {}
for c = 1, NCARDS do
  COLOUR[c], VALUE[c], NAME[c], WAGER[c] = CARD[c].colour_index, CARD[c].value, CARD[c].name, CARD[c].wager
end

-- Zones: each seat's hand and columns (expedition.<seat>.<colour>, or with params.teams
-- expedition.<team letter>.<colour>), and every set of columns once, for the invariants.
local HAND, COLUMNS, COLUMN_SETS = {}, {}, {}
for s = 1, SEATS do
  HAND[s] = Z["hand." .. s]
  local owner = #P.teams > 0 and string.char(64 + P.teams[s]) or tostring(s)
  if not COLUMN_SETS[owner] then
    COLUMN_SETS[owner] = {}
    for k = 1, NCOLOURS do COLUMN_SETS[owner][k] = Z["expedition." .. owner .. "." .. COLOURS[k]] end
  end
  COLUMNS[s] = COLUMN_SETS[owner]
end

local cards_of, phase_of, to_move_of = G.cards, G.phase, G.to_move

-- Scratch lists for the hot hook (no table is allocated per call; they hold nothing between calls).
local scratch_column, scratch_hand = {}, {}
local dirs, lasts, counts = {}, {}, {}

--- column_state(game, zone) -> direction, last, numbers: direction 1 (rising), -1 (falling) or 0 (not
--- fixed yet: fewer than two number cards); the value of the last number card (-1 if none); how many
--- number cards the column holds.
local function column_state(game, zone)
  local cards, n = cards_of(game, zone, scratch_column)
  local direction, first, last, numbers = 0, -1, -1, 0
  for i = 1, n do
    local c = cards[i]
    if not WAGER[c] then
      numbers = numbers + 1
      if numbers == 1 then first = VALUE[c] elseif numbers == 2 then direction = VALUE[c] > first and 1 or -1 end
      last = VALUE[c]
    end
  end
  return direction, last, numbers
end

--- actions(game, out, seat, phase) -> count: the parent fills `out` (plays of higher numbers, wagers,
--- discards, draws, pass); this filters out the rising plays on falling columns and appends the falling plays.
--- `seat` and `phase` (the seat to move and the phase) are passed on to the parent.
function rules.actions(game, out, seat, phase)
  local n = parent_actions(game, out, seat, phase)
  phase = phase or phase_of(game)
  if phase >= DRAW then return n end
  seat = seat or to_move_of(game)
  local columns = COLUMNS[seat]
  for k = 1, NCOLOURS do dirs[k], lasts[k], counts[k] = column_state(game, columns[k]) end
  local play_base = phase == LAST_TURN and LAST_TURN_PLAY_BASE or 0
  -- 1. keep every action but the plays of number cards on falling columns (the parent offers only
  --    numbers higher than the last one)
  local m = 0
  for i = 1, n do
    local a = out[i]
    local c = a - play_base
    if not (c >= 1 and c <= NCARDS and not WAGER[c] and dirs[COLOUR[c]] == -1) then
      m = m + 1
      out[m] = a
    end
  end
  -- 2. add the plays of number cards lower than the last number, on columns that fall or are not fixed
  local hand, count = cards_of(game, HAND[seat], scratch_hand)
  for i = 1, count do
    local c = hand[i]
    if not WAGER[c] then
      local k = COLOUR[c]
      if counts[k] > 0 and dirs[k] ~= 1 and VALUE[c] < lasts[k] then
        m = m + 1
        out[m] = play_base + c
      end
    end
  end
  return m
end

--- explain(game, text): a play of a number card on a falling column must be lower; everything else is
--- explained by the parent (higher on a rising column, wagers, discards, draws).
function rules.explain(game, text)
  local object = string.match(string.lower(text), "^%s*play%s+(%S+)%s*$")
  if object and phase_of(game) < DRAW then
    local seat = to_move_of(game)
    for _, c in ipairs(game:cards(HAND[seat])) do
      if not WAGER[c] and string.lower(NAME[c]) == object then
        local zone = COLUMNS[seat][COLOUR[c]]
        local direction = column_state(game, zone)
        if direction == -1 then
          return NAME[c] .. " must be lower than " .. NAME[game:top(zone)] .. " on your " .. COLOURS[COLOUR[c]] ..
            " expedition: it runs down"
        end
      end
    end
  end
  return parent_explain(game, text)
end

--- invariants(game): every column holds its own colour, wagers only before the numbers, and numbers that
--- keep the direction set by the second one; outside the last turns the hands hold hand_size cards
--- (hand_size - 1 between placing and drawing). Replaces the parent's, which wants rising columns.
function rules.invariants(game)
  for owner, columns in pairs(COLUMN_SETS) do
    for k = 1, NCOLOURS do
      local where = "expedition." .. owner .. "." .. COLOURS[k]
      local first, last, direction, numbers = -1, -1, 0, 0
      for _, c in ipairs(game:cards(columns[k])) do
        if COLOUR[c] ~= k then return NAME[c] .. " lies on " .. where end
        if WAGER[c] then
          if numbers > 0 then return where .. " has the wager " .. NAME[c] .. " after a number card" end
        else
          local v = VALUE[c]
          numbers = numbers + 1
          if numbers == 1 then
            first = v
          elseif numbers == 2 then
            direction = v > first and 1 or -1
          elseif (direction == 1 and v <= last) or (direction == -1 and v >= last) then
            return where .. " changes direction at " .. NAME[c]
          end
          last = v
        end
      end
    end
  end
  if game:phase() == LAST_TURN then return nil end
  for s = 1, SEATS do
    local expected = P.hand_size
    if s == game:to_move() and game:phase() >= DRAW then expected = P.hand_size - 1 end
    if game:size(HAND[s]) ~= expected then
      return "seat " .. s .. " holds " .. game:size(HAND[s]) .. " cards, expected " .. expected
    end
  end
end

--- describe(view, seat): the parent's table, and the direction of each of the seat's columns.
function rules.describe(view, seat)
  local words = {}
  for k = 1, NCOLOURS do
    local direction, _, numbers = column_state(view, COLUMNS[seat][k])
    words[k] = COLOURS[k] .. " " .. (direction == 1 and "up" or direction == -1 and "down" or numbers == 1 and "up or down" or "-")
  end
  return parent_describe(view, seat) .. "Directions of your expeditions: " .. table.concat(words, ", ") .. "\n"
end

return rules
