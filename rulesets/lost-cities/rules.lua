-- Lost Cities, the 2-player card game, as a houserules rules script.
-- Rules: seeds 001 and 003 (../shared/seeds/), digest ../shared/rules/lost-cities.md; parameters in ruleset.toml.
--
-- Zones: deck (hidden), hand.<seat> (owner), expedition.<seat>.<colour> (public), discard.<colour> (top), box.
-- With teams (params.teams, seed 003's 4-player variant) partners share expedition.<team letter>.<colour>.
-- A turn is two actions by the same seat: place (play or discard a card), then draw.
-- With params.final_placements > 0 (seed 003's 3- and 4-player variants), when the deck runs out every
-- player in turn takes one last turn placing up to that many cards on their expeditions, or passes.
-- Action kinds (rules.encoding, docs/writing-rules.md "Action kinds and phases by name"): play {card},
-- discard {card}, draw {pile} (deck or a colour), pass, and last_play {card} in a last turn. Texts: "play Y7",
-- "discard Rx", "draw deck", "draw G", "pass". Their codes are the historic ones (play card c -> c; discard
-- -> 100 + c; draw deck -> 200, draw colour k -> 200 + k; pass -> 300; last_play -> 400 + c).
--
-- The rulebook's sentences a house rule may replace (README.md, "For variant authors"): may_play, may_draw,
-- column_score, round_ends, deck_ran_out, next_round_leader. actions, apply, explain, invariants, score,
-- describe and the heuristic all ask them, so replacing one changes every one of those together. While one
-- is the base function, the hooks take a fast path that gives the same answers without calling it.

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

-- Plain arrays for the hot paths (constants computed once at load; rules never change them).
local COLOUR, VALUE, NAME = {}, {}, {}
-- Card c may be played on an expedition whose top value is t (-1 empty, 0 only wagers, else the last number)
-- exactly when t < PLAY_BELOW[c]: a number must be strictly higher than the last number, a wager goes only
-- before any number (seed 003 "Poser une carte dans une rangée").
local PLAY_BELOW = {}
for c = 1, NCARDS do
  local card = card_list[c]
  COLOUR[c], VALUE[c], NAME[c] = card.colour_index, card.value, card.name
  PLAY_BELOW[c] = card.wager and 1 or card.value
end

-- Who plays on which expedition columns: each seat its own, or with teams the team's (partners share them).
local TEAMS = P.teams
local COLUMN_OWNERS = {}   -- the names of the column sets: "1", "2" ... or "A", "B"
local COLUMNS_OF_SEAT = {} -- seat -> index into COLUMN_OWNERS
if #TEAMS > 0 then
  if #TEAMS ~= SEATS then error("params.teams gives a team for " .. #TEAMS .. " seats, but " .. SEATS .. " play") end
  for s = 1, SEATS do
    local t = TEAMS[s]
    COLUMN_OWNERS[t] = string.char(64 + t) -- team 1 = A, team 2 = B (seed 003: A1, B1, A2, B2)
    COLUMNS_OF_SEAT[s] = t
  end
else
  for s = 1, SEATS do
    COLUMN_OWNERS[s] = tostring(s)
    COLUMNS_OF_SEAT[s] = s
  end
end

-- Zone groups (constant lists the kernel resolves once, for game:tops and game:sizes): each seat's
-- columns, and the places a draw may take from (the deck, then the discard piles in colour order).
local GROUPS = { draw_sources = { "deck" } }
for k = 1, NCOLOURS do GROUPS.draw_sources[k + 1] = "discard." .. COLOURS[k] end
for o = 1, #COLUMN_OWNERS do
  local group = {}
  for k = 1, NCOLOURS do group[k] = "expedition." .. COLUMN_OWNERS[o] .. "." .. COLOURS[k] end
  GROUPS["columns." .. COLUMN_OWNERS[o]] = group
end

local zone_list = { { name = "deck", visibility = "hidden" } }
for s = 1, SEATS do zone_list[#zone_list + 1] = { name = "hand." .. s, owner = s, visibility = "owner" } end
for o = 1, #COLUMN_OWNERS do
  for k = 1, NCOLOURS do
    zone_list[#zone_list + 1] = { name = "expedition." .. COLUMN_OWNERS[o] .. "." .. COLOURS[k], visibility = "public" }
  end
end
for k = 1, NCOLOURS do zone_list[#zone_list + 1] = { name = "discard." .. COLOURS[k], visibility = "top" } end

-- Phases: place a card, then draw one ("poser une carte", then "piocher", seed 001). The draw phase is DRAW,
-- or DRAW + k after discarding to colour k's pile, which may not be drawn from in the same turn (seed 003).
-- LAST_TURN: a last turn after the deck ran out (params.final_placements > 0).
local PLACE <const> = 0
local LAST_TURN <const> = 1
local DRAW <const> = 10

local declared = hr.declare {
  components = card_list,
  zones = zone_list,
  counters = {
    -- for the last turns after the deck ran out (params.final_placements > 0): how many players still have
    -- their last turn, and how many cards the player to move placed in it
    { name = "last_turns_left" },
    { name = "last_turn_placed" },  -- (under a house rule's turn rules, both count the turn's places and draws)
  },
  teams = #TEAMS > 0 and TEAMS or nil,
  rounds = P.rounds,
  groups = GROUPS,
  -- the phases' names for scenario files (`phase = "draw"`), game:phase_name() and `describe`: "draw" spans
  -- DRAW .. DRAW + NCOLOURS (after discarding to colour k the phase is DRAW + k: seed 003's "not the pile just
  -- discarded to"), so every phase of a turn has a name
  phases = { place = PLACE, last_turn = LAST_TURN, draw = { DRAW, DRAW + NCOLOURS } },
  -- the same three lists for the kernel, which reads them in C (game:tops, game:append_cards)
  maps = { colour = COLOUR, value = VALUE, play_below = PLAY_BELOW },
}

local CARD = declared.components
local COLOUR_MAP, VALUE_MAP, PLAY_BELOW_MAP = declared.maps.colour, declared.maps.value, declared.maps.play_below
local LETTER, COLOUR_OF_LETTER = {}, {}
for k = 1, NCOLOURS do
  LETTER[k] = P.letters[COLOURS[k]]
  COLOUR_OF_LETTER[string.lower(LETTER[k])] = k
end
local Z = declared.zones
local DECK = Z.deck
local HAND, EXPEDITION, DISCARD = {}, {}, {}
local COLUMN_SET = {} -- column-set index (seat, or team) -> the zone of each colour
for o = 1, #COLUMN_OWNERS do
  COLUMN_SET[o] = {}
  for k = 1, NCOLOURS do COLUMN_SET[o][k] = Z["expedition." .. COLUMN_OWNERS[o] .. "." .. COLOURS[k]] end
end
local COLUMN_GROUP = {} -- seat -> the zone group of its columns
for s = 1, SEATS do
  HAND[s] = Z["hand." .. s]
  EXPEDITION[s] = COLUMN_SET[COLUMNS_OF_SEAT[s]]
  COLUMN_GROUP[s] = declared.groups["columns." .. COLUMN_OWNERS[COLUMNS_OF_SEAT[s]]]
end
local DRAW_SOURCES_GROUP = declared.groups.draw_sources
for k = 1, NCOLOURS do DISCARD[k] = Z["discard." .. COLOURS[k]] end
local DRAW_SOURCES, COLOUR_OF_PILE = { DECK }, {} -- the zones of the draw_sources group; pile zone -> colour
for k = 1, NCOLOURS do DRAW_SOURCES[k + 1], COLOUR_OF_PILE[DISCARD[k]] = DISCARD[k], k end
local SEATS_OF_COLUMNS = {} -- column-set index -> the seats playing on it
for o = 1, #COLUMN_OWNERS do SEATS_OF_COLUMNS[o] = {} end
for s = 1, SEATS do table.insert(SEATS_OF_COLUMNS[COLUMNS_OF_SEAT[s]], s) end
local ALL_HANDS = {}
for s = 1, SEATS do ALL_HANDS[s] = HAND[s] end

-- One constant per statement: Lua folds only the last name of `local A <const>, B <const> = ...` into the code
-- that uses it (docs/writing-rules.md, "Speed").
local LAST_TURNS_LEFT <const> = 1 -- counter numbers
local LAST_TURN_PLACED <const> = 2
local DRAW_LAST = DRAW + NCOLOURS
local DISCARD_BASE <const> = 100
local DRAW_DECK <const> = 200
local PASS <const> = 300
local LAST_TURN_PLAY_BASE <const> = 400
local FINAL_PLACEMENTS = P.final_placements
local COST, BONUS, THRESHOLD = P.expedition_cost, P.bonus, P.bonus_threshold

-- The game's methods bound to locals for the hot hooks: `top(game, z)` is `game:top(z)` without the
-- method look-up (docs/writing-rules.md, "Speed").
local G = hr.game
local nonempty, append_cards, append_allowed, size_of, cards_of = G.nonempty, G.append_cards, G.append_allowed, G.size, G.cards
local to_move_of, phase_of = G.to_move, G.phase
local move, move_top, set_counter, set_phase, set_to_move, end_round =
  G.move, G.move_top, G.set_counter, G.set_phase, G.set_to_move, G.end_round

local rules = {}

--- The kinds of action and the phases, by name (houserules.encoding): records such as {kind = "draw",
--- pile = "green"} for rules.encoding:read(action); a house rule adds its own kinds and phases to it.
local ENC = hr.encoding()
rules.encoding = ENC
ENC:phase("place", PLACE)
ENC:phase("last_turn", LAST_TURN)
ENC:phase("draw", DRAW, DRAW_LAST)
local PILE_NAMES, PILE_TEXTS = { "deck" }, { "deck" }
for k = 1, NCOLOURS do PILE_NAMES[k + 1], PILE_TEXTS[k + 1] = COLOURS[k], P.letters[COLOURS[k]] end
ENC:kind { name = "play", code = 1, args = { { name = "card", cards = true } }, text = "play {card}" }
ENC:kind { name = "discard", code = DISCARD_BASE + 1, args = { { name = "card", cards = true } }, text = "discard {card}" }
ENC:kind { name = "draw", code = DRAW_DECK, args = { { name = "pile", values = PILE_NAMES, texts = PILE_TEXTS } },
  text = "draw {pile}" }
ENC:kind { name = "pass", code = PASS, text = "pass" }
ENC:kind { name = "last_play", code = LAST_TURN_PLAY_BASE + 1, args = { { name = "card", cards = true } },
  text = "play {card}" }
local OFFERED = ENC.offered -- the kinds a house rule adds (empty in the base game)
local LAST_BASE_CODE = LAST_TURN_PLAY_BASE + NCARDS

--- The base ruleset's numbers, kept for variants written before rules.encoding (use that instead): phases (PLACE, LAST_TURN, DRAW: the draw
--- phase is DRAW + k after discarding to colour k), action codes (a play is the card number; DISCARD_BASE + c;
--- DRAW_DECK, DRAW_DECK + k; PASS; LAST_TURN_PLAY_BASE + c), and per seat the zone numbers of its hand and
--- of its expedition columns in colour order (shared by partners with teams).
rules.constants = {
  PLACE = PLACE, LAST_TURN = LAST_TURN, DRAW = DRAW,
  DISCARD_BASE = DISCARD_BASE, DRAW_DECK = DRAW_DECK, PASS = PASS, LAST_TURN_PLAY_BASE = LAST_TURN_PLAY_BASE,
  hand_of_seat = HAND, columns_of_seat = EXPEDITION,
}

local COLOUR_NUMBER = {} -- colour name -> its number k
for k = 1, NCOLOURS do COLOUR_NUMBER[COLOURS[k]] = k end

--- rules.expedition_of(seat, colour) -> zone: the zone of `seat`'s expedition of `colour` (a colour name of
--- params.colours, e.g. "yellow"; partners share theirs with `teams`), for game:cards(zone) and the like. A
--- reader for variants (no integer code, no zone name to build), not an extension point; nil for an unknown colour.
function rules.expedition_of(seat, colour)
  local k = COLOUR_NUMBER[colour]
  return k and EXPEDITION[seat][k]
end

--- start_round(game): gather all cards into the deck, shuffle, deal `hand_size` to each player (seed 001
--- PREPARATION). Round 1 is started by seat 1 (the oldest player, seed 001); later rounds by the player with
--- the higher total so far (seed 003 FIN DU JEU), seat 1 on a tie (ASSUMED: the seeds give no tie-break).
local refresh_paths -- defined below, with the base functions it compares with
local fast_turn = false -- (refresh_paths: the turn is the base one, rules.turn_budget and rules.next_seat)
function rules.start_round(game)
  refresh_paths()
  game:gather(DECK)
  game:shuffle(DECK)
  game:deal(DECK, ALL_HANDS, P.hand_size)
  game:set_phase(PLACE)
  game:set_to_move(game:round() > 1 and rules.next_round_leader(game) or 1)
  if not fast_turn then -- (a house rule's turn is counted in them: turn_step)
    game:set_counter(LAST_TURN_PLACED, 0, 0)
    game:set_counter(LAST_TURNS_LEFT, 0, 0)
  end
end

--- next_round_leader(game) -> seat: who starts rounds 2, 3...: the player with the higher total so far (seed
--- 003 FIN DU JEU: "celui qui a le plus de points commence"), seat 1 on a tie (ASSUMED: the seeds give no
--- tie-break). Called by start_round from round 2 on, the match totals already counting the last round.
function rules.next_round_leader(game)
  local leader = 1
  for s = 2, SEATS do
    if game:match_score(s) > game:match_score(leader) then leader = s end
  end
  return leader
end

--- why_not_on(card, top) -> string: why `card` may not go on an expedition whose top card is `top` (a card of the
--- same colour; seed 003 "Poser une carte dans une rangée"), in a sentence to the player. WHY_NOT_ON[card][top]
--- holds it for every such pair, built once at load (why_not_on itself for any other pair): a house rule asking may_play for every card in hand then
--- gets its reasons without building a string per refusal (that cost a variant's legal actions a third of
--- their instructions).
local function why_not_on(card, top)
  local k = COLOUR[card]
  if VALUE[card] == 0 then
    return "wagers go only before the number cards of an expedition (your " .. COLOURS[k] ..
      " expedition has " .. NAME[top] .. ")"
  end
  return NAME[card] .. " must be higher than " .. NAME[top] .. " on your " .. COLOURS[k] .. " expedition"
end
local WHY_NOT_ON = {}
for c = 1, NCARDS do
  WHY_NOT_ON[c] = {}
  for top = 1, NCARDS do
    if COLOUR[top] == COLOUR[c] then WHY_NOT_ON[c][top] = why_not_on(c, top) end
  end
end

--- may_play(game, seat, card, column, n) -> boolean [, reason]: may `seat` lay `card` on its expedition of
--- the card's colour, which holds the cards column[1..n], bottom to top (seed 003 "Poser une carte dans une
--- rangée": the card must be higher than the column's top card column[n], a wager counting as 0, so wagers go
--- only on wagers, before any number). When not, the
--- second result says why, in a sentence to the player. Asked by actions (generic path), explain,
--- invariants (for every card of every column, against the cards below it) and the heuristic.
function rules.may_play(game, seat, card, column, n)
  local last = n > 0 and VALUE[column[n]] or -1
  if last < PLAY_BELOW[card] then return true end
  return false, WHY_NOT_ON[card][column[n]] or why_not_on(card, column[n])
end

--- may_draw(game, seat, pile, discarded) -> boolean [, reason]: may `seat` end its turn by drawing the top
--- card of `pile` (a zone number: the deck or a discard pile); `discarded` is the discard pile it discarded to
--- this turn, nil after a play. The deck, or any discard pile but the one just discarded to (seed 001
--- "piocher"; seed 003), when it holds a card. Asked by actions (generic path) and explain.
function rules.may_draw(game, seat, pile, discarded)
  if pile == DECK then
    if size_of(game, DECK) == 0 then return false, "the deck is empty" end
    return true
  end
  local k = COLOUR_OF_PILE[pile]
  if pile == discarded then
    return false, "you may not draw from the " .. COLOURS[k] .. " discard pile: you just discarded to it"
  end
  if size_of(game, pile) == 0 then return false, "the " .. COLOURS[k] .. " discard pile is empty" end
  return true
end

-- ---- the turn: who moves next, what a turn allows, when the round's end is checked --------------------------

--- turn_so_far(game) -> {placed = n, drawn = m, discarded = colour or nil}: what the seat to move did in this
--- turn so far: the cards it placed and drew, and the pile it discarded to last (rules.discarded_this_turn). A
--- reader for rules (turn_budget) and house rules, not an extension point. (While the turn rules are the base
--- ones the phase tells: nothing in `place`, one card placed in `draw`; a house rule's turn is counted in the
--- counters last_turn_placed and last_turns_left, which the last turns use only after the deck ran out.)
function rules.turn_so_far(game)
  local phase = game:phase()
  local in_draw = phase >= DRAW and phase <= DRAW + NCOLOURS
  local placed, drawn = in_draw and 1 or 0, 0
  if not fast_turn and phase ~= LAST_TURN then
    placed, drawn = game:counter(LAST_TURN_PLACED), game:counter(LAST_TURNS_LEFT)
  end
  return { placed = placed, drawn = drawn, discarded = rules.discarded_this_turn(game) }
end

--- discarded_this_turn(game) -> colour name or nil: the discard pile the seat to move discarded to in this turn
--- (seed 003: it may not draw from it), as the draw phase remembers it; nil before placing and after a play.
--- A reader for rules (turn_budget, may_draw) and house rules, not an extension point.
function rules.discarded_this_turn(game)
  local phase = game:phase()
  return phase > DRAW and phase <= DRAW + NCOLOURS and COLOURS[phase - DRAW] or nil
end

--- next_seat(game, seat) -> seat: who moves after `seat`'s turn (seed 001 DEROULEMENT DE LA PARTIE: the players
--- play in turn, "à tour de rôle": the seat on the left, seat + 1, and seat 1 after the last). Asked when a turn
--- ends (after its last draw, rules.turn_budget) and between last turns (params.final_placements). Not asked
--- for who starts a round (rules.next_round_leader) nor for the last turns' first player (deck_ran_out).
function rules.next_seat(game, seat)
  return seat % SEATS + 1
end

--- turn_budget(game, seat) -> {places = n, draws = m}: what one turn of `seat` allows (seed 001 DEROULEMENT DE
--- LA PARTIE: "poser une carte", then "piocher une carte": one place, then one draw; nothing in the rulebook
--- buys more). Asked as the turn goes, after each place and each draw, with the game as it then is
--- (rules.turn_so_far: what the turn did so far, that step counted), so a house rule may make it depend on
--- the turn so far: while fewer than `places` cards were placed the seat places again, then it draws; after
--- `draws` cards (0: none) the turn passes to rules.next_seat. The pile a seat may not draw from is the one it
--- discarded to last in the turn. Hands keep their size only when a turn draws as many cards as it places.
function rules.turn_budget(game, seat)
  return { places = 1, draws = 1 }
end

--- round_ends(game) -> boolean: does the round end now? Asked after every draw: when the last card of the
--- deck has been drawn (seed 001 FIN DE LA PARTIE: "la partie s'arrete aussitot"). When it does, apply calls
--- rules.deck_ran_out, which ends the round or starts the last turns.
function rules.round_ends(game)
  return size_of(game, DECK) == 0
end

--- column_score(sum, wagers, cards) -> number: the score of one expedition whose number cards add up to
--- `sum`, with `wagers` wager cards and `cards` cards in all (seed 001 FIN DE LA PARTIE, seed 003 FIN DU JEU
--- ET SCORE): none laid -> 0; else (sum - cost) x (1 + wagers), plus the bonus for `bonus_threshold` cards or
--- more, wagers included. Asked by score for each column, and by the heuristic with expected (fractional)
--- values.
function rules.column_score(sum, wagers, cards)
  if cards == 0 then return 0 end
  return (sum - COST) * (1 + wagers) + (cards >= THRESHOLD and BONUS or 0)
end

-- The base sentences, to tell (by identity) whether a variant replaced one: the fast paths run only while not.
local BASE = {
  may_play = rules.may_play, may_draw = rules.may_draw, round_ends = rules.round_ends,
  column_score = rules.column_score, next_seat = rules.next_seat, turn_budget = rules.turn_budget,
}

-- Which fast paths the hot hooks (actions, apply) may take: the point is still the base function and no
-- house rule added a kind of action. Set at the start of every round (variants replace points while they
-- load, before any round), so that a hot hook tests one upvalue instead of looking the function up (which
-- cost the playouts 10%). False until then: the generic path is always right, the fast one only faster.
local fast_play, fast_draw, fast_end = false, false, false
local plain_kinds = false -- no house rule adds a kind of action (ENC:offer has nothing to add)
function refresh_paths()
  local plain = OFFERED[1] == nil
  plain_kinds = plain
  fast_play = plain and rules.may_play == BASE.may_play
  fast_draw = plain and rules.may_draw == BASE.may_draw
  fast_end = rules.round_ends == BASE.round_ends
  fast_turn = rules.next_seat == BASE.next_seat and rules.turn_budget == BASE.turn_budget
end

-- In the draw phase DRAW + k, the position in the draw_sources group of the pile that may not be drawn from
-- (colour k's, just discarded to), 0 for none.
local SKIPPED_SOURCE = { [0] = 0 }
for k = 1, NCOLOURS do SKIPPED_SOURCE[k] = k + 1 end

-- Scratch lists reused by the hot hooks so that they allocate nothing (an allocation costs more than the
-- rest of a hook). They carry nothing from one call to the next: every use overwrites them first.
local scratch_cards, scratch_checked = {}, {}
for c = 1, NCARDS do scratch_cards[c], scratch_checked[c] = 0, 0 end

--- actions(game, out, seat, phase) -> count: fills the kernel's list `out` with the legal actions.
--- Place phase: the plays of the playable cards in hand, bottom to top, then the discards of every card in hand.
--- Draw phase: the deck, then each non-empty discard pile except the one just discarded to. Last turn (after
--- the deck ran out, with params.final_placements > 0): the plays, then pass.
--- Copies of a card (the wagers of one colour) are the same action: only the first copy in the hand is
--- offered, so every legal action has its own text and a transcript's text names exactly one action.
--- `seat` and `phase` are the seat to move and the phase, which the kernel passes; a caller that leaves them
--- out (an older variant calling the parent's hook) gets them read from the game.
--- Kinds a house rule adds (rules.encoding:kind with a phase) follow the ruleset's own, in their phase; in a
--- phase a house rule added, only its kinds are offered.
function rules.actions(game, out, seat, phase)
  phase = phase or phase_of(game)
  if phase >= DRAW then -- (a house rule's phases are negative: rules.encoding:phase)
    if fast_draw then -- the deck (position 1 of the group), then each non-empty discard pile but the one just discarded to
      return nonempty(game, DRAW_SOURCES_GROUP, out, 0, DRAW_DECK - 1, SKIPPED_SOURCE[phase - DRAW])
    end
    seat = seat or to_move_of(game)
    local may_draw, discarded, n = rules.may_draw, DISCARD[phase - DRAW], 0
    for i = 1, #DRAW_SOURCES do
      if may_draw(game, seat, DRAW_SOURCES[i], discarded) then
        n = n + 1
        out[n] = DRAW_DECK - 1 + i
      end
    end
    return ENC:offer(game, out, n, seat, "draw")
  end
  seat = seat or to_move_of(game)
  -- One copy of each card name (copies are the same action). Fast path: a card c is playable when the value
  -- of the last card of the seat's column of its colour (-1 when empty) is below PLAY_BELOW[c].
  local hand, columns = HAND[seat], COLUMN_GROUP[seat]
  local n
  if phase == PLACE then
    if fast_play then -- plays, then every card as a discard
      n = append_cards(game, hand, out, 0, 0, true, COLOUR_MAP, columns, PLAY_BELOW_MAP, VALUE_MAP, -1)
      return append_cards(game, hand, out, n, DISCARD_BASE, true)
    end
    -- a house rule's may_play: asked for each card with its column's cards in one kernel call, which asks it
    -- again only when an earlier answer read the game (game:append_allowed, docs/writing-rules.md)
    n = append_allowed(game, hand, out, 0, 0, true, rules.may_play, seat, COLOUR_MAP, columns)
    n = append_cards(game, hand, out, n, DISCARD_BASE, true)
    if plain_kinds then return n end
    return ENC:offer(game, out, n, seat, "place")
  end
  if phase ~= LAST_TURN then return ENC:offer(game, out, 0, seat, ENC:phase_name(phase)) end -- a house rule's phase
  if fast_play then
    n = append_cards(game, hand, out, 0, LAST_TURN_PLAY_BASE, true, COLOUR_MAP, columns, PLAY_BELOW_MAP, VALUE_MAP, -1)
  else
    n = append_allowed(game, hand, out, 0, LAST_TURN_PLAY_BASE, true, rules.may_play, seat, COLOUR_MAP, columns)
  end
  out[n + 1] = PASS -- a last turn: the plays, then pass
  return ENC:offer(game, out, n + 1, seat, "last_turn")
end

--- deck_ran_out(game): called by apply when a draw ends the round (rules.round_ends: the deck is empty). The
--- round ends at once
--- (seed 001 FIN DE LA PARTIE: "s'arrête aussitôt"); with params.final_placements > 0, every player in turn,
--- starting with the next one, first takes a last turn placing up to that many cards (seed 003, 3 and 4
--- players). A variant may replace it: `rules.deck_ran_out = function(game) ... end`.
function rules.deck_ran_out(game)
  if FINAL_PLACEMENTS > 0 then
    game:set_phase(LAST_TURN)
    game:set_counter(LAST_TURNS_LEFT, 0, SEATS)
    game:set_counter(LAST_TURN_PLACED, 0, 0)
  else
    game:end_round()
  end
end

--- One action of a last turn: a play (counts towards final_placements) or a pass; after the last player's
--- last turn the round ends.
local function last_turn_action(game, seat, action)
  local finished = action == PASS
  if not finished then
    local c = action - LAST_TURN_PLAY_BASE
    move(game, c, EXPEDITION[seat][COLOUR[c]])
    finished = game:add_counter(LAST_TURN_PLACED, 0, 1) >= FINAL_PLACEMENTS
  end
  if finished then
    if game:add_counter(LAST_TURNS_LEFT, 0, -1) == 0 then
      game:end_round()
    else
      game:set_counter(LAST_TURN_PLACED, 0, 0)
      set_to_move(game, fast_turn and seat % SEATS + 1 or rules.next_seat(game, seat))
    end
  end
end

-- Per card: its discard pile, and the draw phase after discarding it; per seat: the zone of its column for
-- each card, and the next seat (lookups instead of arithmetic in apply).
local DISCARD_OF_CARD, DRAW_PHASE_AFTER_DISCARD, COLUMN_OF_CARD, NEXT_SEAT = {}, {}, {}, {}
for c = 1, NCARDS do
  DISCARD_OF_CARD[c] = DISCARD[COLOUR[c]]
  DRAW_PHASE_AFTER_DISCARD[c] = DRAW + COLOUR[c]
end
for s = 1, SEATS do
  COLUMN_OF_CARD[s] = {}
  for c = 1, NCARDS do COLUMN_OF_CARD[s][c] = EXPEDITION[s][COLOUR[c]] end
  NEXT_SEAT[s] = s % SEATS + 1
end

--- The general path of a turn's step while a house rule replaces rules.turn_budget or rules.next_seat (the fast
--- path below gives the same answers for the base ones): after placing, place again while the budget allows,
--- else draw (in `draw_phase`, which remembers the pile discarded to) or, with no draw, end the turn; after a
--- draw, draw again while the budget allows and the round goes on, else end the turn; rules.round_ends is asked
--- after every draw (and at the end of a turn without one).
local function turn_step(game, seat, placed, draw_phase)
  local ends = false
  if placed then
    set_phase(game, draw_phase) -- (rules.discarded_this_turn reads it)
    local n = game:add_counter(LAST_TURN_PLACED, 0, 1)
    local budget = rules.turn_budget(game, seat)
    if n < budget.places then return set_phase(game, PLACE) end
    if budget.draws > 0 then return end
    ends = rules.round_ends(game)
  else
    local m = game:add_counter(LAST_TURNS_LEFT, 0, 1)
    ends = rules.round_ends(game)
    if m < rules.turn_budget(game, seat).draws and not ends then return end
  end
  game:set_counter(LAST_TURN_PLACED, 0, 0)
  game:set_counter(LAST_TURNS_LEFT, 0, 0)
  set_to_move(game, rules.next_seat(game, seat), PLACE)
  if ends then rules.deck_ran_out(game) end
end

--- apply(game, action, seat, phase): place, then draw (rules.turn_budget); the turn passes after the draw to
--- rules.next_seat, and rules.round_ends is asked after every draw. `seat` (the seat to move) is passed by the
--- kernel, and read from the game when left out.
function rules.apply(game, action, seat)
  seat = seat or to_move_of(game)
  if not fast_turn and action < PASS then
    if action < DRAW_DECK then
      local c = action > DISCARD_BASE and action - DISCARD_BASE or action
      move(game, c, action > DISCARD_BASE and DISCARD_OF_CARD[c] or COLUMN_OF_CARD[seat][c])
      return turn_step(game, seat, true, action > DISCARD_BASE and DRAW_PHASE_AFTER_DISCARD[c] or DRAW)
    end
    move_top(game, action == DRAW_DECK and DECK or DISCARD[action - DRAW_DECK], HAND[seat])
    return turn_step(game, seat, false)
  end
  if action < DRAW_DECK then
    if action > DISCARD_BASE then
      local c = action - DISCARD_BASE
      move(game, c, DISCARD_OF_CARD[c])
      set_phase(game, DRAW_PHASE_AFTER_DISCARD[c])
    else
      move(game, action, COLUMN_OF_CARD[seat][action])
      set_phase(game, DRAW)
    end
  elseif action == DRAW_DECK then
    local _, left = move_top(game, DECK, HAND[seat])
    set_to_move(game, NEXT_SEAT[seat], PLACE)
    if fast_end then
      if left == 0 then rules.deck_ran_out(game) end
    elseif rules.round_ends(game) then
      rules.deck_ran_out(game)
    end
  elseif action < PASS then
    move_top(game, DISCARD[action - DRAW_DECK], HAND[seat])
    set_to_move(game, NEXT_SEAT[seat], PLACE)
    if not fast_end and rules.round_ends(game) then rules.deck_ran_out(game) end
  elseif action <= LAST_BASE_CODE then
    last_turn_action(game, seat, action)
  elseif not ENC:apply(game, action, seat) then
    error("apply: action " .. action .. " is of no kind this ruleset knows")
  end
end

--- action_text(game, action) -> string: the text of the action's kind (rules.encoding), e.g. "draw G".
function rules.action_text(game, action)
  return ENC:text(action) or ("action " .. action)
end

--- rules.score_adjustments(game, seat) -> list of {text = "<line>", points = <integer>}: what a seat's round score
--- gains or loses besides its expeditions (a house rule's penalty or bonus; seed 003 "Rien dans les mains" is one,
--- variants/nothing-in-hand). Base: nothing (seed 001 FIN DE LA PARTIE scores the expeditions alone). rules.score
--- adds the points and rules.score_breakdown shows each line, so one replacement changes both.
function rules.score_adjustments(game, seat)
  return {}
end
local base_score_adjustments = rules.score_adjustments

--- The points of a list of score adjustments.
local function adjustment_points(parts)
  local total = 0
  for _, part in ipairs(parts) do total = total + part.points end
  return total
end

--- score(game, seat) -> integer: the sum of rules.column_score over the seat's expedition columns (seed 001
--- FIN DE LA PARTIE: each expedition is scored, then added up), plus the points of rules.score_adjustments.
function rules.score(game, seat)
  local total = rules.score_adjustments == base_score_adjustments and 0
    or adjustment_points(rules.score_adjustments(game, seat))
  local column_score = rules.column_score
  for k = 1, NCOLOURS do
    local cards, count = cards_of(game, EXPEDITION[seat][k], scratch_cards)
    local sum, wagers = 0, 0
    for i = 1, count do
      local v = VALUE[cards[i]]
      if v == 0 then wagers = wagers + 1 else sum = sum + v end
    end
    total = total + column_score(sum, wagers, count)
  end
  return total
end

--- column_name(o, k) -> "expedition.<owner>.<colour>": the zone of the o-th column owner's colour k, for
--- invariants' messages (built only when one is broken).
local function column_name(o, k) return "expedition." .. COLUMN_OWNERS[o] .. "." .. COLOURS[k] end

--- invariants(game) -> nil, or a message naming the first broken invariant (checked by `houserules check`
--- after every action): every card of an expedition is of its colour and rules.may_play allows it on the cards
--- below it (seed 003: rising numbers, wagers first), and in the place and draw phases a hand holds hand_size
--- cards before its owner places, hand_size - 1 before drawing (not checked while a house rule replaces
--- rules.turn_budget or rules.next_seat: its turns may make hands grow or shrink).
function rules.invariants(game)
  local may_play = rules.may_play
  for o = 1, #COLUMN_OWNERS do
    local columns = COLUMN_SET[o]
    local seat = SEATS_OF_COLUMNS[o][1]
    for k = 1, NCOLOURS do
      -- its own scratch list: rules.may_play (a house rule's) may call rules.score, which fills scratch_cards
      local cards, count = cards_of(game, columns[k], scratch_checked)
      for i = 1, count do
        local c = cards[i]
        if COLOUR[c] ~= k then return NAME[c] .. " lies on " .. column_name(o, k) end
        local ok, why = may_play(game, seat, c, cards, i - 1)
        if not ok then return column_name(o, k) .. " breaks the rule of play at " .. NAME[c] .. (why and (": " .. why) or "") end
      end
    end
  end
  local phase = game:phase()
  if phase ~= PLACE and (phase < DRAW or phase > DRAW_LAST) then return nil end
  if not fast_turn then return nil end -- (a house rule's turn budget may make hands grow or shrink)
  for s = 1, SEATS do
    local expected = P.hand_size
    if s == game:to_move() and phase >= DRAW then expected = P.hand_size - 1 end
    if game:size(HAND[s]) ~= expected then
      return "seat " .. s .. " holds " .. game:size(HAND[s]) .. " cards, expected " .. expected
    end
  end
end

--- ranks(game) -> places: with teams, a team scores as one (seed 003: partners lay on one side), so the
--- places are the teams' (1 for the best team, 2 for the next...), shared by partners and by teams with equal
--- totals; without teams, the kernel's default (by match totals, ties share).
if #TEAMS > 0 then
  function rules.ranks(game)
    local places = {}
    for s = 1, SEATS do
      local better = {} -- the distinct totals of the teams that did better
      for t = 1, SEATS do
        local total = game:match_score(t)
        if total > game:match_score(s) then better[total] = true end
      end
      local count = 0
      for _ in pairs(better) do count = count + 1 end
      places[s] = count + 1
    end
    return places
  end
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
  local seat = game:to_move()
  local phase = game:phase()
  local added = OFFERED[1] and ENC:explain(game, text, seat)
  if added then return added end
  if phase ~= PLACE and phase ~= LAST_TURN and (phase < DRAW or phase > DRAW_LAST) then
    return "'" .. text .. "' is not legal in the " .. (ENC:phase_name(phase) or "current") .. " phase"
  end
  if phase == LAST_TURN then
    if verb == "discard" then return "in your last turn you may only play cards on your expeditions, or pass" end
    if verb == "draw" then return "the deck is empty: in your last turn play up to " .. FINAL_PLACEMENTS .. " cards, or pass" end
  elseif verb == "pass" then
    return "you may pass only in your last turn, after the deck has run out"
  end
  if verb == "play" or verb == "discard" then
    if phase >= DRAW then return "you have placed a card this turn: now draw (draw deck or draw <colour letter>)" end
    local held
    for _, c in ipairs(game:cards(HAND[seat])) do
      if string.lower(NAME[c]) == object then held = c end
    end
    if not held then return "you do not hold " .. string.upper(object) end
    if verb == "play" then
      local k = COLOUR[held]
      local column = game:cards(EXPEDITION[seat][k])
      local ok, why = rules.may_play(game, seat, held, column, #column)
      if not ok then return why or (NAME[held] .. " may not go on your " .. COLOURS[k] .. " expedition") end
    end
    if phase == LAST_TURN then return "in your last turn you may only play cards on your expeditions, or pass" end
  elseif verb == "draw" then
    if phase < DRAW then return "place a card first (play or discard), then draw" end
    local pile = object == "deck" and DECK or DISCARD[COLOUR_OF_LETTER[object]]
    if not pile then return "'" .. object .. "' is not a colour letter: draw deck or draw one of " .. table.concat(LETTER, " ") end
    local ok, why = rules.may_draw(game, seat, pile, DISCARD[phase - DRAW])
    if not ok then return why or ("you may not draw from " .. houserules.zone_names[pile] .. " now") end
  end
  return "'" .. text .. "' is not an action: type play <card>, discard <card>, draw deck or draw <colour letter> (e.g. play Y7, draw G)"
end

local function card_list_text(game, zone)
  local names = {}
  for i, c in ipairs(game:cards(zone)) do names[i] = CARD[c].name end
  return #names > 0 and table.concat(names, " ") or "-"
end

--- The cards of a hand sorted by colour (params.colours order), then wagers, then value; unknown cards last.
local function sorted_hand_text(game, zone)
  local cards = game:cards(zone)
  table.sort(cards, function(a, b)
    local ka, kb = COLOUR[a] or math.huge, COLOUR[b] or math.huge
    if ka ~= kb then return ka < kb end
    if (VALUE[a] or 0) ~= (VALUE[b] or 0) then return (VALUE[a] or 0) < (VALUE[b] or 0) end
    return a < b
  end)
  local names = {}
  for i, c in ipairs(cards) do names[i] = CARD[c].name end
  return #names > 0 and table.concat(names, " ") or "-"
end

local function cards_text(n)
  return n == 1 and "1 card" or (n .. " cards")
end

--- score_breakdown(game, seat[, score]) -> string: how rules.score reaches the seat's score of the round, one line
--- per expedition laid (seed 001 FIN DE LA PARTIE, seed 003 FIN DU JEU ET SCORE): the sum of its numbers,
--- minus the cost, times 1 + wagers, plus the bonus; with teams, the team's shared expeditions. `score` (a number,
--- default rules.score(game, seat)) is the total the lines explain: what it holds beyond them is shown as "other
--- rules" (a variant whose score adds up other seats' parts passes each part's own score).
function rules.score_breakdown(game, seat, score)
  local lines, columns = {}, 0
  for k = 1, NCOLOURS do
    local cards = game:cards(EXPEDITION[seat][k])
    if #cards > 0 then
      local sum, wagers = 0, 0
      for _, c in ipairs(cards) do
        if VALUE[c] == 0 then wagers = wagers + 1 else sum = sum + VALUE[c] end
      end
      local text = string.format("%-7s %s: %d - %d", COLOURS[k], card_list_text(game, EXPEDITION[seat][k]), sum, COST)
      if wagers > 0 then text = text .. string.format(", x%d (%d wager%s)", 1 + wagers, wagers, wagers == 1 and "" or "s") end
      if #cards >= THRESHOLD then text = text .. string.format(", +%d bonus (%d cards)", BONUS, #cards) end
      local points = rules.column_score(sum, wagers, #cards)
      columns = columns + points
      lines[#lines + 1] = text .. string.format(" = %d", points)
    end
  end
  if #lines == 0 then lines[1] = "no expedition laid: 0" end
  -- the same named rules as rules.score: its adjustments, then what a variant's own rules.score adds
  local parts = rules.score_adjustments(game, seat)
  for _, part in ipairs(parts) do lines[#lines + 1] = part.text end
  local other = (score or rules.score(game, seat)) - columns - adjustment_points(parts)
  if other ~= 0 then lines[#lines + 1] = string.format("other rules (rules.score): %+d", other) end
  return table.concat(lines, "\n")
end

--- describe(view, seat) -> string: the table as `seat` sees it (view is the seat's observation: cards it
--- cannot see are 0, shown as "?").
function rules.describe(view, seat)
  local lines = {}
  local function add(...) lines[#lines + 1] = string.format(...) end
  local phase = view:phase()
  local doing = phase == PLACE and "place a card" or (phase >= DRAW and phase <= DRAW_LAST) and "draw a card"
    or phase == LAST_TURN and string.format("take a last turn (place up to %d cards, or pass)", FINAL_PLACEMENTS)
    or (ENC:phase_name(phase) or "play")
  add("Round %d of %d - seat %d to %s - deck: %s", view:round(), view:rounds(), view:to_move(), doing, cards_text(view:size(DECK)))
  local totals = {}
  for s = 1, SEATS do totals[s] = string.format("seat %d: %d (this round %d)", s, view:match_score(s), rules.score(view, s)) end
  for i = 1, SEATS, 2 do -- two seats a line: 100 columns with 3 or 4 seats
    add("%s%s", i == 1 and "Match: " or "       ", table.concat(totals, ", ", i, math.min(i + 1, SEATS)))
  end
  local mine = COLUMNS_OF_SEAT[seat]
  local function columns_of(o)
    local seats = {}
    for s = 1, SEATS do if COLUMNS_OF_SEAT[s] == o then seats[#seats + 1] = s end end
    return seats
  end
  for o = 1, #COLUMN_OWNERS do
    if o ~= mine then
      local seats = columns_of(o)
      local label = #TEAMS > 0 and ("Team " .. COLUMN_OWNERS[o] .. " (seats " .. table.concat(seats, ", ") .. ")")
        or ("Seat " .. seats[1])
      add("%s's expeditions:", label)
      for k = 1, NCOLOURS do add("  %-7s %s", COLOURS[k], card_list_text(view, COLUMN_SET[o][k])) end
    end
  end
  for s = 1, SEATS do
    if s ~= seat then
      local known = view:size(HAND[s]) > 0
      for _, c in ipairs(view:cards(HAND[s])) do if CARD[c].unknown then known = false end end
      if known then -- the end of a round: every hand is shown
        add("Seat %d holds %s: %s", s, cards_text(view:size(HAND[s])), sorted_hand_text(view, HAND[s]))
      else
        add("Seat %d holds %s", s, cards_text(view:size(HAND[s])))
      end
    end
  end
  local tops = {}
  for k = 1, NCOLOURS do
    local top = view:top(DISCARD[k])
    tops[k] = string.format("%s %s (%d)", LETTER[k], top and CARD[top].name or "-", view:size(DISCARD[k]))
  end
  add("Discard piles (top, cards): %s", table.concat(tops, "  "))
  if #TEAMS > 0 then
    add("Your team's expeditions (team %s, seats %s):", COLUMN_OWNERS[mine], table.concat(columns_of(mine), ", "))
  else
    add("Your expeditions (seat %d):", seat)
  end
  for k = 1, NCOLOURS do add("  %-7s %s", COLOURS[k], card_list_text(view, EXPEDITION[seat][k])) end
  add("Your hand: %s", sorted_hand_text(view, HAND[seat]))
  return table.concat(lines, "\n") .. "\n"
end

--- turn_summary(view, seat, turn) -> string: the line `play` prints for `seat`'s turn as the viewer saw it
--- (docs/writing-rules.md, hooks). A turn (seed 001 DEROULEMENT DE LA PARTIE) places a card, on the seat's
--- expedition of its colour or on the discard pile of its colour, then draws one, from the deck or from the
--- top of a discard pile; in a last turn (seed 003's variants) it places cards or passes. `view` is the
--- viewer's observation after the turn; `turn.moved` the cards it saw change zone. A card drawn from the deck
--- is named only to the seat that drew it ("you drew B3 from the deck"): the others read "drew from the
--- deck". A text this hook does not know (a house rule's action) is shown as it is.
function rules.turn_summary(view, seat, turn)
  local by_name, from_discard, into_hand = {}, nil, nil
  for _, m in ipairs(turn.moved) do
    by_name[CARD[m.card].name] = m
    if m.from and COLOUR_OF_PILE[m.from] and m.to == HAND[seat] then from_discard = m end
    if not m.from and m.to == HAND[seat] then into_hand = m end
  end
  local parts = {}
  for _, text in ipairs(turn.actions) do
    local verb, object = text:match("^(%S+) (%S+)$")
    local m = object and by_name[object]
    if verb == "play" and m then
      parts[#parts + 1] = string.format("played %s (%s: %s)", object, view:zone_name(m.to):match("([^.]+)$"),
        card_list_text(view, m.to))
    elseif verb == "discard" and object then
      parts[#parts + 1] = "discarded " .. object
    elseif verb == "draw" and object == "deck" then
      if into_hand and seat == turn.viewer then
        parts[#parts + 1] = string.format("%sdrew %s from the deck", turn.you and "you " or "", CARD[into_hand.card].name)
      else
        parts[#parts + 1] = "drew from the deck"
      end
      parts[#parts] = parts[#parts] .. string.format(" (%s left)", cards_text(view:size(DECK)))
    elseif verb == "draw" and from_discard then
      parts[#parts + 1] = string.format("took %s from the %s discard pile", CARD[from_discard.card].name,
        COLOURS[COLOUR_OF_PILE[from_discard.from]])
    elseif text == "pass" then
      parts[#parts + 1] = "passed"
    else
      parts[#parts + 1] = text
    end
  end
  return table.concat(parts, "; ")
end

rules.heuristic = require("heuristic")(rules, BASE)
return rules
