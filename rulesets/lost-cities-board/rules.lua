-- Lost Cities: the board game (Reiner Knizia, Kosmos 2008), 2 to 4 players, as a houserules rules script.
-- Rules: seed 000 (../shared/seeds/), digest ../shared/rules/lost-cities-board.md; parameters in ruleset.toml;
-- the terminal view and the explanations of refused actions are in view.lua.
--
-- Board: one track per colour, "path.<colour>", spaces 1..9 valued by params.steps. Event tiles are components
-- laid on the tile spaces; per seat one explorer and `adventurers` adventurers (figures, off the board when
-- unused). Counters per seat: vp (VP chips), chips (artifact chips), vp_start (vp when this expedition began),
-- dirs (pile directions, variant "either"); in the supply: turns (turns played in this expedition).
-- Zones: deck, removed (2 players: the 30 unseen cards), tiles (the face-down tile stack), hand.<seat>,
-- pile.<seat>.<colour> (the cards a seat played for a path), discard.<colour>, artifacts.<seat> (artifact tiles
-- found this expedition), box.
--
-- A turn: PLAY (play or discard a card), possibly ARROW (one or more arrow tiles to resolve), then DRAW.
-- An expedition is a round: the kernel calls score() for every seat when it ends, then start_round() again.
--
-- Action encoding: card | kind << 8 | arg << 12 | dir << 16, with kinds START_EXPLORER, START_ADVENTURER, PLAY
-- (arg: the colour of another figure to move by the last-step rule, 0 none; dir: 1 up, 2 down when the second card
-- of a pile equals the first in the "either" variant), DISCARD, DRAW_DECK, DRAW_PILE (arg: colour), MOVE (an
-- arrow; arg: colour of the path of the figure to move), PASS (leave an arrow unused).
-- Texts: "play Y3 explorer", "play Y3 adventurer", "play Y3", "play Y3 up", "play Y3 move red", "discard Y3",
-- "draw deck", "draw Y", "move red", "pass".

local hr = houserules
local P = hr.params
local SEATS = hr.seats
local COLOURS = P.colours
local NCOLOURS = #COLOURS
local STEPS = {} -- a plain copy: params are read-only proxies, slower to index and invisible to rawlen
for i, v in ipairs(P.steps) do STEPS[i] = v end
local NSTEPS = #STEPS
local FPS = 1 + P.adventurers -- figures per seat: the explorer, then the adventurers
local NFIGURES = SEATS * FPS
local BRIDGE, END_FIGURES = P.bridge_step, P.end_figures
local EXPLORER_FACTOR, VP_FLOOR = P.explorer_factor, P.vp_floor
local EITHER = P.direction == "either"
if P.direction ~= "ascending" and not EITHER then
  error("params.direction must be \"ascending\" or \"either\", not \"" .. tostring(P.direction) .. "\"")
end
local TABLE = {}
for i, v in ipairs(P.artifact_table == "short" and P.short_table or P.long_table) do TABLE[i] = v end
if P.artifact_table ~= "long" and P.artifact_table ~= "short" then
  error("params.artifact_table must be \"long\" or \"short\", not \"" .. tostring(P.artifact_table) .. "\"")
end
local REMOVED_CARDS = P.removed_cards[SEATS - 1] or 0
-- The ASSUMED rule choices, as plain locals (params are read-only proxies, slower to index in the hot hooks).
local ARROW_OPTIONAL, LAST_STEP_OPTIONAL, START_WITH_LOWEST = P.arrow_optional, P.last_step_optional, P.start_with_lowest
local FIRST_PLAYER = math.min(math.max(P.first_player, 1), SEATS)
assert(NCOLOURS <= 7, "at most 7 colours (the action encoding keeps a colour in 3 bits)")

-- ---- components: the cards (ids 1..NCARDS), then the event tiles ----------------------------------------------
local list = {}
local NVALUES = P.max_value - P.min_value + 1
for k = 1, NCOLOURS do
  local letter = P.letters[COLOURS[k]]
  if not letter then error("params.letters has no letter for colour '" .. COLOURS[k] .. "'") end
  for v = P.min_value, P.max_value do
    for _ = 1, P.copies do
      list[#list + 1] = { name = letter .. v, kind = "card", colour = k, value = v,
                          name_bit = 1 << ((k - 1) * NVALUES + v - P.min_value) }
    end
  end
