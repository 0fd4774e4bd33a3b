-- Lost Cities: Rivals, 2 to 4 players with auctions, as a houserules rules script.
-- Rules: seed 002 (../shared/seeds/), digest ../shared/rules/lost-cities-rivals.md; parameters in ruleset.toml.
--
-- Zones: pile.<n> (hidden draw piles, n = 1..piles, played in order), river (public, left to right = bottom to
-- top), expedition.<seat>.<colour> (public), starting (hidden, used while dealing the starting wagers), box.
-- Counters: coins (per seat; the supply, owner 0, is the gold reserve), bid and high (the current bid and
-- its bidder), passed (per seat, 1 = out of this auction), boxed (1 = the winner has boxed a river card),
-- pile (the number of the current draw pile).
--
-- A turn is one action, "reveal" or "auction N". An auction is a sequence of ordinary actions by different
-- seats: "bid N" or "pass" by each bidder in turn (the rules move to_move around the table), then the winner's
-- "take <card>" (any number), "box <card>" (at most one) and "done" (which reveals a card and hands the turn to
-- the winner's left). All the auction state is in the phase and the counters.

local hr = houserules
local P = hr.params
local SEATS = hr.seats
local COLOURS = P.colours
local NCOLOURS = #COLOURS
local NVALUES = P.max_value - P.min_value + 1

if #P.copies ~= NVALUES or #P.footprints ~= NVALUES then
  error("params.copies and params.footprints need one entry per value from min_value to max_value (" .. NVALUES .. ")")
end
-- Seed 002 "Mise en place": each player is dealt starting wagers of different colours. The last seat is dealt
-- from the LEFT cards the others did not take, with at most PER_COLOUR of a colour among them, so they show
-- at least ceil(LEFT / PER_COLOUR) colours: enough when LEFT > PER_COLOUR * (EACH - 1). (Without this, 4
-- colours with 4 players left the last seat 2 cards that could share a colour.)
local EACH, PER_COLOUR = P.starting_wagers_each, P.starting_wagers_per_colour
local LEFT = PER_COLOUR * NCOLOURS - EACH * (SEATS - 1)
if EACH * SEATS > PER_COLOUR * NCOLOURS or EACH > NCOLOURS or (EACH > 0 and LEFT <= PER_COLOUR * (EACH - 1)) then
  error("not enough starting wagers of different colours for " .. SEATS .. " players: " .. NCOLOURS ..
        " colours of " .. PER_COLOUR .. " starting wagers cannot always give each player " .. EACH ..
        " of different colours (the last player may be left same-coloured ones)")
end

-- Components. Per colour: the wagers of the piles ("Yx"), then the number cards ("Y2", "Y2", ... "Y10"); then
-- all the starting wagers ("Ys"). Each distinct name has a number NAME_ID (< 64) so that a set of names is an
-- integer bit mask.
local KINDS_PER_COLOUR = NVALUES + 2 -- x, the values, s
assert(NCOLOURS * KINDS_PER_COLOUR <= 63, "too many distinct card names for the name bit masks")
local card_list = {}
local function add_card(colour_index, suffix, value, feet, kind, name_id)
  local colour = COLOURS[colour_index]
  local letter = P.letters[colour]
  if not letter then error("params.letters has no letter for colour '" .. colour .. "'") end
  card_list[#card_list + 1] = { name = letter .. suffix, colour = colour, colour_index = colour_index, value = value,
                                footprints = feet, kind = kind, name_id = (colour_index - 1) * KINDS_PER_COLOUR + name_id }
end
for k = 1, NCOLOURS do
  for _ = 1, P.wagers_per_colour do add_card(k, "x", 0, 0, "wager", 0) end
  for v = P.min_value, P.max_value do
    local i = v - P.min_value + 1
    for _ = 1, P.copies[i] do add_card(k, tostring(v), v, P.footprints[i], "number", i) end
  end
end
local NPILE_CARDS = #card_list -- the cards shuffled into the piles: 65 expedition cards and 15 wagers
for k = 1, NCOLOURS do
  for _ = 1, P.starting_wagers_per_colour do add_card(k, "s", 0, 0, "starting", NVALUES + 1) end
end
local NCARDS = #card_list
assert(NPILE_CARDS >= P.piles and P.piles >= 1, "every pile needs at least one card")

local NPILES = P.piles
local zone_list = {}
for p = 1, NPILES do zone_list[#zone_list + 1] = { name = "pile." .. p, visibility = "hidden" } end
zone_list[#zone_list + 1] = { name = "river", visibility = "public" }
for s = 1, SEATS do
  for k = 1, NCOLOURS do
    zone_list[#zone_list + 1] = { name = "expedition." .. s .. "." .. COLOURS[k], visibility = "public" }
  end
end
zone_list[#zone_list + 1] = { name = "starting", visibility = "hidden" }

local declared = hr.declare {
  components = card_list,
  zones = zone_list,
  counters = {
    { name = "coins", per_seat = true }, -- 1: each seat's gold; owner 0 = the gold reserve
    { name = "bid" },                    -- 2: the current (or, for the winner, the paid) bid; 0 = no auction
    { name = "high" },                   -- 3: the seat of that bid; 0 = no auction
    { name = "passed", per_seat = true },-- 4: 1 = this seat has passed in the current auction
    { name = "boxed" },                  -- 5: 1 = the auction winner has boxed a river card
    { name = "pile" },                   -- 6: the number of the current draw pile
  },
  rounds = 1,
  phases = { turn = 0, bidding = 1, spoils = 2 }, -- TURN, BIDDING, SPOILS below
}
local COINS <const>, BID <const>, HIGH <const>, PASSED <const>, BOXED <const>, PILE <const> = 1, 2, 3, 4, 5, 6

-- Phases: a seat's turn; bidding (to_move = the seat to bid or pass); the winner's spoils (take, box, done).
local TURN <const>, BIDDING <const>, SPOILS <const> = 0, 1, 2
-- Action encoding: plain codes, then a base plus a coin amount or a card number.
local REVEAL <const>, PASS <const>, DONE <const> = 1, 2, 3
local AUCTION <const>, BID_BASE <const>, TAKE <const>, BOX_BASE <const> = 1000, 2000, 3000, 4000
assert(P.coins < 1000 and NCARDS < 1000, "the action encoding allows at most 999 coins and cards")

-- Plain arrays for the hot paths (computed once at load; rules never change them).
local CARD = declared.components
local COLOUR, VALUE, FEET, NAME, NAME_BIT, LIMIT = {}, {}, {}, {}, {}, {}
-- Card c may join an expedition whose last card has value t (-1: empty, 0: a wager) exactly when
-- t <= LIMIT[c]: wagers only before any number, numbers equal to or higher than the last (seed 002
-- "Entreprendre des expéditions").
for c = 1, NCARDS do
  local card = CARD[c]
  COLOUR[c], VALUE[c], FEET[c], NAME[c] = card.colour_index, card.value, card.footprints, card.name
  NAME_BIT[c] = 1 << card.name_id
  LIMIT[c] = card.value
end
local Z = declared.zones
local BOX = assert(Z.box, "no box zone")
local RIVER, STARTING = Z.river, Z.starting
local PILE_ZONE, EXPEDITION = {}, {}
for p = 1, NPILES do PILE_ZONE[p] = Z["pile." .. p] end
for s = 1, SEATS do
  EXPEDITION[s] = {}
  for k = 1, NCOLOURS do EXPEDITION[s][k] = Z["expedition." .. s .. "." .. COLOURS[k]] end
end
local MIN_BID, NEEDS_RIVER = P.min_opening_bid, P.auction_needs_river
-- "2-5: 1, 6-10: 2": the footprints of each run of values, for describe.
local FOOTPRINT_TEXT
do
  local runs, first = {}, P.min_value
  for v = P.min_value, P.max_value do
    local feet = P.footprints[v - P.min_value + 1]
    if v == P.max_value or P.footprints[v - P.min_value + 2] ~= feet then
      runs[#runs + 1] = (first == v and tostring(v) or first .. "-" .. v) .. ": " .. feet
      first = v + 1
    end
  end
  FOOTPRINT_TEXT = table.concat(runs, ", ")
end
local BONUS, BONUS_NUMBERS, COIN_POINTS = P.bonus, P.bonus_numbers, P.coin_points

-- The game's methods bound to locals for the hot hooks (docs/writing-rules.md, "Speed").
local G = hr.game
local tops_of, size_of, top_of, cards_of, counter_of = G.tops, G.size, G.top, G.cards, G.counter
local to_move_of, phase_of = G.to_move, G.phase
local move, move_top, set_counter, add_counter, set_phase, set_to_move, end_round =
  G.move, G.move_top, G.set_counter, G.add_counter, G.set_phase, G.set_to_move, G.end_round

-- Scratch lists reused by the hooks so that they allocate nothing. They carry nothing from one call to the
-- next: every use overwrites them first.
local scratch_tops, scratch_top_values, scratch_cards, scratch_cards2 = {}, {}, {}, {}
for k = 1, NCOLOURS do scratch_tops[k], scratch_top_values[k] = false, -1 end
for c = 1, NCARDS do scratch_cards[c], scratch_cards2[c] = 0, 0 end

local rules = {}

--- The value of the last card of an expedition: -1 when empty, 0 for a wager, else the number.
local function last_value(game, zone)
  local top = top_of(game, zone)
  return top and VALUE[top] or -1
end

-- ---- extension points (README "For variant authors"): one sentence of the rulebook each ----------------------
-- The hooks call them through the rules table, so a variant that replaces one changes the legal actions, the
-- explanations, the bots' estimates and the moves together. Cards are numbers (houserules.components[c] gives
-- .name, .colour, .value; a wager has value 0); seats are numbers; amounts are coins.

--- rules.may_add(game, seat, c) -> boolean: may card c go on `seat`'s expedition of its colour (seed 002,
--- "Prendre le butin")? Base: wagers only before any number card, numbers equal to or higher than the last.
function rules.may_add(game, seat, c)
  return last_value(game, EXPEDITION[seat][COLOUR[c]]) <= LIMIT[c]
end
local base_may_add = rules.may_add

--- rules.lowest_opening_bid(game, seat) -> integer: the fewest coins `seat` may open an auction with (seed 002,
--- "Enchères"). Base: the min_bid parameter.
function rules.lowest_opening_bid(game, seat)
  return MIN_BID
end

--- rules.in_auction(game, seat) -> boolean: is `seat` still in the auction under way, to bid or pass when its turn
--- comes (seed 002, "Enchérir": "Si vous passez, vous quittez définitivement l'enchère")? Base: it has not passed
--- in this auction. A variant that lets a seat come back says so here: the next bidder, the winner and the
--- invariants all ask it.
function rules.in_auction(game, seat)
  return counter_of(game, PASSED, seat) == 0
end

--- rules.lowest_raise(game, seat) -> integer: the fewest coins `seat` may bid over the current bid (seed 002,
--- "Enchérir": "faire une offre supérieure"). Base: one coin more than the current bid.
function rules.lowest_raise(game, seat)
  return counter_of(game, BID) + 1
end

--- rules.next_bidder(game, seat) -> seat: who bids next, after `seat` opened, bid or passed, while the auction goes
--- on (seed 002, "Enchérir": "chaque joueur dans le sens horaire"). Base: the next seat clockwise still in the
--- auction (rules.in_auction); the auction has at least two then (rules.auction_winner said it goes on).
function rules.next_bidder(game, seat)
  local s = seat
  for _ = 1, SEATS do
    s = s % SEATS + 1
    if rules.in_auction(game, s) then return s end
  end
  return seat
end

--- rules.auction_winner(game) -> seat or nil: the winner once the auction is over, nil while it goes on (seed 002:
--- "L'enchère se termine lorsque tous les joueurs sauf un ont passé"). Base: the one seat still in the auction
--- (rules.in_auction).
function rules.auction_winner(game)
  local left, last = 0, 0
  for s = 1, SEATS do
    if rules.in_auction(game, s) then
      left = left + 1
      last = s
    end
  end
  if left == 1 then return last end
  return nil
end

--- rules.pay_bid(game, winner, bid): the winner of an auction pays its bid (seed 002: into the gold reserve).
--- Runs inside apply: it changes the coins (game:add_counter("coins", seat or 0, delta)).
function rules.pay_bid(game, winner, bid)
  add_counter(game, COINS, winner, -bid)
  add_counter(game, COINS, 0, bid)
end
local base_pay_bid = rules.pay_bid

--- rules.share_reserve(game): a draw pile ran out (not the last one): the gold reserve is shared equally among
--- the seats, the remainder stays in the reserve (seed 002, "Fin d'une pile"). Runs inside apply.
function rules.share_reserve(game)
  local reserve = counter_of(game, COINS, 0)
  local share = reserve // SEATS
  if share > 0 then
    for s = 1, SEATS do add_counter(game, COINS, s, share) end
    set_counter(game, COINS, 0, reserve - share * SEATS)
  end
end
local base_share_reserve = rules.share_reserve

-- ---- the turn: who moves next, what a turn allows, when the game's end is checked -----------------------------
-- A turn (seed 002, "Déroulement de la partie"): one action, reveal OR open an auction ("l'une de ces deux
-- actions : découvrir OU enchérir"); an auction is its own sequence of bids (rules.next_bidder above), after
-- which its winner takes spoils and reveals.

--- rules.next_seat(game, seat) -> seat: who takes the next turn after `seat` revealed a card, or after `seat` won
--- an auction and revealed (seed 002: "chacun leur tour, dans le sens horaire"; "Le joueur assis à la gauche du
--- meilleur enchérisseur ... entame le premier tour"). Base: seat + 1, seat 1 after the last.
function rules.next_seat(game, seat)
  return seat % SEATS + 1
end

--- rules.round_ends(game) -> boolean: does the game end now that a card was revealed (seed 002, "Fin de la partie
--- et décompte": "dès que vous révélez la dernière carte de la dernière pile")? Base: the last pile is in use
--- and empty. Asked after every reveal; when it ends the reserve is not shared (when another pile ran out,
--- rules.share_reserve is asked instead, and the next pile is used).
function rules.round_ends(game)
  local pile = counter_of(game, PILE)
  return pile == NPILES and size_of(game, PILE_ZONE[pile]) == 0
end

--- Whether some seat may still add card c to its expedition (seed 002, "Découvrir", Remarque).
local function usable_by_anyone(game, c)
  for s = 1, SEATS do
    if rules.may_add(game, s, c) then return true end
  end
  return false
end

--- Reveals the top card of the draw pile into the river (boxed instead when no player can use it, and not
--- replaced). When that was the last card of the pile: after the last pile the game ends; otherwise the gold
--- reserve is shared equally, the remainder stays, and the next pile becomes the draw pile.
local function reveal(game)
  local pile = counter_of(game, PILE)
  local zone = PILE_ZONE[pile]
  local c = move_top(game, zone, RIVER)
  if not usable_by_anyone(game, c) then move(game, c, BOX) end
  if rules.round_ends(game) then
    end_round(game) -- seed 002: "la réserve d'or n'est alors pas répartie"
  elseif size_of(game, zone) == 0 then
    if pile < NPILES then
      rules.share_reserve(game)
      set_counter(game, PILE, 0, pile + 1)
    end
  end
end

--- start_round(game): the setup of seed 002 "Mise en place".
function rules.start_round(game)
  -- Starting wagers: shuffle the ten, give each seat two of different colours, face up, at the start of those
  -- expeditions. Each seat takes the top card, then the topmost card of a colour it does not have yet.
  -- (This never runs short: the parameter check at the top of this file.)
  for c = NPILE_CARDS + 1, NCARDS do move(game, c, STARTING) end
  game:shuffle(STARTING)
  for s = 1, SEATS do
    local have = 0 -- bit k: this seat has a starting wager of colour k
    for _ = 1, P.starting_wagers_each do
      local cards, count = cards_of(game, STARTING, scratch_cards)
      local dealt = false
      for i = count, 1, -1 do
        local c = cards[i]
        if have & (1 << COLOUR[c]) == 0 then
          have = have | (1 << COLOUR[c])
          move(game, c, EXPEDITION[s][COLOUR[c]])
          dealt = true
          break
        end
      end
      if not dealt then error("no starting wager of a new colour is left for seat " .. s .. ": check the parameters") end
    end
  end
  for _ = 1, size_of(game, STARTING) do move_top(game, STARTING, BOX) end
  -- The 65 expedition cards and 15 wagers, shuffled and split into piles of sizes as equal as possible (the
  -- first piles take the extra cards: ASSUMED). Pile 1 is the draw pile.
  for c = 1, NPILE_CARDS do move(game, c, PILE_ZONE[1]) end
  game:shuffle(PILE_ZONE[1])
  local base, extra = NPILE_CARDS // NPILES, NPILE_CARDS % NPILES
  for p = 2, NPILES do
    for _ = 1, base + (p <= extra and 1 or 0) do move_top(game, PILE_ZONE[1], PILE_ZONE[p]) end
  end
  -- The coins, shared equally; a remainder (never with 36 coins and 2-4 players) starts in the reserve.
  local each = P.coins // SEATS
  for s = 1, SEATS do
    set_counter(game, COINS, s, each)
    set_counter(game, PASSED, s, 0)
  end
  set_counter(game, COINS, 0, P.coins - each * SEATS)
  set_counter(game, BID, 0, 0)
  set_counter(game, HIGH, 0, 0)
  set_counter(game, BOXED, 0, 0)
  set_counter(game, PILE, 0, 1)
  set_phase(game, TURN)
  game:set_to_move(1) -- "le dernier joueur à avoir fêté son anniversaire": seat 1
end

--- actions(game, out) -> count.
--- TURN: reveal, then auction N for each N from the minimum to the seat's coins (if the river is not empty).
--- BIDDING: pass, then bid N for each N above the current bid up to the bidder's coins.
--- SPOILS: take C for each distinct river card the winner can add, box C for each distinct river card (if
--- none boxed yet), done. Copies of a card are one action (the leftmost copy), so every text is unique.
function rules.actions(game, out)
  local phase = phase_of(game)
  local seat = to_move_of(game)
  local n = 0
  if phase == TURN then
    n = 1
    out[1] = REVEAL
    if not NEEDS_RIVER or size_of(game, RIVER) > 0 then
      for b = rules.lowest_opening_bid(game, seat), counter_of(game, COINS, seat) do
        n = n + 1
        out[n] = AUCTION + b
      end
    end
  elseif phase == BIDDING then
    n = 1
    out[1] = PASS
    for b = rules.lowest_raise(game, seat), counter_of(game, COINS, seat) do
      n = n + 1
      out[n] = BID_BASE + b
    end
  else
    local COLOUR, LIMIT, NAME_BIT = COLOUR, LIMIT, NAME_BIT
    local river, count = cards_of(game, RIVER, scratch_cards)
    local seen = 0
    if rules.may_add == base_may_add then -- the fast path: the base rule with the tops read once
      local tops = tops_of(game, EXPEDITION[seat], scratch_tops)
      local top_values = scratch_top_values
      for k = 1, NCOLOURS do
        local top = tops[k]
        top_values[k] = top and VALUE[top] or -1
      end
      for i = 1, count do
        local c = river[i]
        local bit = NAME_BIT[c]
        if seen & bit == 0 then
          seen = seen | bit
          if top_values[COLOUR[c]] <= LIMIT[c] then
            n = n + 1
            out[n] = TAKE + c
          end
        end
      end
    else -- a variant's rule
      local may_add = rules.may_add
      for i = 1, count do
        local c = river[i]
        local bit = NAME_BIT[c]
        if seen & bit == 0 then
          seen = seen | bit
          if may_add(game, seat, c) then
            n = n + 1
            out[n] = TAKE + c
          end
        end
      end
    end
    if counter_of(game, BOXED) == 0 then
      seen = 0
      for i = 1, count do
        local c = river[i]
        local bit = NAME_BIT[c]
        if seen & bit == 0 then
          seen = seen | bit
          n = n + 1
          out[n] = BOX_BASE + c
        end
      end
    end
    n = n + 1
    out[n] = DONE
  end
  return n
end

--- The winner of an auction pays the bid into the reserve and takes the spoils.
local function win(game, winner)
  rules.pay_bid(game, winner, counter_of(game, BID))
  set_counter(game, HIGH, 0, winner)
  set_phase(game, SPOILS)
  set_to_move(game, winner)
end

--- After `seat` opened, bid or passed: the auction ends when rules.auction_winner names a winner; otherwise
--- rules.next_bidder bids.
local function next_bidder(game, seat)
  local winner = rules.auction_winner(game)
  if winner then
    win(game, winner)
    return
  end
  set_to_move(game, rules.next_bidder(game, seat))
end

function rules.apply(game, action)
  local seat = to_move_of(game)
  if action == REVEAL then
    set_to_move(game, rules.next_seat(game, seat))
    reveal(game)
  elseif action < BID_BASE and action > AUCTION then
    for s = 1, SEATS do set_counter(game, PASSED, s, 0) end
    set_counter(game, BID, 0, action - AUCTION)
    set_counter(game, HIGH, 0, seat)
    set_counter(game, BOXED, 0, 0)
    set_phase(game, BIDDING)
    next_bidder(game, seat)
  elseif action < TAKE and action > BID_BASE then
    set_counter(game, BID, 0, action - BID_BASE)
    set_counter(game, HIGH, 0, seat)
    next_bidder(game, seat)
  elseif action == PASS then
    set_counter(game, PASSED, seat, 1)
    next_bidder(game, seat)
  elseif action > BOX_BASE then
    move(game, action - BOX_BASE, BOX)
    set_counter(game, BOXED, 0, 1)
  elseif action > TAKE then
    local c = action - TAKE
    move(game, c, EXPEDITION[seat][COLOUR[c]])
  else -- DONE: the winner reveals a card; the seat on the winner's left starts the next turn.
    for s = 1, SEATS do set_counter(game, PASSED, s, 0) end
    set_counter(game, BID, 0, 0)
    set_counter(game, HIGH, 0, 0)
    set_counter(game, BOXED, 0, 0)
    set_phase(game, TURN)
    set_to_move(game, rules.next_seat(game, seat))
    reveal(game)
  end
end

function rules.action_text(game, action)
  if action == REVEAL then return "reveal" end
  if action == PASS then return "pass" end
  if action == DONE then return "done" end
  if action > BOX_BASE then return "box " .. NAME[action - BOX_BASE] end
  if action > TAKE then return "take " .. NAME[action - TAKE] end
  if action > BID_BASE then return "bid " .. (action - BID_BASE) end
  return "auction " .. (action - AUCTION)
end

--- The score of one expedition (seed 002 "Fin de la partie et décompte"): footprints x (1 + wagers, starting
--- wagers included), plus the bonus for bonus_numbers or more number cards, not multiplied.
local function column_score(game, zone)
  local cards, count = cards_of(game, zone, scratch_cards2)
  if count == 0 then return 0 end
  local feet, wagers, numbers = 0, 0, 0
  for i = 1, count do
    local c = cards[i]
    if VALUE[c] == 0 then
      wagers = wagers + 1
    else
      feet = feet + FEET[c]
      numbers = numbers + 1
    end
  end
  return feet * (1 + wagers) + (numbers >= BONUS_NUMBERS and BONUS or 0)
end

--- score(game, seat) -> integer: the seat's expeditions plus its coins (the match has one round, so this is
--- the final score).
function rules.score(game, seat)
  local total = counter_of(game, COINS, seat) * COIN_POINTS
  for k = 1, NCOLOURS do total = total + column_score(game, EXPEDITION[seat][k]) end
  return total
end

--- What the river would add to the seat's expeditions if it took every card it can (in rising order all of
--- them fit at once), minus nothing: an estimate for the greedy bot's bidding.
local function river_gain(game, seat)
  local gain = 0
  local river, count = cards_of(game, RIVER, scratch_cards)
  for k = 1, NCOLOURS do
    local zone = EXPEDITION[seat][k]
    local add_feet, add_wagers, add_numbers = 0, 0, 0
    for i = 1, count do
      local c = river[i]
      if COLOUR[c] == k and rules.may_add(game, seat, c) then
        if VALUE[c] == 0 then add_wagers = add_wagers + 1
        else
          add_feet = add_feet + FEET[c]
          add_numbers = add_numbers + 1
        end
      end
    end
    if add_feet + add_wagers > 0 then
      local cards, n = cards_of(game, zone, scratch_cards2)
      local feet, wagers, numbers = 0, 0, 0
      for i = 1, n do
        local c = cards[i]
        if VALUE[c] == 0 then wagers = wagers + 1 else feet, numbers = feet + FEET[c], numbers + 1 end
      end
      local before = feet * (1 + wagers) + (numbers >= BONUS_NUMBERS and BONUS or 0)
      feet, wagers, numbers = feet + add_feet, wagers + add_wagers, numbers + add_numbers
      gain = gain + feet * (1 + wagers) + (numbers >= BONUS_NUMBERS and BONUS or 0) - before
    end
  end
  return gain
end

--- heuristic(game, seat): the bots' estimate of the seat's final score (heuristic.lua: the score, the auction the seat
--- is winning, and what its expeditions may still gain).
rules.heuristic = require("heuristic")(rules, {
  SEATS = SEATS, NCOLOURS = NCOLOURS, NCARDS = NCARDS, NPILE_CARDS = NPILE_CARDS, COLOUR = COLOUR, VALUE = VALUE,
  FEET = FEET, EXPEDITION = EXPEDITION, RIVER = RIVER, BOX = BOX, HIGH = HIGH, BID = BID, BIDDING = BIDDING,
  PASSED = PASSED, COINS = COINS,
  MIN_VALUE = P.min_value, MAX_VALUE = P.max_value, cards_of = cards_of, counter_of = counter_of,
  phase_of = phase_of, river_gain = river_gain, COIN_POINTS = COIN_POINTS,
})

local function seat_list(game, counter, value)
  local list = {}
  for s = 1, SEATS do
    if counter_of(game, counter, s) == value then list[#list + 1] = "seat " .. s end
  end
  return #list > 0 and table.concat(list, ", ") or "nobody"
end

--- invariants(game) -> nil, or a message naming the first broken invariant.
function rules.invariants(game)
  local total = counter_of(game, COINS, 0)
  if total < 0 then return "the reserve holds " .. total .. " coins" end
  for s = 1, SEATS do
    local coins = counter_of(game, COINS, s)
    if coins < 0 then return "seat " .. s .. " holds " .. coins .. " coins" end
    total = total + coins
  end
  -- (the invariants of the base rules: a variant that replaces rules.pay_bid, rules.share_reserve or
  -- rules.may_add states its own)
  local base_coins = rules.pay_bid == base_pay_bid and rules.share_reserve == base_share_reserve
  if base_coins and total ~= P.coins then return "the coins add up to " .. total .. ", not " .. P.coins end
  for s = 1, SEATS do
    local starting = 0
    for k = 1, NCOLOURS do
      local last, here = -1, 0
      for _, c in ipairs(game:cards(EXPEDITION[s][k])) do
        if COLOUR[c] ~= k then return NAME[c] .. " lies on seat " .. s .. "'s " .. COLOURS[k] .. " expedition" end
        -- (a wager, value 0, after a number is lower than it: one comparison covers both rules)
        if rules.may_add == base_may_add and last > VALUE[c] then
          return "seat " .. s .. "'s " .. COLOURS[k] .. " expedition does not rise at " .. NAME[c]
        end
        if CARD[c].kind == "starting" then
          starting, here = starting + 1, here + 1
          if here > 1 then return "seat " .. s .. " has two starting wagers of one colour, " .. COLOURS[k] end
        end
        last = VALUE[c]
      end
    end
    if starting ~= P.starting_wagers_each then
      return "seat " .. s .. " has " .. starting .. " starting wagers, not " .. P.starting_wagers_each
    end
  end
  for _, c in ipairs(game:cards(RIVER)) do
    if CARD[c].kind == "starting" then return "a starting wager lies in the river" end
  end
  if game:size(STARTING) ~= 0 then return "starting wagers are left undealt" end
  local pile = counter_of(game, PILE)
  if pile < 1 or pile > NPILES then return "the current pile is " .. pile end
  for p = 1, pile - 1 do
    if game:size(PILE_ZONE[p]) ~= 0 then return "pile " .. p .. " still has cards after pile " .. pile .. " began" end
  end
  if game:over() then return nil end
  if game:size(PILE_ZONE[pile]) == 0 then return "the draw pile " .. pile .. " is empty and the game goes on" end
  local phase, bid, high, seat = phase_of(game), counter_of(game, BID), counter_of(game, HIGH), to_move_of(game)
  if phase == TURN then
    if bid ~= 0 or high ~= 0 or counter_of(game, BOXED) ~= 0 then return "auction counters are set outside an auction" end
  elseif phase == BIDDING then
    -- (each as the named rules say: a variant that changes who is in the auction changes these with it)
    if high < 1 or high > SEATS then return "the high bidder is " .. high end
    if bid < rules.lowest_opening_bid(game, high) then return "the bid is " .. bid end
    if not rules.in_auction(game, high) then return "the high bidder is " .. high .. ", who is out of the auction" end
    if bid > counter_of(game, COINS, high) then return "seat " .. high .. " bid more coins than it holds" end
    if seat == high or not rules.in_auction(game, seat) then return "seat " .. seat .. " may not bid now" end
  elseif phase == SPOILS then
    if seat ~= high then return "seat " .. seat .. " takes the spoils of seat " .. high .. "'s auction" end
  else
    return "unknown phase " .. phase
  end
  return nil
end

--- Finds the leftmost river card named `object` (lower case), or nil.
local function river_card(game, object)
  for _, c in ipairs(game:cards(RIVER)) do
    if string.lower(NAME[c]) == object then return c end
  end
end

local function is_card_name(object)
  for c = 1, NCARDS do
    if string.lower(NAME[c]) == object then return true end
  end
  return false
end

--- verb_and_object(text) -> verb, object: "play Y7" -> "play", "y7"; one word splits after its letters
--- ("draw" -> "draw", ""); anything else -> nil. Linear in the length of `text` (houserules.words, issue 18).
local function verb_and_object(text)
  local words = hr.words(text, 2)
  if not words or not words[1] then return nil end
  if words[2] then
    if string.find(words[1], "^%a+$") then return words[1], words[2] end
    return nil
  end
  return string.match(words[1], "^(%a+)(%S*)$")
end

--- explain(game, text) -> string: why `text` is not legal now, in one line.
function rules.explain(game, text)
  local verb, object = verb_and_object(text)
  local phase, seat = phase_of(game), to_move_of(game)
  local coins = counter_of(game, COINS, seat)
  local bid, high = counter_of(game, BID), counter_of(game, HIGH)
  local amount = object and math.tointeger(tonumber(object))
  local hint
  if phase == TURN then hint = "it is your turn: reveal, or auction <coins> to open an auction"
  elseif phase == BIDDING then hint = string.format("seat %d bids %d: bid <more coins> or pass", high, bid)
  else hint = "you won the auction: take <card>, box <card> or done" end
  if verb == "reveal" or verb == "auction" then
    if phase == BIDDING then return "an auction is under way (" .. hint .. ")" end
    if phase == SPOILS then return "the bidding is over: " .. hint end
    if verb == "reveal" then return hint end
    if not amount then return "auction needs a number of coins, e.g. auction " .. MIN_BID end
    if NEEDS_RIVER and game:size(RIVER) == 0 then return "the river is empty: there is nothing to bid for (reveal)" end
    local lowest = rules.lowest_opening_bid(game, seat)
    if amount < lowest then return "the opening bid is at least " .. lowest .. " coin" .. (lowest == 1 and "" or "s") end
    if amount > coins then return "you have only " .. coins .. " coins" end
  elseif verb == "bid" or verb == "pass" then
    if phase ~= BIDDING then
      if phase == TURN then return "no auction is under way: open one with auction <coins>, or reveal" end
      return "the bidding is over: " .. hint
    end
    if verb == "bid" then
      local lowest = rules.lowest_raise(game, seat)
      if not amount then return "bid needs a number of coins, e.g. bid " .. lowest end
      if amount < lowest then
        return string.format("a bid must be at least %d (the current bid is %d, by seat %d)", lowest, bid, high)
      end
      if amount > coins then return "you have only " .. coins .. " coins" end
    end
  elseif verb == "take" or verb == "box" or verb == "done" then
    if phase ~= SPOILS then return "only the winner of an auction takes or boxes river cards, after the bidding (" .. hint .. ")" end
    if verb == "done" then return hint end
    local c = river_card(game, object)
    if not c then
      if is_card_name(object) then return string.upper(object) .. " is not in the river" end
      return "'" .. object .. "' is not a card (e.g. Y7, Bx)"
    end
    if verb == "box" then return "you have boxed a river card in this auction already (one at most)" end
    local k = COLOUR[c]
    local top = game:top(EXPEDITION[seat][k])
    if rules.may_add ~= base_may_add then -- a variant's rule: no base-rule reason to give
      return NAME[c] .. " may not go on your " .. COLOURS[k] .. " expedition now (this variant's rules.may_add)"
    end
    if VALUE[c] == 0 then
      return "wagers go only before the number cards of an expedition (your " .. COLOURS[k] .. " expedition has " .. NAME[top] .. ")"
    end
    return NAME[c] .. " cannot follow " .. NAME[top] .. " on your " .. COLOURS[k] .. " expedition (equal or higher only)"
  end
  return "'" .. text .. "' is not an action now: " .. hint
end

local function card_list_text(game, zone)
  local names = {}
  for i, c in ipairs(game:cards(zone)) do names[i] = CARD[c].name end
  return #names > 0 and table.concat(names, " ") or "-"
end

local function plural(n, word)
  return n == 1 and ("1 " .. word) or (n .. " " .. word .. "s")
end

--- score_breakdown(game, seat) -> string: how rules.score reaches the seat's score (seed 002 "Fin de la
--- partie et décompte"): each expedition's footprints x (1 + wagers) plus its bonus, then the coins.
function rules.score_breakdown(game, seat)
  local lines = {}
  for k = 1, NCOLOURS do
    local zone = EXPEDITION[seat][k]
    if game:size(zone) > 0 then
      local feet, wagers, numbers = 0, 0, 0
      for _, c in ipairs(game:cards(zone)) do
        if VALUE[c] == 0 then wagers = wagers + 1 else feet, numbers = feet + FEET[c], numbers + 1 end
      end
      local text = string.format("%-7s %s: %s", COLOURS[k], card_list_text(game, zone), plural(feet, "footprint"))
      if wagers > 0 then text = text .. string.format(" x%d (%s)", 1 + wagers, plural(wagers, "wager")) end
      if numbers >= BONUS_NUMBERS then text = text .. string.format(", +%d bonus (%d number cards)", BONUS, numbers) end
      lines[#lines + 1] = text .. " = " .. column_score(game, zone)
    end
  end
  local coins = game:counter(COINS, seat)
  lines[#lines + 1] = string.format("coins   %s x %d = %d", plural(coins, "coin"), COIN_POINTS, coins * COIN_POINTS)
  return table.concat(lines, "\n")
end

--- turn_summary(view, seat, turn) -> string: the line `play` prints for `seat`'s actions as the viewer saw
--- them (docs/writing-rules.md, hooks). Seed 002 "Déroulement de la partie": a seat reveals a card
--- ("Découvrir": into the river, or boxed when nobody can use it) or opens an auction ("Enchérir"); the
--- bidders bid or pass until one is left, who pays the bid into the gold reserve, takes river cards, boxes
--- at most one and reveals the next card. When a pile runs out the reserve is shared equally ("Lorsque la
--- dernière carte de la pioche est révélée"). The line names the card revealed, the winner and the price,
--- the cards taken or boxed and the reserve shared; all of it is public.
function rules.turn_summary(view, seat, turn)
  local function who(s) return (s == turn.viewer and turn.you) and "you" or ("seat " .. s) end
  local revealed = {} -- cards that came out of a pile (unknown before) this turn, in zone order
  for _, m in ipairs(turn.moved) do
    if not m.from then revealed[#revealed + 1] = m end
  end
  local parts, bidding = {}, false
  local function reveal_text()
    local m = table.remove(revealed, 1)
    if not m then return "revealed a card" end
    if m.to == BOX then return string.format("revealed %s (no one can use it: boxed)", NAME[m.card]) end
    return string.format("revealed %s into the river", NAME[m.card])
  end
  for _, text in ipairs(turn.actions) do
    local verb, object = text:match("^(%S+) ?(%S*)$")
    if verb == "reveal" then
      parts[#parts + 1] = reveal_text()
    elseif verb == "auction" then
      bidding = true
      parts[#parts + 1] = string.format("opened an auction at %s", plural(tonumber(object) or 0, "coin"))
    elseif verb == "bid" then
      bidding = true
      parts[#parts + 1] = string.format("bid %s", plural(tonumber(object) or 0, "coin"))
    elseif verb == "pass" then
      bidding = true
      parts[#parts + 1] = "passed"
    elseif verb == "take" then
      local c = nil
      for _, m in ipairs(turn.moved) do
        if NAME[m.card] == object and m.from == RIVER and m.to ~= BOX then c = m end
      end
      parts[#parts + 1] = c and string.format("took %s (%s: %s)", object, COLOURS[COLOUR[c.card]], card_list_text(view, c.to))
        or ("took " .. object)
    elseif verb == "box" then
      parts[#parts + 1] = "boxed " .. object
    elseif verb == "done" then
      parts[#parts + 1] = reveal_text()
    else
      parts[#parts + 1] = text
    end
  end
  -- The auction ended during these actions: the winner, the price and the reserve it went into.
  if bidding and view:phase() == SPOILS then
    parts[#parts + 1] = string.format("%s won the auction for %s (gold reserve now %d)", who(view:counter(HIGH)),
      plural(view:counter(BID), "coin"), view:counter(COINS, 0))
  end
  -- A pile ran out: the reserve shared (seed 002), or the game's end.
  local reserve, gains = nil, {}
  for _, c in ipairs(turn.counters) do
    if c.name == "coins" and c.owner == 0 and c.after < c.before then reserve = c end
    if c.name == "coins" and c.owner > 0 and c.after > c.before then gains[#gains + 1] = c.after - c.before end
  end
  if reserve and #gains > 0 then
    parts[#parts + 1] = string.format("a pile ran out: the gold reserve (%s) shared, %s each, %d left in it",
      plural(reserve.before, "coin"), plural(gains[1], "coin"), reserve.after)
  end
  if view:counter(PILE) == NPILES and view:size(PILE_ZONE[NPILES]) == 0 then
    parts[#parts + 1] = "the last pile ran out: the game is over"
  end
  return table.concat(parts, "; ")
end

--- describe(view, seat) -> string: the table as `seat` sees it.
function rules.describe(view, seat)
  local lines = {}
  local function add(...) lines[#lines + 1] = string.format(...) end
  local pile = view:counter(PILE)
  local waiting = {}
  for p = pile + 1, NPILES do waiting[#waiting + 1] = tostring(view:size(PILE_ZONE[p])) end
  add("Pile %d of %d: %s left (waiting piles: %s) - gold reserve: %s", pile, NPILES,
      plural(view:size(PILE_ZONE[pile]), "card"), #waiting > 0 and table.concat(waiting, ", ") or "none",
      plural(view:counter(COINS, 0), "coin"))
  local river = "River (left to right): " .. card_list_text(view, RIVER)
  while #river > 100 do -- a long river goes on under it: a 100-column terminal
    local cut = river:sub(1, 101):match("^.*() ")
    lines[#lines + 1] = river:sub(1, cut - 1)
    river = "      " .. river:sub(cut + 1)
  end
  lines[#lines + 1] = river
  for s = 1, SEATS do
    add("Seat %d%s: %s, score %d", s, s == seat and " (you)" or "", plural(view:counter(COINS, s), "coin"),
        rules.score(view, s))
    for k = 1, NCOLOURS do
      local zone = EXPEDITION[s][k]
      if view:size(zone) > 0 then
        add("  %-7s %s  = %s", COLOURS[k], card_list_text(view, zone), plural(column_score(view, zone), "point"))
      end
    end
  end
  local phase, to_move = view:phase(), view:to_move()
  if phase == TURN then
    add("Seat %d to move: reveal, or auction <coins>", to_move)
  elseif phase == BIDDING then
    add("Auction: high bid %d by seat %d; passed: %s; seat %d to bid or pass", view:counter(BID), view:counter(HIGH),
        seat_list(view, PASSED, 1), to_move)
  else
    add("Seat %d won the auction for %s: take river cards, box %s, then done", to_move, plural(view:counter(BID), "coin"),
        view:counter(BOXED) == 0 and "one (optional)" or "(used)")
  end
  add("Scoring: footprints (%s) x (1 + wagers), +%d for %d+ number cards, +%d per coin", FOOTPRINT_TEXT, BONUS,
      BONUS_NUMBERS, COIN_POINTS)
  add("Cards: Ys = starting wager (counts as a wager), Yx = wager, Y2..Y10 = numbers (Y B W G R: colours)")
  return table.concat(lines, "\n") .. "\n"
end

return rules
