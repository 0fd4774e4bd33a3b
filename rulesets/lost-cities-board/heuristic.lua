-- heuristic.lua — Lost Cities: the board game: heuristic(game, seat), an estimate of the seat's final score from
-- what the seat may see. Used by the greedy bot (one ply) and by ismcts to evaluate the leaves of its search
-- (docs/bots.md). rules.lua installs it as rules.heuristic, rules.heuristic_parts = require("heuristic")(rules, K),
-- K its tables and helpers. Each part of the estimate is a named function of `rules.heuristic_parts` (H below),
-- looked up at each call: a variant replaces one (H.tile_value, H.path_prospect, ...) to value its own rule.
--
-- The estimate (seed 000: "Points d'une expédition": each figure scores its step, the explorer double; "Les
-- plaquettes": artifacts, VP tiles, arrows; "FIN DU JEU": the artifact table):
--   now        the match total, this expedition's VP chips and figures (not floored: under the floor a step
--              forward would look worthless), the artifact table for the chips held as if the match ended now;
--   paths      per path, the steps the seat's figure may still make — its playable cards of that colour in hand
--              (HAND_WEIGHT each) and the unseen cards of that colour that may follow its pile (each with the
--              chance that the seat draws it: deck draws left to the seat / cards unseen, x DRAW_USE), scaled down
--              when there are more of them than turns left to play them (H.turn_share) — and what
--              each step ahead is worth: the step's value (explorer double) and the tile on it; a path not started
--              counts only if that is positive (the seat need not start it) and while a figure is off the board;
--   arrow      an arrow reached and not used yet counts as one ahead (H.pending_arrow);
--   dead cards a card in hand that cannot be played (it does not follow its pile, or its path is not worth
--              starting) costs DEAD_CARD: the turn it will take to get rid of it; so taking back the dead card one
--              just discarded gains nothing over a dead card from the deck, which leaves one unseen card less
--              (tests/games/board_heuristic_test.cpp);
--   discards   the top card of each discard pile that may follow an opponent's pile costs OPPONENT_TAKE of the
--              step it would give that opponent.
-- The turns left are counted by the `turns` counter, not by the deck alone: the old heuristic (in rules.lua) scaled
-- the future by the deck left, so taking back a discard (which spares the deck) looked better than drawing, and
-- greedy discarded and retook for ~1,800 plies a game (docs/bots.md). Here a turn spent retaking costs a turn.
-- Weights are estimates, not fitted.
--
-- Information: it reads public zones (piles, discard piles: each card was shown as it arrived; the board and its tiles, figures, counters), the
-- seat's own hand, zone sizes, and of other hands only the cards game:knows(seat, card) — never an unknown card's
-- identity or place. Cost: while the fitting cards are counted by colour (the base rules), three game:tally (the
-- seat's hand; the piles and discard piles; the other hands, as the seat knows them), game:tops for the tops and one
-- game:track_tiles per path walked; else one game:cards per pile, hand and discard pile and one game:tile per step
-- walked; no allocation.

--- Of the unseen cards the seat may draw, the share it can still use (drawn in time, not taken first).
local DRAW_USE = 0.75
--- A playable card in hand counts this much of a step: it may never be played (the expedition ends first), and
--- it makes playing a card now (a whole step) better than holding it. As much as an unseen card the seat is sure to
--- draw (DRAW_USE): at 0.5 the value after a whole turn (place and draw, where ismcts values its leaves) favoured
--- discarding, and ismcts discarded in half of its places against three greedy players (docs/bots.md;
--- tests/games/board_heuristic_test.cpp).
local HAND_WEIGHT = 0.75
--- The cost of a card in hand that cannot be played: a turn spent discarding it instead of moving a figure.
local DEAD_CARD = 1
--- The share of the step a discard top gives an opponent whose pile it may follow (it may take it or not).
local OPPONENT_TAKE = 0.5
--- An arrow tile ahead is worth this share of the mean step (it moves a figure one step).
local ARROW_SHARE = 1

return function(rules, K)
  local SEATS, NCOLOURS, NCARDS, FPS = K.SEATS, K.NCOLOURS, K.NCARDS, K.FPS
  local COLOUR, VALUE, TILE, TILE_VALUE = K.COLOUR, K.VALUE, K.TILE, K.TILE_VALUE
  local ARTIFACT, ARROW, VPTILE = K.ARTIFACT, K.ARROW, K.VPTILE
  local STEPS, NSTEPS, EXPLORER_FACTOR = K.STEPS, K.NSTEPS, K.EXPLORER_FACTOR
  local HAND, PILE, DISCARD, DECK, REMOVED = K.HAND, K.PILE, K.DISCARD, K.DECK, K.REMOVED
  local VP, VP_START, TURNS, INITIAL_DECK = K.VP, K.VP_START, K.TURNS, K.INITIAL_DECK
  local follows, figure_points, table_points, artifact_chips = K.follows, K.figure_points, K.table_points,
    K.artifact_chips
  local follow_floor, base_vp_tile_pays = K.follow_floor, K.base_vp_tile_pays
  local G = houserules.game
  local cards_of, size_of, top_of, counter_of, figure_of, tile_of, knows, match_score, to_move_of =
    G.cards, G.size, G.top, G.counter, G.figure, G.tile, G.knows, G.match_score, G.to_move
  local phase_of, PLAY_PHASE, ARROW_PHASE = G.phase, K.PLAY_PHASE, K.ARROW_PHASE
  local tally, track_tiles, tops_of, over = G.tally, G.track_tiles, G.tops, G.over
  local COLOUR_MAP, VALUE_MAP, SHOWN, OTHER_HANDS = K.COLOUR_MAP, K.VALUE_MAP, K.SHOWN, K.OTHER_HANDS
  local PILES, DISCARDS, OWN_HAND = K.PILES, K.DISCARDS, K.OWN_HAND
  local ceil, HUGE = math.ceil, math.huge
  local MEAN_STEP = (STEPS[NSTEPS] - STEPS[1]) / math.max(1, NSTEPS - 1)

  -- Scratch lists (overwritten before every use; nothing is kept between calls).
  local scratch, unseen = {}, {}
  for c = 1, NCARDS do scratch[c], unseen[c] = 0, true end
  local pos, factor, top, count, in_hand, fitting, floor, seen = {}, {}, {}, {}, {}, {}, {}, {}
  local discard_top, their_top = {}, {} -- game:tops' answers: the discard piles', each opponent's piles'
  for k = 1, NCOLOURS do seen[k], top[k], discard_top[k] = 0, false, false end
  for o = 1, SEATS do
    their_top[o] = {}
    for k = 1, NCOLOURS do their_top[o][k] = false end
  end
  local tiles = {} -- game:track_tiles' answer: the tiles of the path walked
  -- STEP_GAIN[s]: H.step_value(s) - H.step_value(s - 1) of the base H.step_value (step 0: off the board).
  local STEP_GAIN = {}
  for s = 1, NSTEPS do STEP_GAIN[s] = STEPS[s] - (s > 1 and STEPS[s - 1] or 0) end
  -- FIXED_GAIN[t]: the base H.tile_value of tile t that does not depend on the game: a VP tile's value (the base
  -- rules.vp_tile_pays), an arrow's ARROW_SHARE of a mean step; false for an artifact (its gain depends on the
  -- seat's chips), 0 for any other component.
  local FIXED_GAIN = {}
  -- OF_COLOUR[k]: the cards of colour k; AT_LEAST[k][v]: those of value v or more (v a value of that colour).
  local OF_COLOUR, AT_LEAST = {}, {}
  for k = 1, NCOLOURS do OF_COLOUR[k], AT_LEAST[k] = 0, {} end
  for c = 1, NCARDS do
    local k = COLOUR[c]
    OF_COLOUR[k] = OF_COLOUR[k] + 1
    local n = 0
    for d = 1, NCARDS do
      if COLOUR[d] == k and VALUE[d] >= VALUE[c] then n = n + 1 end
    end
    AT_LEAST[k][VALUE[c]] = n
  end
  for t = 1, #TILE do
    local kind = TILE[t]
    FIXED_GAIN[t] = kind == VPTILE and TILE_VALUE[t] or kind == ARROW and ARROW_SHARE * MEAN_STEP
      or kind ~= ARTIFACT and 0
  end
  -- Whether this call counts the fitting cards by colour (every path's floor[k] a number): see() below.
  local by_count = false

  local H = {}

  --- H.step_value(step) -> number: the points of a figure on `step` (0: off the board) before the explorer's factor
  --- (seed 000 "Points d'une expédition"; "Commencez à fouiller un chemin": a figure starts on step 1).
  function H.step_value(step)
    return step > 0 and STEPS[step] or 0
  end

  --- H.tile_value(game, seat, k, step, figure_factor) -> number: what reaching `step` of path k gives the seat through
  --- the tile on it (seed 000 "Les plaquettes"): a VP tile its chips (rules.vp_tile_pays), an artifact one more chip
  --- on the artifact table, an arrow ARROW_SHARE of a mean step; none: 0.
  function H.tile_value(game, seat, k, step, figure_factor)
    local t = tile_of(game, k, step)
    if not t then return 0 end
    local kind = TILE[t]
    if kind == VPTILE then
      return rules.vp_tile_pays(game, seat, figure_factor > 1 and "explorer" or "adventurer", TILE_VALUE[t])
    elseif kind == ARTIFACT then
      local chips = artifact_chips(game, seat)
      return table_points(chips + 1) - table_points(chips)
    elseif kind == ARROW then
      return ARROW_SHARE * MEAN_STEP
    end
    return 0
  end

  --- H.path_prospect(game, seat, k, from, steps, figure_factor) -> number: the expected gain of a figure on step
  --- `from` of path k (0: off the board) that may make `steps` more steps (a real number): each step ahead, up to
  --- the last (seed 000 "Avancez sur un chemin où il est déjà": one step per card), counts with the chance of
  --- reaching it (1 for the first floor(steps), then the fraction left): its step value change x figure_factor,
  --- plus its tile (H.tile_value).
  local base_step_value, base_tile_value = H.step_value, H.tile_value

  --- H.path_prospect's sum while H.step_value, H.tile_value and rules.vp_tile_pays are the base ones: the same terms
  --- in the same order (so the same number), without a Lua call per step, and the artifact's gain (the same for
  --- every step: the seat's chips do not change within a call) computed once, or given (`artifact_gain`: the
  --- heuristic computes it once a call). With `factor2`, also the sum for a figure of that factor (a path not
  --- started: as an adventurer and as the explorer), from the same walk.
  local function base_path_prospect(game, seat, k, from, steps, figure_factor, factor2, artifact_gain)
    local gain, gain2 = 0, 0
    if steps <= 0 or from >= NSTEPS then return gain, gain2 end
    -- the spaces the walk reaches (with a chance above 0), their tiles from one kernel call
    local last = from + ceil(steps)
    if last > NSTEPS then last = NSTEPS end
    local tiles, FIXED_GAIN, STEP_GAIN = tiles, FIXED_GAIN, STEP_GAIN
    track_tiles(game, k, tiles, from + 1, last)
    for s = from + 1, last do
      local chance = steps - (s - from - 1) -- above 0 up to `last`
      if chance > 1 then chance = 1 end
      local t, tile = tiles[s], 0
      if t then
        tile = FIXED_GAIN[t]
        if not tile then -- an artifact: one more chip on the artifact table
          if not artifact_gain then
            local chips = artifact_chips(game, seat)
            artifact_gain = table_points(chips + 1) - table_points(chips)
          end
          tile = artifact_gain
        end
      end
      gain = gain + chance * (STEP_GAIN[s] * figure_factor + tile)
      if factor2 then gain2 = gain2 + chance * (STEP_GAIN[s] * factor2 + tile) end
    end
    return gain, gain2
  end

  function H.path_prospect(game, seat, k, from, steps, figure_factor)
    if H.step_value == base_step_value and H.tile_value == base_tile_value
      and rules.vp_tile_pays == base_vp_tile_pays then
      return (base_path_prospect(game, seat, k, from, steps, figure_factor))
    end
    local gain = 0
    for j = 1, NSTEPS - from do
      local chance = steps - (j - 1)
      if chance <= 0 then break end
      if chance > 1 then chance = 1 end
      local s = from + j
      gain = gain + chance * ((H.step_value(s) - H.step_value(s - 1)) * figure_factor
        + H.tile_value(game, seat, k, s, figure_factor))
    end
    return gain
  end

  --- H.now(game, seat) -> number: the match total, the VP chips gained in this expedition and the figures' points
  --- (not floored), and the artifact table for the chips held (seed 000 "FIN DU JEU"), as if the match ended now.
  function H.now(game, seat)
    return match_score(game, seat) + counter_of(game, VP, seat) - counter_of(game, VP_START, seat)
      + figure_points(game, seat) + table_points(artifact_chips(game, seat))
  end

  local base_path_prospect_part, base_now = H.path_prospect, H.now

  --- prospects_from_start(game, seat, k, steps) -> number, number: H.path_prospect(game, seat, k, 0, steps, 1) and
  --- H.path_prospect(game, seat, k, 0, steps, EXPLORER_FACTOR) (a path not started, as an adventurer and as the
  --- explorer): from one walk of the path while the base parts are in place.
  local function prospects_from_start(game, seat, k, steps, artifact_gain)
    if H.path_prospect == base_path_prospect_part and H.step_value == base_step_value
      and H.tile_value == base_tile_value and rules.vp_tile_pays == base_vp_tile_pays then
      return base_path_prospect(game, seat, k, 0, steps, 1, EXPLORER_FACTOR, artifact_gain)
    end
    return H.path_prospect(game, seat, k, 0, steps, 1), H.path_prospect(game, seat, k, 0, steps, EXPLORER_FACTOR)
  end

  --- H.pending_arrow(game, seat) -> number: an arrow the seat has reached and not used yet (phase `arrow`, seed 000
  --- "Les plaquettes": it may move one of its figures one step) is worth what an arrow ahead is (H.tile_value).
  function H.pending_arrow(game, seat)
    if phase_of(game) == ARROW_PHASE and to_move_of(game) == seat then return ARROW_SHARE * MEAN_STEP end
    return 0
  end

  --- H.draw_chance(game, seat, unknown) -> number: the chance that the seat draws (and can use) a given unseen card:
  --- its draws left (the seat to move draws first, then one in every SEATS cards; seed 000 "Fin d'une expédition
  --- et points": the last card of the deck ends it) / the `unknown` cards it has not seen, x DRAW_USE. The draws
  --- left are counted on the deck, but never more than the turns left if every draw of the expedition had been from
  --- the deck (the `turns` counter): so a turn spent taking back a discard costs a turn like any other, and drawing
  --- from the deck is not the only draw that brings the end nearer.
  function H.draw_chance(game, seat, unknown)
    local deck = size_of(game, DECK)
    local clock = INITIAL_DECK - counter_of(game, TURNS) -- the turns left if every draw is from the deck
    if clock < deck then deck = clock end
    local ahead = (seat - to_move_of(game)) % SEATS
    local draws = deck > ahead and (deck - ahead - 1) // SEATS + 1 or 0
    return unknown > 0 and draws / unknown * DRAW_USE or 0
  end

  --- H.turn_share(game, seat, draws, chance, held) -> number in [0, 1]: a seat plays or discards one card a turn
  --- (seed 000 "Jouer une carte"), so of the cards it will hold (the `held` cards in its hand, each of which takes a
  --- turn to play or discard, and the unseen cards that fit its paths, each drawn with `chance`) it can play at most
  --- one per turn left (its `draws` left, and this turn's play if it is to play now): the share it has turns for
  --- (reads the counts `fitting` of the current call). A turn spent taking back a discard lowers it like any turn;
  --- a card drawn from the deck is one unseen card less to wait for.
  function H.turn_share(game, seat, draws, chance, held)
    local turns = draws + ((to_move_of(game) == seat and phase_of(game) == PLAY_PHASE) and 1 or 0)
    local cards = held
    for k = 1, NCOLOURS do cards = cards + chance * fitting[k] end
    return cards > turns and turns / cards or 1
  end

  --- Flags the cards in zone z as seen in `unseen` (a variant's rule: each card is asked later; by colour, the
  --- counts come from game:tally instead).
  local function see(game, z)
    local cards, n = cards_of(game, z, scratch)
    for i = 1, n do unseen[cards[i]] = false end
  end

  --- H.discard_cost(game, seat) -> number: for each discard pile whose top card may follow an opponent's pile of its
  --- colour (seed 000 "Défausser une carte": a player may keep a card "pour qu'aucun autre joueur ne puisse utiliser
--- cette carte"; "Avancez sur un chemin": equal or higher), OPPONENT_TAKE of the step it would give the opponent
  --- that gains most (explorer double).
  function H.discard_cost(game, seat)
    local cost = 0
    tops_of(game, DISCARDS, discard_top)
    local any = false
    for k = 1, NCOLOURS do any = any or discard_top[k] end
    if not any then return cost end
    for o = 1, SEATS do
      if o ~= seat then tops_of(game, PILES[o], their_top[o]) end -- their_top[o][k]: the top of o's pile k
    end
    for k = 1, NCOLOURS do
      local c = discard_top[k]
      if c then
        local most = 0
        for o = 1, SEATS do
          local pile = o ~= seat and PILE[o][k]
          local t = pile and their_top[o][k]
          -- (the base rule on ascending piles: the least value that follows decides, no count asked)
          local least = t and follow_floor(game, o, k, t)
          if t and (least and VALUE[c] >= least or not least and follows(game, o, k, c, t, size_of(game, pile))) then
            for i = 1, FPS do
              local f = (o - 1) * FPS + i
              local track, step = figure_of(game, f)
              if track == k and step < NSTEPS then
                local gain = (STEPS[step + 1] - STEPS[step]) * (i == 1 and EXPLORER_FACTOR or 1)
                if gain > most then most = gain end
              end
            end
          end
        end
        cost = cost + OPPONENT_TAKE * most
      end
    end
    return cost
  end

  --- heuristic(game, seat) -> number: H.now + the prospects of the seat's paths - its dead cards - the discard tops
  --- its opponents may use (above). At the end of the game: the match total (the final score).
  return function(game, seat)
    if over(game) then return match_score(game, seat) end
    -- The seat's figures: pos[k] its step on path k (0: none), factor[k] its score factor; figures off the board;
    -- their points (K.figure_points, in the same order).
    for k = 1, NCOLOURS do pos[k], factor[k], in_hand[k] = 0, 1, 0 end
    local explorer_off, adventurers_off, points = false, 0, 0
    for i = 1, FPS do
      local track, step = figure_of(game, (seat - 1) * FPS + i)
      if track then
        pos[track], factor[track] = step, i == 1 and EXPLORER_FACTOR or 1
        points = points + STEPS[step] * (i == 1 and EXPLORER_FACTOR or 1)
      elseif i == 1 then
        explorer_off = true
      else
        adventurers_off = adventurers_off + 1
      end
    end
    local value
    -- the seat's artifact chips (they do not change within a call) and what one more is worth (base H.tile_value)
    local chips = artifact_chips(game, seat)
    local artifact_gain = table_points(chips + 1) - table_points(chips)
    if H.now == base_now then -- H.now's terms, the figures' points from the scan above
      value = match_score(game, seat) + counter_of(game, VP, seat) - counter_of(game, VP_START, seat)
        + points + table_points(chips)
    else
      value = H.now(game, seat)
    end
    value = value + H.pending_arrow(game, seat)
    local any_off = explorer_off or adventurers_off > 0
    -- top[k]: the top card of the seat's pile k, false when empty; count[k] its cards, read only for a variant's
    -- rule (follows).
    tops_of(game, PILES[seat], top)
    -- The unseen cards that may still move each figure (fitting[k]): any card of a path not started, else one that
    -- follows. floor[k]: the least value that fits path k (-huge: any, huge: none; K.follow_floor), or false: ask
    -- follows for each card (a variant's rule). With every floor a number the fitting cards are counted by colour:
    -- all those of the game less those seen; else each card is flagged seen or not, then asked.
    by_count = true
    for k = 1, NCOLOURS do
      if not top[k] then
        floor[k], fitting[k] = -HUGE, OF_COLOUR[k]
      elseif pos[k] >= NSTEPS then
        floor[k], fitting[k] = HUGE, 0
      else
        local least = follow_floor(game, seat, k, top[k])
        if least then
          floor[k], fitting[k] = least, AT_LEAST[k][least]
        else
          floor[k], count[k], by_count = false, size_of(game, PILE[seat][k]), false
        end
      end
    end
    if not by_count then
      for k = 1, NCOLOURS do fitting[k] = 0 end
      for c = 1, NCARDS do unseen[c] = true end
    end
    -- Seen cards: the seat's hand, every pile and discard pile, the cards of other hands it knows.
    -- The hand: in_hand[k], its cards that may move the figure of path k (or start it while a figure is off the
    -- board); the others are dead cards. By colour (game:tally): a card fits its path when it is at or above the
    -- floor (any card of a path not started), and is then a playable card unless its path is not started and no
    -- figure is off the board.
    local held, dead
    if by_count then
      tally(game, OWN_HAND[seat], COLOUR_MAP, in_hand, nil, floor, VALUE_MAP)
      held = size_of(game, HAND[seat])
      local playable = 0
      for k = 1, NCOLOURS do
        fitting[k] = fitting[k] - in_hand[k]
        if not top[k] and not any_off then in_hand[k] = 0 end
        playable = playable + in_hand[k]
      end
      dead = held - playable
    else
      local hand
      hand, held = cards_of(game, HAND[seat], scratch)
      dead = 0
      for i = 1, held do
        local c = hand[i]
        local k = COLOUR[c]
        local least = floor[k]
        unseen[c] = false
        if top[k] then
          if least then
            if VALUE[c] >= least then in_hand[k] = in_hand[k] + 1 else dead = dead + 1 end
          elseif pos[k] < NSTEPS and follows(game, seat, k, c, top[k], count[k]) then
            in_hand[k] = in_hand[k] + 1
          else
            dead = dead + 1
          end
        elseif any_off then
          in_hand[k] = in_hand[k] + 1
        else
          dead = dead + 1
        end
      end
    end
    local unknown = size_of(game, DECK) + size_of(game, REMOVED)
    if by_count then
      -- the same counts in C: the fitting cards of every pile and discard pile, then those of the other hands that
      -- the seat knows (the others are unknown to it)
      tally(game, SHOWN, COLOUR_MAP, seen, nil, floor, VALUE_MAP)
      for k = 1, NCOLOURS do fitting[k] = fitting[k] - seen[k] end
      local _, hidden = tally(game, OTHER_HANDS[seat], COLOUR_MAP, seen, seat, floor, VALUE_MAP)
      for k = 1, NCOLOURS do fitting[k] = fitting[k] - seen[k] end
      unknown = unknown + hidden
    else
      for s = 1, SEATS do
        for k = 1, NCOLOURS do see(game, PILE[s][k]) end
      end
      for k = 1, NCOLOURS do see(game, DISCARD[k]) end
    end
    for o = 1, SEATS do
      if o ~= seat and not by_count then
        local cards, n = cards_of(game, HAND[o], scratch)
        for i = 1, n do
          local c = cards[i]
          if not knows(game, seat, c) then
            unknown = unknown + 1
          elseif by_count then
            local k = COLOUR[c]
            if VALUE[c] >= floor[k] then fitting[k] = fitting[k] - 1 end
          else
            unseen[c] = false
          end
        end
      end
    end
    if not by_count then
      for c = 1, NCARDS do
        if unseen[c] then
          local k = COLOUR[c]
          local least = floor[k]
          if least then
            if VALUE[c] >= least then fitting[k] = fitting[k] + 1 end
          elseif follows(game, seat, k, c, top[k], count[k]) then
            fitting[k] = fitting[k] + 1
          end
        end
      end
    end
    local p = H.draw_chance(game, seat, unknown)
    local scale = H.turn_share(game, seat, p / DRAW_USE * unknown, p / DRAW_USE, held)
    local best_explorer_gain = 0
    -- H.path_prospect, or its walk without the Lua call and the checks a path while the base parts are in place
    local prospect = H.path_prospect
    local fast = prospect == base_path_prospect_part and H.step_value == base_step_value
      and H.tile_value == base_tile_value and rules.vp_tile_pays == base_vp_tile_pays
    if fast then prospect = base_path_prospect end -- (its second value, unasked here, is dropped)
    for k = 1, NCOLOURS do
      local steps = (HAND_WEIGHT * in_hand[k] + p * fitting[k]) * scale
      if top[k] then
        value = value + prospect(game, seat, k, pos[k], steps, factor[k], nil, fast and artifact_gain)
      elseif any_off then
        -- seed 000 "Commencez à fouiller un chemin": a figure off the board goes onto step 1; starting is optional
        local as_adventurer, as_explorer
        if adventurers_off > 0 and explorer_off then
          as_adventurer, as_explorer = prospects_from_start(game, seat, k, steps, artifact_gain)
        else
          as_adventurer = adventurers_off > 0 and prospect(game, seat, k, 0, steps, 1, nil, fast and artifact_gain) or 0
          as_explorer = explorer_off and prospect(game, seat, k, 0, steps, EXPLORER_FACTOR, nil, fast and artifact_gain)
        end
        if as_adventurer > 0 then value = value + as_adventurer else as_adventurer = 0 end
        local gain = explorer_off and as_explorer - as_adventurer or 0
        if gain > best_explorer_gain then best_explorer_gain = gain end
        -- a colour not worth starting: its cards in hand are dead cards
        if as_adventurer <= 0 and gain <= 0 then dead = dead + in_hand[k] end
      end
    end
    return value + best_explorer_gain - DEAD_CARD * dead - H.discard_cost(game, seat)
  end, H
end