end
local NCARDS = #list
assert(NCARDS <= 255, "at most 255 cards (the action encoding keeps a card in 8 bits)")
assert(NCOLOURS * NVALUES <= 63, "at most 63 card names (one bit each)")
local ARTIFACT <const>, ARROW <const>, VPTILE <const> = 1, 2, 3
for _ = 1, P.artifacts do list[#list + 1] = { name = "artifact", kind = "tile", tile = ARTIFACT, value = 0 } end
for _ = 1, P.arrows do list[#list + 1] = { name = "arrow", kind = "tile", tile = ARROW, value = 0 } end
for _, v in ipairs(P.vp_tiles) do list[#list + 1] = { name = "VP" .. v, kind = "tile", tile = VPTILE, value = v } end
local FIRST_TILE, LAST_TILE = NCARDS + 1, #list

-- ---- zones, counters, tracks, figures -------------------------------------------------------------------------
local zone_list = {
  { name = "deck", visibility = "hidden" },
  { name = "removed", visibility = "hidden" }, -- 2 players: "enlevez 30 cartes ... face cachée dans la boîte"
  { name = "tiles", visibility = "hidden" },   -- the event tiles not on the board, face down
}
for s = 1, SEATS do zone_list[#zone_list + 1] = { name = "hand." .. s, owner = s, visibility = "owner" } end
for s = 1, SEATS do
  for k = 1, NCOLOURS do zone_list[#zone_list + 1] = { name = "pile." .. s .. "." .. COLOURS[k], visibility = "public" } end
end
for k = 1, NCOLOURS do zone_list[#zone_list + 1] = { name = "discard." .. COLOURS[k], visibility = "top" } end
for s = 1, SEATS do zone_list[#zone_list + 1] = { name = "artifacts." .. s, visibility = "public" } end

local track_list = {}
for k = 1, NCOLOURS do track_list[k] = { name = "path." .. COLOURS[k], values = STEPS } end
local figure_list = {}
for s = 1, SEATS do
  figure_list[#figure_list + 1] = { kind = "explorer", owner = s }
  for _ = 1, P.adventurers do figure_list[#figure_list + 1] = { kind = "adventurer", owner = s } end
end

-- For the heuristic's counts in C (game:tally, heuristic.lua): each component's colour (0: a tile) and value; the
-- zones whose cards every seat has seen (the piles and discard piles), and per seat the other seats' hands.
local colour_map, value_map = {}, {}
for c = 1, #list do colour_map[c], value_map[c] = list[c].colour or 0, list[c].value end
-- Also each seat's piles and the discard piles in colour order, for game:tops.
local groups = { shown = {}, discards = {} }
for s = 1, SEATS do
  groups["piles." .. s] = {}
  for k = 1, NCOLOURS do
    groups.shown[#groups.shown + 1] = "pile." .. s .. "." .. COLOURS[k]
    groups["piles." .. s][k] = "pile." .. s .. "." .. COLOURS[k]
  end
end
for k = 1, NCOLOURS do
  groups.shown[#groups.shown + 1] = "discard." .. COLOURS[k]
  groups.discards[k] = "discard." .. COLOURS[k]
end
for s = 1, SEATS do
  groups["hand." .. s] = { "hand." .. s }
  local others = {}
  for o = 1, SEATS do if o ~= s then others[#others + 1] = "hand." .. o end end
  groups["other_hands." .. s] = others
end

local declared = hr.declare {
  components = list,
  zones = zone_list,
  counters = {
    { name = "vp", per_seat = true },       -- VP chips
    { name = "chips", per_seat = true },    -- artifact chips
    { name = "vp_start", per_seat = true }, -- VP chips when the expedition began: the round score is the change
    { name = "dirs", per_seat = true },     -- "either" variant: 2 bits per colour, 1 up, 2 down, 0 not fixed yet
    { name = "turns" },                     -- turns played in this expedition (one per draw)
  },
  tracks = track_list,
  figures = figure_list,
  rounds = P.expeditions,
  phases = { play = 0, arrow = 1, draw = 2 }, -- PLAY_PHASE, ARROW_PHASE, DRAW_PHASE below
  maps = { colour = colour_map, value = value_map },
  groups = groups,
}
local VP <const>, CHIPS <const>, VP_START <const>, DIRS <const>, TURNS <const> = 1, 2, 3, 4, 5
-- The deck after the deal: the turns an expedition lasts when every draw is from the deck (the heuristic's clock).
local INITIAL_DECK = math.max(1, NCARDS - REMOVED_CARDS - SEATS * P.hand_size)

-- Plain arrays for the hot paths, computed once at load.
local CARD = declared.components
local COLOUR, VALUE, NAME, NAME_BIT, TILE, TILE_VALUE = {}, {}, {}, {}, {}, {}
for c = 1, #list do
  COLOUR[c], VALUE[c], NAME[c] = CARD[c].colour or 0, CARD[c].value, CARD[c].name
  NAME_BIT[c], TILE[c] = CARD[c].name_bit or 0, CARD[c].tile or 0
  TILE_VALUE[c] = CARD[c].value
end
local LETTER = {}
for k = 1, NCOLOURS do LETTER[k] = P.letters[COLOURS[k]] end
local Z = declared.zones
local DECK, REMOVED, TILES = Z.deck, Z.removed, Z.tiles
local HAND, PILE, DISCARD, ARTIFACTS = {}, {}, {}, {}
for s = 1, SEATS do
  HAND[s], ARTIFACTS[s], PILE[s] = Z["hand." .. s], Z["artifacts." .. s], {}
  for k = 1, NCOLOURS do PILE[s][k] = Z["pile." .. s .. "." .. COLOURS[k]] end
end
for k = 1, NCOLOURS do DISCARD[k] = Z["discard." .. COLOURS[k]] end
local ALL_HANDS, REMOVED_LIST = {}, { REMOVED }
for s = 1, SEATS do ALL_HANDS[s] = HAND[s] end
-- The tile spaces, in colour order then step order: where start_round lays the shuffled tiles.
local TILE_TRACK, TILE_STEP = {}, {}
for k = 1, NCOLOURS do
  local spaces = P.tile_spaces[COLOURS[k]] or {}
  for _, step in ipairs(spaces) do
    assert(step >= 1 and step <= NSTEPS, "params.tile_spaces." .. COLOURS[k] .. ": no step " .. step)
    TILE_TRACK[#TILE_TRACK + 1], TILE_STEP[#TILE_STEP + 1] = k, step
  end
end

local PLAY_PHASE <const>, ARROW_PHASE <const>, DRAW_PHASE <const> = 0, 1, 2
local START_EXPLORER <const>, START_ADVENTURER <const>, PLAY <const>, DISCARD_KIND <const> = 1, 2, 3, 4
local DRAW_DECK <const>, DRAW_PILE <const>, MOVE <const>, PASS <const> = 5, 6, 7, 8
local UP <const>, DOWN <const> = 1, 2

local G = hr.game
local cards_of, size_of, sizes_of, top_of, counter_of = G.cards, G.size, G.sizes, G.top, G.counter
local to_move_of, phase_of, figure_of, tile_of = G.to_move, G.phase, G.figure, G.tile
local move, move_top, move_figure, set_counter, add_counter, set_phase, set_to_move, end_round =
  G.move, G.move_top, G.move_figure, G.set_counter, G.add_counter, G.set_phase, G.set_to_move, G.end_round

-- Scratch lists reused by the hot hooks so that they allocate nothing; every use overwrites them first.
local scratch_cards, scratch_sizes = {}, {}
for c = 1, NCARDS do scratch_cards[c] = 0 end
local DRAW_SOURCES = { DECK }
for k = 1, NCOLOURS do DRAW_SOURCES[k + 1] = DISCARD[k] end
for i = 1, NCOLOURS + 1 do scratch_sizes[i] = 0 end
local pos, fig, lowest = {}, {}, {} -- per colour: the seat's figure on that path, its step (0: none); lowest card value
for k = 1, NCOLOURS do pos[k], fig[k], lowest[k] = 0, 0, 0 end

--- Fills pos/fig with `seat`'s figures (track number = colour number); returns the explorer's number if it is off
--- the board (else 0) and the first adventurer off the board (else 0).
local function scan_figures(game, seat)
  for k = 1, NCOLOURS do pos[k], fig[k] = 0, 0 end
  local base = (seat - 1) * FPS
  local explorer_off, adventurer_off = 0, 0
  for i = 1, FPS do
    local f = base + i
    local track, step = figure_of(game, f)
    if track then
      pos[track], fig[track] = step, f
    elseif i == 1 then
      explorer_off = f
    elseif adventurer_off == 0 then
      adventurer_off = f
    end
  end
  return explorer_off, adventurer_off
end

--- The direction of `seat`'s pile of colour k: UP, DOWN, or 0 (not fixed yet). Always UP without the variant.
local function direction(game, seat, k)
  if not EITHER then return UP end
  return (counter_of(game, DIRS, seat) >> (2 * (k - 1))) & 3
end

--- Whether card value v may go on a pile whose top value is `top` with `count` cards: equal or higher; in the
--- "either" variant the second card may go either way and fixes the direction (seed 000 VARIANTE).
local function fits(game, seat, k, v, top, count)
  if not EITHER then return v >= top end
  if count == 1 then return true end
  if direction(game, seat, k) == DOWN then return v <= top end
  return v >= top
end

-- ---- the expedition -----------------------------------------------------------------------------------------

local function figure_points(game, seat)
  local total, base = 0, (seat - 1) * FPS
  for i = 1, FPS do
    local _, step = figure_of(game, base + i)
    if step then total = total + STEPS[step] * (i == 1 and EXPLORER_FACTOR or 1) end
  end
  return total
end

--- VP chips after paying the figures (digest "Scoring an expedition"): the figures' values are summed and paid at
--- once; the total never goes below the floor.
local function settled_vp(game, seat)
  local vp = counter_of(game, VP, seat) + figure_points(game, seat)
  return vp < VP_FLOOR and VP_FLOOR or vp
end

local function table_points(chips)
  return TABLE[math.min(chips, #TABLE - 1) + 1]
end

--- Artifact chips a seat holds, counting the artifact tiles of the current expedition (they become chips at its end).
local function artifact_chips(game, seat)
  return counter_of(game, CHIPS, seat) + size_of(game, ARTIFACTS[seat])
end

local rules = {}

--- start_round(game): pays the figures of the expedition that ended and turns artifact tiles into chips (seed 000
--- "Points d'une expédition"), clears the board, lays the 25 tiles again at random, face up, shuffles all the cards,
--- removes 30 unseen with 2 players and deals 8 each (seed 000 PREPARATION, "L'expédition suivante"). The first
--- expedition is started by `first_player`; a later one by the seat left of the one who played last (apply sets it).
function rules.start_round(game)
  if game:round() > 1 then
    for s = 1, SEATS do
      set_counter(game, VP, s, settled_vp(game, s))
      add_counter(game, CHIPS, s, size_of(game, ARTIFACTS[s]))
    end
  else
    set_to_move(game, FIRST_PLAYER)
  end
  for f = 1, NFIGURES do move_figure(game, f, nil) end
  for t = FIRST_TILE, LAST_TILE do move(game, t, TILES) end
  game:shuffle(TILES)
  for i = 1, #TILE_TRACK do
    local t = top_of(game, TILES)
    if not t then break end
    game:place_tile(t, TILE_TRACK[i], TILE_STEP[i])
  end
  for c = 1, NCARDS do move(game, c, DECK) end
  game:shuffle(DECK)
  if REMOVED_CARDS > 0 then game:deal(DECK, REMOVED_LIST, REMOVED_CARDS) end
  game:deal(DECK, ALL_HANDS, P.hand_size)
  for s = 1, SEATS do
    set_counter(game, VP_START, s, counter_of(game, VP, s))
    set_counter(game, DIRS, s, 0)
  end
  set_counter(game, TURNS, 0, 0)
  set_phase(game, PLAY_PHASE)
end

--- The number of figures past a bridge (on step `bridge_step` or beyond), all seats and paths together.
local function crossed(game)
  local n = 0
  for f = 1, NFIGURES do
    local _, step = figure_of(game, f)
    if step and step >= BRIDGE then n = n + 1 end
  end
  return n
end

-- ---- the turn: who moves next, what a turn allows, when the expedition's end is checked --------------------
-- A turn (seed 000 "Vue d'ensemble d'une expédition"): play or discard one card (a played card moves the path's figure one step;
-- the tile it reaches may be an arrow, which buys one more step: rules.resolve_tile), then draw one card.

--- rules.next_seat(game, seat) -> seat: who moves after `seat`'s turn, and who starts the next expedition after
--- `seat` ended one (seed 000 "Vue d'ensemble d'une expédition": "dans le sens des aiguilles d'une montre";
--- "L'expédition suivante": "commence par le joueur à gauche de celui qui a joué dernier"). Base: seat + 1,
--- seat 1 after the last. Asked after each draw and when an expedition ends.
function rules.next_seat(game, seat)
  return seat % SEATS + 1
end

--- rules.round_ends(game) -> boolean: does the expedition end now that a card was drawn (seed 000 "Fin d'une
--- expédition": when the last card of the deck is drawn)? Base: the deck is empty. Asked after every draw; the
--- other end, figures past the bridges, is rules.expedition_ends, asked after every step of a figure.
function rules.round_ends(game)
  return size_of(game, DECK) == 0
end

--- Ends the expedition at once; rules.next_seat after `seat` (who played last) starts the next one.
local function end_expedition(game, seat)
  set_to_move(game, rules.next_seat(game, seat), PLAY_PHASE) -- no arrow or draw left pending, even after the last one
  end_round(game)
end

local COLOUR_INDEX = {} -- colour name -> path (track) number
for k = 1, NCOLOURS do COLOUR_INDEX[COLOURS[k]] = k end

--- The kind of figure f of `seat`: its first figure is the explorer, the others adventurers.
local function kind_of(seat, f)
  return f == (seat - 1) * FPS + 1 and "explorer" or "adventurer"
end

--- `seat`'s figure on path k and its step; else its first figure of `kind` off the board, and step 0.
local function figure_number(game, seat, kind, k)
  local base, off = (seat - 1) * FPS, nil
  for i = 1, FPS do
    local f = base + i
    local track, step = figure_of(game, f)
    if track == k then return f, step end
    if not track and not off and (i == 1) == (kind == "explorer") then off = f end
  end
  return off, 0
end

--- rules.step_of(game, seat, colour) -> integer or nil: the step of `seat`'s figure on the `colour` path, nil when
--- it has none there (a reader for variants; not an extension point).
function rules.step_of(game, seat, colour)
  local _, step = figure_number(game, seat, "adventurer", COLOUR_INDEX[colour])
  return step > 0 and step or nil
end

-- ---- extension points (README "For variant authors"): one sentence of the rulebook each ----------------------
-- apply() calls them through the rules table, so a variant that replaces one changes every move that uses it.
-- Figures are named by kind ("explorer", "adventurer") and paths by colour name ("yellow"), never by number.

--- rules.may_follow(game, seat, colour, c, top) -> boolean: may card c go on `seat`'s `colour` pile, whose top
--- card is `top`, and move its figure (seed 000, "Jouer une carte": equal to or higher than the last; in the
--- ascending-descending variant the second card fixes the direction)? Decides the legal plays, the explanations
--- and the bots' count of playable cards.
function rules.may_follow(game, seat, colour, c, top)
  local k = COLOUR_INDEX[colour]
  -- (the pile's count matters only in the either-direction variant: not read otherwise, a C call per card saved)
  return fits(game, seat, k, VALUE[c], VALUE[top], EITHER and size_of(game, PILE[seat][k]) or 0)
end
local base_may_follow = rules.may_follow

--- Whether card c may go on `seat`'s pile of colour k with top card `top` (`count` cards): the base rule's fast
--- path while rules.may_follow is the base one, else the variant's rules.may_follow.
local function follows(game, seat, k, c, top, count)
  if rules.may_follow == base_may_follow then return fits(game, seat, k, VALUE[c], VALUE[top], count) end
  return rules.may_follow(game, seat, COLOURS[k], c, top)
end

--- The least card value that may follow `seat`'s pile of colour k whose top card is `top`, when that value alone
--- decides (the base rules.may_follow, ascending piles: "égale ou supérieure"): follows(game, seat, k, c, top, count)
--- is then VALUE[c] >= follow_floor(...). nil otherwise (a variant's rule, the "either" variant): ask follows for
--- each card. A speed idiom for the bots' count of the cards that fit a path (heuristic.lua).
local function follow_floor(game, seat, k, top)
  if EITHER or rules.may_follow ~= base_may_follow then return nil end
  return VALUE[top]
end

--- rules.expedition_ends(game, seat, colour, step) -> boolean: does the expedition end now that a figure of `seat`
--- reached `step` of the `colour` path? Base rule (seed 000, "Fin d'une expédition"): when the end_figures-th figure
--- (all seats and paths) stands past a bridge (step bridge_step or beyond); the tile it reached is then not
--- resolved.
function rules.expedition_ends(game, seat, colour, step)
  return step == BRIDGE and crossed(game) >= END_FIGURES
end
local base_expedition_ends = rules.expedition_ends

--- rules.vp_tile_pays(game, seat, figure_kind, value) -> integer: the VP chips a VP tile printed `value` pays to
--- `seat` when its figure of kind `figure_kind` ("explorer" or "adventurer") reaches it. Base rule (seed 000,
--- "Les plaquettes"): its value, never doubled for the explorer.
function rules.vp_tile_pays(game, seat, figure_kind, value)
  return value
end
local base_vp_tile_pays = rules.vp_tile_pays

--- rules.resolve_tile(game, seat, figure_kind, colour, step): resolves the tile a figure of `seat` reached at
--- `step` of the `colour` path (seed 000, "Les plaquettes"): an artifact is taken (it goes to the seat's
--- artifacts), a VP tile pays rules.vp_tile_pays chips and stays, an arrow lets the seat move a figure one step
--- (phase ARROW: `move <colour>` or `pass`). Without an arrow the turn goes on to the draw.
function rules.resolve_tile(game, seat, figure_kind, colour, step)
  local k = COLOUR_INDEX[colour]
  local t = tile_of(game, k, step)
  local kind = t and TILE[t] or 0
  if kind == ARROW then
    set_phase(game, ARROW_PHASE)
    return
  elseif kind == ARTIFACT then
    move(game, t, ARTIFACTS[seat])
  elseif kind == VPTILE then
    add_counter(game, VP, seat, rules.vp_tile_pays(game, seat, figure_kind, TILE_VALUE[t]))
  end
  set_phase(game, DRAW_PHASE)
end

--- rules.move_one_step(game, seat, figure_kind, colour): moves `seat`'s figure of `figure_kind` on the `colour`
--- path (or, off the board, onto its step 1) one step forward, then asks rules.expedition_ends (the expedition
--- ends at once: the seat left of `seat` starts the next one) or else rules.resolve_tile.
function rules.move_one_step(game, seat, figure_kind, colour)
  local k = COLOUR_INDEX[colour]
  local f, from = figure_number(game, seat, figure_kind, k)
  move_figure(game, f, k, from + 1)
  if rules.expedition_ends(game, seat, colour, from + 1) then
    end_expedition(game, seat)
    return
  end
  rules.resolve_tile(game, seat, figure_kind, colour, from + 1)
end

--- actions(game, out) -> count. PLAY: for each card name in hand (first copy only, so that texts are unique):
--- start its path with the explorer or an adventurer (if the seat has no pile of that colour), or play it on the
--- pile (equal or higher; the last-step rule when the path's figure is on the last step), then discard it.
--- ARROW: move any own figure that is not on the last step; pass. DRAW: the deck, then each non-empty discard pile.
function rules.actions(game, out)
  local n = 0
  local seat = to_move_of(game)
  local phase = phase_of(game)
  if phase == PLAY_PHASE then
    local explorer_off, adventurer_off = scan_figures(game, seat)
    local hand, count = cards_of(game, HAND[seat], scratch_cards)
    local COLOUR, VALUE, NAME_BIT = COLOUR, VALUE, NAME_BIT
    if START_WITH_LOWEST then
      for k = 1, NCOLOURS do lowest[k] = 99 end
      for i = 1, count do
        local c = hand[i]
        if VALUE[c] < lowest[COLOUR[c]] then lowest[COLOUR[c]] = VALUE[c] end
      end
    end
    local seen = 0
    for i = 1, count do
      local c = hand[i]
      local bit = NAME_BIT[c]
      if seen & bit == 0 then
        seen = seen | bit
        local k = COLOUR[c]
        local pile = PILE[seat][k]
        local top = top_of(game, pile)
        if not top then
          if not START_WITH_LOWEST or VALUE[c] == lowest[k] then
            if explorer_off > 0 then n = n + 1; out[n] = c | START_EXPLORER << 8 end
            if adventurer_off > 0 then n = n + 1; out[n] = c | START_ADVENTURER << 8 end
          end
        else
          local v, tv = VALUE[c], VALUE[top]
          local pile_size = EITHER and size_of(game, pile) or 0
          if follows(game, seat, k, c, top, pile_size) then
            local dir_first, dir_last = 0, 0
            if EITHER and pile_size == 1 and v == tv then dir_first, dir_last = UP, DOWN end
            for dir = dir_first, dir_last do
              local a = c | PLAY << 8 | dir << 16
              if pos[k] < NSTEPS then
                n = n + 1; out[n] = a
              else -- the last-step rule: move another figure instead
                local moved = false
                for j = 1, NCOLOURS do
                  if j ~= k and fig[j] > 0 and pos[j] < NSTEPS then
                    n = n + 1; out[n] = a | j << 12
                    moved = true
                  end
                end
                if LAST_STEP_OPTIONAL or not moved then n = n + 1; out[n] = a end
              end
            end
          end
        end
        n = n + 1; out[n] = c | DISCARD_KIND << 8
      end
    end
  elseif phase == ARROW_PHASE then
    scan_figures(game, seat)
    for k = 1, NCOLOURS do
      if fig[k] > 0 and pos[k] < NSTEPS then n = n + 1; out[n] = MOVE << 8 | k << 12 end
    end
    if ARROW_OPTIONAL or n == 0 then n = n + 1; out[n] = PASS << 8 end
  else
    local sizes = sizes_of(game, DRAW_SOURCES, scratch_sizes)
    if sizes[1] > 0 then n = 1; out[1] = DRAW_DECK << 8 end
    for k = 1, NCOLOURS do
      if sizes[k + 1] > 0 then n = n + 1; out[n] = DRAW_PILE << 8 | k << 12 end
    end
  end
  return n
end

--- apply(game, action): see actions(). After the draw the turn passes to rules.next_seat; the expedition ends at
--- once when rules.round_ends says so after a draw (seed 000 "Fin d'une expédition": the last card of the deck
--- drawn), or when rules.expedition_ends says so after a figure's step.
function rules.apply(game, a)
  local seat = to_move_of(game)
  local c, kind, arg, dir = a & 255, (a >> 8) & 15, (a >> 12) & 15, a >> 16
  if kind == DRAW_DECK or kind == DRAW_PILE then
    move_top(game, kind == DRAW_DECK and DECK or DISCARD[arg], HAND[seat])
    add_counter(game, TURNS, 0, 1)
    set_phase(game, PLAY_PHASE)
    set_to_move(game, rules.next_seat(game, seat))
    if rules.round_ends(game) then end_round(game) end
  elseif kind == DISCARD_KIND then
    move(game, c, DISCARD[COLOUR[c]])
    set_phase(game, DRAW_PHASE)
  elseif kind == PLAY then
    local k = COLOUR[c]
    local pile = PILE[seat][k]
    if EITHER and size_of(game, pile) == 1 then
      local tv, v = VALUE[top_of(game, pile)], VALUE[c]
      if dir == 0 then dir = v > tv and UP or DOWN end
      add_counter(game, DIRS, seat, dir << (2 * (k - 1)))
    end
    move(game, c, pile)
    scan_figures(game, seat)
    if pos[k] < NSTEPS then
      rules.move_one_step(game, seat, kind_of(seat, fig[k]), COLOURS[k])
    elseif arg > 0 then
      rules.move_one_step(game, seat, kind_of(seat, fig[arg]), COLOURS[arg])
    else
      set_phase(game, DRAW_PHASE)
    end
  elseif kind == START_EXPLORER or kind == START_ADVENTURER then
    local explorer_off, adventurer_off = scan_figures(game, seat)
    local k = COLOUR[c]
    move(game, c, PILE[seat][k])
    rules.move_one_step(game, seat, kind == START_EXPLORER and "explorer" or "adventurer", COLOURS[k])
  elseif kind == MOVE then
    scan_figures(game, seat)
    rules.move_one_step(game, seat, kind_of(seat, fig[arg]), COLOURS[arg])
  else -- PASS
    set_phase(game, DRAW_PHASE)
  end
end

function rules.action_text(game, a)
  local c, kind, arg, dir = a & 255, (a >> 8) & 15, (a >> 12) & 15, a >> 16
  if kind == DRAW_DECK then return "draw deck" end
  if kind == DRAW_PILE then return "draw " .. LETTER[arg] end
  if kind == MOVE then return "move " .. COLOURS[arg] end
  if kind == PASS then return "pass" end
  if kind == DISCARD_KIND then return "discard " .. NAME[c] end
  if kind == START_EXPLORER then return "play " .. NAME[c] .. " explorer" end
  if kind == START_ADVENTURER then return "play " .. NAME[c] .. " adventurer" end
  local text = "play " .. NAME[c]
  if dir == UP then text = text .. " up" elseif dir == DOWN then text = text .. " down" end
  if arg > 0 then text = text .. " move " .. COLOURS[arg] end
  return text
end

-- ---- scoring -------------------------------------------------------------------------------------------------

--- score(game, seat): the seat's gain in VP chips over this expedition if it ended now — VP tiles found plus the
--- figures' values (explorer doubled), with the VP total floored at vp_floor — and, in the last expedition, the
--- artifact chips scored on the artifact table. So the match total (the sum of the rounds) is the final VP chips
--- plus the artifact table, the game's final score.
function rules.score(game, seat)
  local total = settled_vp(game, seat) - counter_of(game, VP_START, seat)
  if game:round() == game:rounds() then total = total + table_points(artifact_chips(game, seat)) end
  return total
end

--- ranks(game): by match totals; equal totals are broken by the most artifact chips, else shared (seed 000 FIN DU JEU).
function rules.ranks(game)
  local places = {}
  for s = 1, SEATS do
    local total, chips, place = game:match_score(s), artifact_chips(game, s), 1
    for o = 1, SEATS do
      local t = game:match_score(o)
      if t > total or (t == total and artifact_chips(game, o) > chips) then place = place + 1 end
    end
    places[s] = place
  end
  return places
end

--- heuristic(game, seat): the bots' estimate of the seat's final score (heuristic.lua: the score now, what each
--- path's figure may still gain by the cards in hand and to come and the tiles ahead, less the dead cards in hand
--- and the discard tops the opponents may use). rules.heuristic_parts: its named parts, for variants.
rules.heuristic, rules.heuristic_parts = require("heuristic")(rules, {
  SEATS = SEATS, NCOLOURS = NCOLOURS, NCARDS = NCARDS, FPS = FPS, COLOUR = COLOUR, VALUE = VALUE, TILE = TILE,
  TILE_VALUE = TILE_VALUE, ARTIFACT = ARTIFACT, ARROW = ARROW, VPTILE = VPTILE, STEPS = STEPS, NSTEPS = NSTEPS,
  EXPLORER_FACTOR = EXPLORER_FACTOR, HAND = HAND, PILE = PILE, DISCARD = DISCARD, DECK = DECK, REMOVED = REMOVED,
  VP = VP, VP_START = VP_START, TURNS = TURNS, INITIAL_DECK = INITIAL_DECK, PLAY_PHASE = PLAY_PHASE,
  ARROW_PHASE = ARROW_PHASE, follows = follows, figure_points = figure_points, table_points = table_points,
  artifact_chips = artifact_chips, follow_floor = follow_floor, base_vp_tile_pays = base_vp_tile_pays,
  COLOUR_MAP = declared.maps.colour, VALUE_MAP = declared.maps.value, SHOWN = declared.groups.shown,
  DISCARDS = declared.groups.discards,
  OTHER_HANDS = (function()
    local g = {}
    for s = 1, SEATS do g[s] = declared.groups["other_hands." .. s] end
    return g
  end)(),
  OWN_HAND = (function()
    local g = {}
    for s = 1, SEATS do g[s] = declared.groups["hand." .. s] end
    return g
  end)(),
  PILES = (function()
    local g = {}
    for s = 1, SEATS do g[s] = declared.groups["piles." .. s] end
    return g
  end)(),
})

-- ---- invariants ----------------------------------------------------------------------------------------------

--- invariants(game) -> nil, or the first broken invariant: piles follow their direction; a seat has a figure on a
--- path exactly when it has a pile of that colour; fewer than end_figures figures are past a bridge while the
--- expedition runs; VP chips at or above the floor; hands full except for the seat in
--- the middle of its turn; only artifacts leave the board, and every tile is on the board or with a seat.
function rules.invariants(game)
  local crossed = 0 -- figures past a bridge
  for s = 1, SEATS do
    scan_figures(game, s)
    for k = 1, NCOLOURS do
      local cards = game:cards(PILE[s][k])
      for i, c in ipairs(cards) do
        if COLOUR[c] ~= k then return NAME[c] .. " lies on seat " .. s .. "'s " .. COLOURS[k] .. " pile" end
        if i > 1 and rules.may_follow == base_may_follow then -- (a variant's rules.may_follow: its own invariants)
          local d = direction(game, s, k)
          if (d == UP and VALUE[c] < VALUE[cards[i - 1]]) or (d == DOWN and VALUE[c] > VALUE[cards[i - 1]]) then
            return "seat " .. s .. "'s " .. COLOURS[k] .. " pile breaks its direction at " .. NAME[c]
          end
          if d == 0 then return "seat " .. s .. "'s " .. COLOURS[k] .. " pile has " .. #cards .. " cards and no direction" end
        end
      end
      if (#cards > 0) ~= (fig[k] > 0) and not game:over() then
        return "seat " .. s .. (#cards > 0 and " has a " .. COLOURS[k] .. " pile but no figure on that path"
          or " has a figure on the " .. COLOURS[k] .. " path but no pile")
      end
      if pos[k] >= BRIDGE then crossed = crossed + 1 end
    end
    if counter_of(game, VP, s) < VP_FLOOR then return "seat " .. s .. " has " .. counter_of(game, VP, s) .. " VP chips" end
    local expected = P.hand_size
    if s == to_move_of(game) and phase_of(game) ~= PLAY_PHASE then expected = expected - 1 end
    if size_of(game, HAND[s]) ~= expected and not game:over() then
      return "seat " .. s .. " holds " .. size_of(game, HAND[s]) .. " cards, expected " .. expected
    end
    for _, t in ipairs(game:cards(ARTIFACTS[s])) do
      if TILE[t] ~= ARTIFACT then return "seat " .. s .. " took the tile " .. NAME[t] end
    end
  end
  -- (the base rule's end only: a variant that replaces rules.expedition_ends states its own invariants)
  if rules.expedition_ends == base_expedition_ends and crossed >= END_FIGURES and not game:over() then
    return crossed .. " figures are past a bridge and the expedition goes on"
  end
  if size_of(game, TILES) ~= math.max(0, LAST_TILE - NCARDS - #TILE_TRACK) then
    return size_of(game, TILES) .. " tiles are off the board"
  end
end

-- ---- the terminal view and the explanations (view.lua) ------------------------------------------------------
local view = require("view")
view.install(rules, {
  P = P, SEATS = SEATS, COLOURS = COLOURS, NCOLOURS = NCOLOURS, STEPS = STEPS, NSTEPS = NSTEPS, FPS = FPS,
  BRIDGE = BRIDGE, END_FIGURES = END_FIGURES, EITHER = EITHER, LETTER = LETTER, NAME = NAME, COLOUR = COLOUR,
  VALUE = VALUE, TILE = TILE, ARTIFACT = ARTIFACT, ARROW = ARROW, VPTILE = VPTILE, DECK = DECK, HAND = HAND,
  PILE = PILE, DISCARD = DISCARD, ARTIFACTS = ARTIFACTS, VP = VP, CHIPS = CHIPS, crossed = crossed,
  PLAY_PHASE = PLAY_PHASE, ARROW_PHASE = ARROW_PHASE, DRAW_PHASE = DRAW_PHASE, UP = UP, DOWN = DOWN,
  direction = direction, follows = follows, base_rule = function() return rules.may_follow == base_may_follow end,
  artifact_chips = artifact_chips, table_points = table_points,
  figure_points = figure_points, VP_START = VP_START, VP_FLOOR = VP_FLOOR, EXPLORER_FACTOR = EXPLORER_FACTOR,
})
-- How `houserules serve` draws the event tiles (draw.lua).
require("draw").install(rules, { TILE = TILE, VALUE = VALUE, ARTIFACT = ARTIFACT, ARROW = ARROW, VPTILE = VPTILE })

return rules
