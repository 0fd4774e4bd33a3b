-- Lost Cities, the 2-player card game, as a houserules rules script.
-- Rules: seeds 001 and 003 (../shared/seeds/), digest ../shared/rules/lost-cities.md; parameters in ruleset.toml.
--
-- Zones: deck (hidden), hand.<seat> (owner), expedition.<seat>.<colour> (public), discard.<colour> (top), box.
-- A turn is two actions by the same seat: place (play or discard a card), then draw.
-- Action encoding: play card c -> c; discard card c -> 100 + c; draw from the deck -> 200;
-- draw from the discard pile of colour k -> 200 + k. Texts: "play Y7", "discard Rx", "draw deck", "draw G".

local hr = houserules
local P = hr.params
local SEATS = hr.seats
local COLOURS = P.colours
local NCOLOURS = #COLOURS

-- Components (seed 003 CONTENU DU JEU): per colour, the wagers ("Yx") then the numbers min..max ("Y2".."Y10").
local card_list = {}
for k = 1, NCOLOURS do
  local colour = COLOURS[k]
  local letter = P.letters[colour]
  if not letter then error("params.letters has no letter for colour '" .. colour .. "'") end
  for _ = 1, P.wagers_per_colour do
    card_list[#card_list + 1] = { name = letter .. "x", colour = colour, colour_index = k, value = 0, wager = true }
  end
  for v = P.min_value, P.max_value do
    card_list[#card_list + 1] = { name = letter .. v, colour = colour, colour_index = k, value = v, wager = false }
  end
end
local NCARDS = #card_list
assert(NCARDS < 100, "the action encoding allows at most 99 cards")

local zone_list = { { name = "deck", visibility = "hidden" } }
for s = 1, SEATS do zone_list[#zone_list + 1] = { name = "hand." .. s, owner = s, visibility = "owner" } end
for s = 1, SEATS do
  for k = 1, NCOLOURS do
    zone_list[#zone_list + 1] = { name = "expedition." .. s .. "." .. COLOURS[k], visibility = "public" }
  end
end
for k = 1, NCOLOURS do zone_list[#zone_list + 1] = { name = "discard." .. COLOURS[k], visibility = "top" } end

local declared = hr.declare {
  components = card_list,
  zones = zone_list,
  -- the colour index of the pile discarded to in this turn (0 = none): it may not be drawn from (seed 003)
  counters = { { name = "discarded" } },
  rounds = P.rounds,
}

-- Plain arrays for the hot paths (constants computed once at load; rules never change them).
local CARD = declared.components
local COLOUR, VALUE, NAME = {}, {}, {}
for c = 1, NCARDS do
  COLOUR[c], VALUE[c], NAME[c] = CARD[c].colour_index, CARD[c].value, CARD[c].name
end
local LETTER, COLOUR_OF_LETTER = {}, {}
for k = 1, NCOLOURS do
  LETTER[k] = P.letters[COLOURS[k]]
  COLOUR_OF_LETTER[string.lower(LETTER[k])] = k
end
local Z = declared.zones
local DECK = Z.deck
local HAND, EXPEDITION, DISCARD = {}, {}, {}
for s = 1, SEATS do
  HAND[s] = Z["hand." .. s]
  EXPEDITION[s] = {}
  for k = 1, NCOLOURS do EXPEDITION[s][k] = Z["expedition." .. s .. "." .. COLOURS[k]] end
end
for k = 1, NCOLOURS do DISCARD[k] = Z["discard." .. COLOURS[k]] end
local ALL_HANDS = {}
for s = 1, SEATS do ALL_HANDS[s] = HAND[s] end

local PLACE, DRAW = 0, 1 -- phases of a turn: "poser une carte", then "piocher une carte" (seed 001)
local DISCARD_BASE, DRAW_DECK = 100, 200
local COST, BONUS, THRESHOLD = P.expedition_cost, P.bonus, P.bonus_threshold

local rules = {}

--- start_round(game): gather all cards into the deck, shuffle, deal `hand_size` to each player (seed 001
--- PREPARATION). Round 1 is started by seat 1 (the oldest player, seed 001); later rounds by the player with
--- the higher total so far (seed 003 FIN DU JEU), seat 1 on a tie (ASSUMED: the seeds give no tie-break).
function rules.start_round(game)
  for c = 1, NCARDS do game:move(c, DECK) end
  game:shuffle(DECK)
  game:deal(DECK, ALL_HANDS, P.hand_size)
  game:set_phase(PLACE)
  game:set_counter("discarded", 0, 0)
  local leader = 1
  if game:round() > 1 then
    for s = 2, SEATS do
      if game:match_score(s) > game:match_score(leader) then leader = s end
    end
  end
  game:set_to_move(leader)
end

--- The value of the highest card of each of `seat`'s expeditions: -1 for an empty column, 0 when it holds
--- only wagers.
local function column_tops(game, seat)
  local tops, columns = {}, EXPEDITION[seat]
  for k = 1, NCOLOURS do
    local top = game:top(columns[k])
    tops[k] = top and VALUE[top] or -1
  end
  return tops
end

--- May card c go at the end of an expedition whose top value is `top`? A number must be strictly higher
--- than the last number; wagers only before any number (seed 003 "Poser une carte dans une rangée").
local function playable(c, top)
  local v = VALUE[c]
  return v > top or (v == 0 and top == 0)
end

--- actions(game) -> {action...}: place phase: for each card in hand, bottom to top, play (if playable) then
--- discard; draw phase: the deck, then each non-empty discard pile except the one just discarded to.
--- Copies of a card (the wagers of one colour) are the same action: only the first copy in the hand is
--- offered, so every legal action has its own text and a transcript's text names exactly one action.
function rules.actions(game)
  local seat = game:to_move()
  local out, n = {}, 0
  if game:phase() == PLACE then
    local tops = column_tops(game, seat)
    local hand = game:cards(HAND[seat])
    local wager_colours_seen = 0 -- bit k set: a wager of colour k was offered already
    for i = 1, #hand do
      local c = hand[i]
      local k = COLOUR[c]
      local first_copy = true
      if VALUE[c] == 0 then
        first_copy = wager_colours_seen & (1 << k) == 0
        wager_colours_seen = wager_colours_seen | (1 << k)
      end
      if first_copy then
        if playable(c, tops[k]) then
          n = n + 1
          out[n] = c
        end
        n = n + 1
        out[n] = DISCARD_BASE + c
      end
    end
  else
    if game:size(DECK) > 0 then
      n = 1
      out[1] = DRAW_DECK
    end
    local discarded = game:counter("discarded")
    for k = 1, NCOLOURS do
      if k ~= discarded and game:size(DISCARD[k]) > 0 then
        n = n + 1
        out[n] = DRAW_DECK + k
      end
    end
  end
  return out
end

--- apply(game, action): place, then draw; the turn passes after the draw. The round ends at once when the
--- last card of the deck is drawn (seed 001 FIN DE LA PARTIE: "s'arrête aussitôt").
function rules.apply(game, action)
  local seat = game:to_move()
  if action < DRAW_DECK then
    if action > DISCARD_BASE then
      local c = action - DISCARD_BASE
      game:move(c, DISCARD[COLOUR[c]])
      game:set_counter("discarded", 0, COLOUR[c])
    else
      game:move(action, EXPEDITION[seat][COLOUR[action]])
    end
    game:set_phase(DRAW)
  else
    if action == DRAW_DECK then
      game:move_top(DECK, HAND[seat])
    else
      game:move_top(DISCARD[action - DRAW_DECK], HAND[seat])
    end
    game:set_counter("discarded", 0, 0)
    game:set_phase(PLACE)
    game:set_to_move(seat % SEATS + 1)
    if game:size(DECK) == 0 then game:end_round() end
  end
end

function rules.action_text(game, action)
  if action == DRAW_DECK then return "draw deck" end
  if action > DRAW_DECK then return "draw " .. LETTER[action - DRAW_DECK] end
  if action > DISCARD_BASE then return "discard " .. NAME[action - DISCARD_BASE] end
  return "play " .. NAME[action]
end

--- The score of one expedition column (seed 001 FIN DE LA PARTIE, seed 003 FIN DU JEU ET SCORE):
--- empty -> 0; else (sum of numbers - cost) * (1 + wagers), plus the bonus for `bonus_threshold`+ cards.
local function column_score(game, zone)
  local count = game:size(zone)
  if count == 0 then return 0 end
  local sum, wagers = 0, 0
  local cards = game:cards(zone)
  for i = 1, count do
    local v = VALUE[cards[i]]
    if v == 0 then wagers = wagers + 1 else sum = sum + v end
  end
  return (sum - COST) * (1 + wagers) + (count >= THRESHOLD and BONUS or 0)
end

--- score(game, seat) -> integer: the sum of the seat's expedition columns.
function rules.score(game, seat)
  local total = 0
  for k = 1, NCOLOURS do total = total + column_score(game, EXPEDITION[seat][k]) end
  return total
end

--- explain(game, text) -> string: why `text` is not legal now, in one line.
function rules.explain(game, text)
  local verb, object = string.match(string.lower(text), "^%s*(%a+)%s*(%S*)%s*$")
  local seat = game:to_move()
  if verb == "play" or verb == "discard" then
    if game:phase() ~= PLACE then return "you have placed a card this turn: now draw (draw deck or draw <colour letter>)" end
    local held
    for _, c in ipairs(game:cards(HAND[seat])) do
      if string.lower(NAME[c]) == object then held = c end
    end
    if not held then return "you do not hold " .. string.upper(object) end
    if verb == "play" then
      local k = COLOUR[held]
      local top = game:top(EXPEDITION[seat][k])
      if VALUE[held] == 0 then
        return "wagers go only before the number cards of an expedition (your " .. COLOURS[k] .. " expedition has " .. NAME[top] .. ")"
      end
      return NAME[held] .. " must be higher than " .. NAME[top] .. " on your " .. COLOURS[k] .. " expedition"
    end
  elseif verb == "draw" then
    if game:phase() ~= DRAW then return "place a card first (play or discard), then draw" end
    if object == "deck" then return "the deck is empty" end
    local k = COLOUR_OF_LETTER[object]
    if not k then return "'" .. object .. "' is not a colour letter: draw deck or draw one of " .. table.concat(LETTER, " ") end
    if k == game:counter("discarded") then
      return "you may not draw from the " .. COLOURS[k] .. " discard pile: you just discarded to it"
    end
    if game:size(DISCARD[k]) == 0 then return "the " .. COLOURS[k] .. " discard pile is empty" end
  end
  return "'" .. text .. "' is not an action: type play <card>, discard <card>, draw deck or draw <colour letter> (e.g. play Y7, draw G)"
end

local function card_list_text(game, zone)
  local names = {}
  for i, c in ipairs(game:cards(zone)) do names[i] = CARD[c].name end
  return #names > 0 and table.concat(names, " ") or "-"
end

--- describe(view, seat) -> string: the table as `seat` sees it (view is the seat's observation: cards it
--- cannot see are 0, shown as "?").
function rules.describe(view, seat)
  local lines = {}
  local function add(...) lines[#lines + 1] = string.format(...) end
  local phase = view:phase() == PLACE and "place a card" or "draw a card"
  add("Round %d of %d - seat %d to %s - deck: %d cards", view:round(), view:rounds(), view:to_move(), phase, view:size(DECK))
  local totals = {}
  for s = 1, SEATS do totals[s] = string.format("seat %d: %d (this round %d)", s, view:match_score(s), rules.score(view, s)) end
  add("Match: %s", table.concat(totals, ", "))
  for s = 1, SEATS do
    if s ~= seat then
      add("Seat %d's expeditions:", s)
      for k = 1, NCOLOURS do add("  %-7s %s", COLOURS[k], card_list_text(view, EXPEDITION[s][k])) end
      add("  hand: %d cards", view:size(HAND[s]))
    end
  end
  local tops = {}
  for k = 1, NCOLOURS do
    local top = view:top(DISCARD[k])
    tops[k] = string.format("%s %s (%d)", LETTER[k], top and CARD[top].name or "-", view:size(DISCARD[k]))
  end
  add("Discard piles (top, cards): %s", table.concat(tops, "  "))
  add("Your expeditions (seat %d):", seat)
  for k = 1, NCOLOURS do add("  %-7s %s", COLOURS[k], card_list_text(view, EXPEDITION[seat][k])) end
  add("Your hand: %s", card_list_text(view, HAND[seat]))
  return table.concat(lines, "\n") .. "\n"
end

return rules
