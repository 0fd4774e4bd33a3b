-- view.lua — the terminal view (describe) and the one-line reasons for refused actions (explain) of Lost Cities:
-- the board game. rules.lua calls install(rules, K) with its constants and helpers; nothing here is on a hot path.

local M = {}

function M.install(rules, K)
  local P, SEATS, COLOURS, NCOLOURS, STEPS, NSTEPS, FPS = K.P, K.SEATS, K.COLOURS, K.NCOLOURS, K.STEPS, K.NSTEPS, K.FPS
  local NAME, COLOUR, VALUE, TILE, LETTER = K.NAME, K.COLOUR, K.VALUE, K.TILE, K.LETTER
  local HAND, PILE, DISCARD, ARTIFACTS = K.HAND, K.PILE, K.DISCARD, K.ARTIFACTS

  local COLOUR_OF = {} -- "yellow", "y" -> colour number
  for k = 1, NCOLOURS do
    COLOUR_OF[COLOURS[k]] = k
    COLOUR_OF[string.lower(LETTER[k])] = k
  end

  local function tile_code(t)
    if not t then return "" end
    if TILE[t] == K.ARTIFACT then return "artif" end
    if TILE[t] == K.ARROW then return "arrow" end
    return NAME[t]
  end

  local function names(game, zone)
    local out = {}
    for i, c in ipairs(game:cards(zone)) do out[i] = NAME[c] or "?" end
    return #out > 0 and table.concat(out, " ") or "-"
  end

  --- The figure of `seat` on path k: figure number, step, or nil.
  local function own_figure(game, seat, k)
    for f = (seat - 1) * FPS + 1, seat * FPS do
      local track, step = game:figure(f)
      if track == k then return f, step end
    end
  end

  local function plural(n, word)
    return n == 1 and ("1 " .. word) or (n .. " " .. word .. "s")
  end

  --- `parts` joined by `sep` on lines of at most 100 columns, each after `indent`.
  local function wrapped(indent, parts, sep)
    local out, line = {}, indent
    for i, part in ipairs(parts) do
      local piece = (i > 1 and line ~= indent) and (sep .. part) or part
      if line ~= indent and #line + #piece > 100 then
        out[#out + 1] = line
        line, piece = indent, part
      end
      line = line .. piece
    end
    out[#out + 1] = line
    return out
  end

  --- score_breakdown(game, seat): how rules.score reaches the seat's gain of this expedition (seed 000 "Points
  --- d'une expédition"): the VP tiles found, each figure's step value (the explorer's doubled), the floor, and
  --- in the last expedition the artifact table.
  function rules.score_breakdown(game, seat)
    local lines = {}
    lines[#lines + 1] = string.format("VP tiles found: %+d", game:counter(K.VP, seat) - game:counter(K.VP_START, seat))
    for f = (seat - 1) * FPS + 1, seat * FPS do
      local track, step = game:figure(f)
      if track then
        local explorer = (f - 1) % FPS == 0
        lines[#lines + 1] = string.format("%s on the %s path, step %d: %+d%s", explorer and "explorer" or "adventurer",
          COLOURS[track], step, STEPS[step] * (explorer and K.EXPLORER_FACTOR or 1),
          explorer and string.format(" (%+d x %d)", STEPS[step], K.EXPLORER_FACTOR) or "")
      end
    end
    local vp = game:counter(K.VP, seat) + K.figure_points(game, seat)
    if vp < K.VP_FLOOR then
      lines[#lines + 1] = string.format("the VP chips never go below %d: %+d", K.VP_FLOOR, K.VP_FLOOR - vp)
    end
    if game:round() == game:rounds() then
      local chips = K.artifact_chips(game, seat)
      lines[#lines + 1] = string.format("artifact table, %s: %+d", plural(chips, "artifact chip"), K.table_points(chips))
    end
    return table.concat(lines, "\n")
  end

  --- turn_summary(view, seat, turn) -> string: the line `play` prints for `seat`'s turn as the viewer saw it
  --- (docs/writing-rules.md, hooks). Seed 000 "VUE D'ENSEMBLE": a turn plays a card (starting a path with
  --- the explorer or an adventurer, or moving the path's figure one step) or discards one, then draws one
  --- from the deck or a discard pile; "Les plaquettes": the tile the figure reaches is resolved (an artifact
  --- taken, a VP tile's chips, an arrow: one more step, or unused). The line says where each figure went,
  --- what its tile gave, and the card drawn, named only to the seat that drew it from the deck.
  function rules.turn_summary(view, seat, turn)
    local function path_of(word) return COLOUR_OF[string.lower(word or "")] end
    -- Each play or arrow moves the path's figure one step (seed 000, "Les plaquettes"; rules.move_one_step), and
    -- the view is the position after the turn: the m-th of n steps on a path this turn reached step
    -- final - n + m, so each part says where its own step went (a card to step 2, its arrow to step 3).
    local function moves_of(text)
      local words = {}
      for w in text:gmatch("%S+") do words[#words + 1] = w end
      local out = {}
      if words[1] == "play" and words[2] then
        out[#out + 1] = path_of(words[2]:sub(1, 1))
        if words[#words - 1] == "move" then out[#out + 1] = path_of(words[#words]) end
      elseif words[1] == "move" then
        out[#out + 1] = path_of(words[2])
      end
      return out
    end
    local steps_this_turn, steps_told = {}, {}
    for _, text in ipairs(turn.actions) do
      for _, k in ipairs(moves_of(text)) do steps_this_turn[k] = (steps_this_turn[k] or 0) + 1 end
    end
    local function step_text(k)
      local f, step = own_figure(view, seat, k)
      if not f then return COLOURS[k] end
      steps_told[k] = (steps_told[k] or 0) + 1
      step = step - steps_this_turn[k] + steps_told[k]
      if step < 1 or not STEPS[step] then return COLOURS[k] end
      return string.format("%s %s to step %d (%+d)", (f - 1) % FPS == 0 and "explorer" or "adventurer", COLOURS[k],
        step, STEPS[step])
    end
    local drawn, taken = nil, nil
    local discarded = nil -- the card discarded this turn: seed 000 lets a seat take it back at once
    local parts = {}
    for _, m in ipairs(turn.moved) do
      if m.to == HAND[seat] and not m.from then drawn = m.card end
      if m.to == HAND[seat] and m.from then taken = m end
    end
    for _, text in ipairs(turn.actions) do
      local words = {}
      for w in text:gmatch("%S+") do words[#words + 1] = w end
      local verb, card = words[1], words[2]
      if verb == "play" and card then
        local k = path_of(card:sub(1, 1))
        local other = words[#words - 1] == "move" and path_of(words[#words]) or nil
        local text = string.format("played %s: %s", card, k and step_text(k) or card)
        if other then text = text .. ", " .. step_text(other) end
        parts[#parts + 1] = text
      elseif verb == "move" then
        local k = path_of(words[2])
        parts[#parts + 1] = "arrow: " .. (k and step_text(k) or text)
      elseif verb == "pass" then
        parts[#parts + 1] = "left the arrow unused"
      elseif verb == "discard" then
        discarded = card
        parts[#parts + 1] = "discarded " .. (card or "")
      elseif verb == "draw" and card == "deck" then
        if drawn and seat == turn.viewer then
          parts[#parts + 1] = string.format("%sdrew %s", turn.you and "you " or "", NAME[drawn])
        else
          parts[#parts + 1] = "drew from the deck"
        end
      elseif verb == "draw" and (taken or discarded) then
        -- a card from a discard pile; the one just discarded, taken back, moved nowhere: its discard names it
        local k = taken and COLOUR[taken.card] or path_of(discarded:sub(1, 1))
        parts[#parts + 1] = string.format("took %s from the %s discard pile",
          taken and NAME[taken.card] or discarded .. " back", COLOURS[k])
      else
        parts[#parts + 1] = text
      end
    end
    -- What the tiles reached gave (seed 000 "Les plaquettes"): artifacts taken, VP chips.
    for _, m in ipairs(turn.moved) do
      if m.to == ARTIFACTS[seat] then parts[#parts + 1] = "found an artifact" end
    end
    for _, c in ipairs(turn.counters) do
      if c.name == "vp" and c.owner == seat and c.after ~= c.before then
        parts[#parts + 1] = string.format("VP tile: %+d VP chips (now %d)", c.after - c.before, c.after)
      end
    end
    -- The expedition's end (seed 000 "Fin d'une expédition et points"): the figures past a bridge, or the
    -- last card drawn.
    if K.crossed(view) >= K.END_FIGURES then
      parts[#parts + 1] = string.format("%d figures past a bridge: the expedition ends", K.crossed(view))
    elseif turn.actions[#turn.actions] == "draw deck" and view:size(K.DECK) == 0 then
      parts[#parts + 1] = "the deck is empty: the expedition ends"
    end
    return table.concat(parts, "; ")
  end

  local PHASE_TEXT = { [K.PLAY_PHASE] = "play or discard a card", [K.ARROW_PHASE] = "use an arrow (move <path> or pass)",
                       [K.DRAW_PHASE] = "draw a card" }

  --- describe(view, seat): the five paths with every tile and figure, then each seat's chips and piles (the
  --- viewer's hand in full), the discard tops and the deck.
  function rules.describe(game, seat)
    local lines = {}
    local function add(...) lines[#lines + 1] = string.format(...) end
    add("Expedition %d of %d - seat %d to %s", game:round(), game:rounds(), game:to_move(), PHASE_TEXT[game:phase()] or "?")
    add("Deck: %s - figures past a bridge: %d of %d (the expedition ends at the last)", plural(game:size(K.DECK), "card"),
        K.crossed(game), K.END_FIGURES)
    local width = math.max(6, 2 * SEATS + 1)
    local function row(label, cells)
      local parts = { string.format("%-7s", label) }
      for step = 1, NSTEPS do
        if step == K.BRIDGE then parts[#parts + 1] = "| " end
        local text = cells[step] or ""
        parts[#parts + 1] = text .. string.rep(" ", math.max(1, width - #text))
      end
      return (table.concat(parts):gsub("%s+$", ""))
    end
    local numbers, values = {}, {}
    for step = 1, NSTEPS do numbers[step], values[step] = tostring(step), tostring(STEPS[step]) end
    add("Paths (E explorer, a adventurer, then the seat; tiles: artif artifact, arrow, VP<n> victory points)")
    lines[#lines + 1] = row("step", numbers)
    lines[#lines + 1] = row("value", values)
    for k = 1, NCOLOURS do
      local tiles, figures = {}, {}
      for step = 1, NSTEPS do tiles[step] = tile_code(game:tile(k, step)) end
      for f = 1, SEATS * FPS do
        local track, step = game:figure(f)
        if track == k then
          local s = (f - 1) // FPS + 1
          figures[step] = (figures[step] or "") .. ((f - 1) % FPS == 0 and "E" or "a") .. s
        end
      end
      lines[#lines + 1] = row(COLOURS[k], tiles)
      lines[#lines + 1] = row("", figures)
    end
    local order = { seat }
    for s = 1, SEATS do if s ~= seat then order[#order + 1] = s end end
    for _, s in ipairs(order) do
      local found = game:size(ARTIFACTS[s])
      add("Seat %d%s: %s, %s%s | figures now worth %+d", s, s == seat and " (you)" or "",
          plural(game:counter(K.VP, s), "VP chip"), plural(game:counter(K.CHIPS, s), "artifact chip"),
          found > 0 and (" + " .. found .. " found") or "", K.figure_points(game, s))
      add("  expedition score if it ended now: %+d%s", rules.score(game, s),
          game:round() == game:rounds() and " (with the artifact table)" or "")
      local piles = {}
      for k = 1, NCOLOURS do
        local text = names(game, PILE[s][k])
        if K.EITHER and game:size(PILE[s][k]) > 1 then
          text = text .. (K.direction(game, s, k) == K.DOWN and " (down)" or " (up)")
        end
        piles[k] = COLOURS[k] .. " " .. text
      end
      for _, line in ipairs(wrapped("  piles: ", piles, " | ")) do lines[#lines + 1] = line end
      local hand = game:cards(HAND[s])
      local known = true
      for _, c in ipairs(hand) do if not NAME[c] then known = false end end
      if s == seat or (known and #hand > 0) then -- the end of an expedition shows every hand
        table.sort(hand, function(a, b) return COLOUR[a] < COLOUR[b] or (COLOUR[a] == COLOUR[b] and VALUE[a] < VALUE[b]) end)
        for i, c in ipairs(hand) do hand[i] = NAME[c] end
        add("  hand: %s", #hand > 0 and table.concat(hand, " ") or "-")
      else
        add("  hand: %s", plural(game:size(HAND[s]), "card"))
      end
    end
    local tops = {}
    for k = 1, NCOLOURS do
      local top = game:top(DISCARD[k])
      tops[k] = string.format("%s %s (%d)", LETTER[k], top and NAME[top] or "-", game:size(DISCARD[k]))
    end
    add("Discard piles (top, cards): %s", table.concat(tops, "  "))
    add("Match totals: %s", (function()
      local t = {}
      for s = 1, SEATS do t[s] = string.format("seat %d %d", s, game:match_score(s)) end
      return table.concat(t, ", ")
    end)())
    return table.concat(lines, "\n") .. "\n"
  end

  local SYNTAX = "type play <card> [explorer|adventurer|move <path>], discard <card>, draw deck, draw <letter>, " ..
                 "move <path> or pass (e.g. play Y3 explorer, play Y5, discard R7, draw G, move red)"

  --- explain(game, text): why `text` is not legal now, in one line.
  function rules.explain(game, text)
    local words = {}
    for w in string.gmatch(string.lower(text), "%S+") do words[#words + 1] = w end
    local verb = words[1]
    local seat, phase = game:to_move(), game:phase()
    if verb == "play" or verb == "discard" then
      if phase == K.ARROW_PHASE then return "resolve the arrow first: move <path> (e.g. move red) or pass" end
      if phase == K.DRAW_PHASE then return "you have played a card this turn: now draw (draw deck or draw <colour letter>)" end
      local wanted = words[2] or ""
      local held
      for _, c in ipairs(game:cards(HAND[seat])) do
        if string.lower(NAME[c]) == wanted then held = c end
      end
      if not held then return "you do not hold " .. string.upper(wanted) end
      if verb == "discard" then return "'" .. text .. "': discard takes only a card, e.g. discard " .. NAME[held] end
      local k, v = COLOUR[held], VALUE[held]
      local pile = PILE[seat][k]
      local top = game:top(pile)
      local figure_word = words[3]
      if not top then
        if figure_word ~= "explorer" and figure_word ~= "adventurer" then
          return "you have not started the " .. COLOURS[k] .. " path: say which figure starts it, play " .. NAME[held] ..
                 " explorer or play " .. NAME[held] .. " adventurer"
        end
        if P.start_with_lowest then
          for _, c in ipairs(game:cards(HAND[seat])) do
            if COLOUR[c] == k and VALUE[c] < v then return "start the " .. COLOURS[k] .. " path with your lowest " .. COLOURS[k] .. " card, " .. NAME[c] end
          end
        end
        if figure_word == "explorer" then return "your explorer is already on a path" end
        return "all your adventurers are already on paths"
      end
      if figure_word == "explorer" or figure_word == "adventurer" then
        return "you have started the " .. COLOURS[k] .. " path already (one path per colour): play " .. NAME[held] .. " to advance"
      end
      if not K.follows(game, seat, k, held, top, game:size(pile)) then
        if not K.base_rule() then
          return NAME[held] .. " may not go on your " .. COLOURS[k] .. " pile (top " .. NAME[top] .. ") by this variant's rule"
        end
        local dir = K.direction(game, seat, k)
        return NAME[held] .. " must be equal to or " .. (dir == K.DOWN and "lower" or "higher") .. " than " .. NAME[top] ..
               " on your " .. COLOURS[k] .. " pile"
      end
      local rest = table.concat(words, " ", 3)
      local needs_choice = K.EITHER and game:size(pile) == 1 and v == VALUE[top]
      if needs_choice and figure_word ~= "up" and figure_word ~= "down" then
        return NAME[held] .. " equals " .. NAME[top] .. ": it fixes the direction of your " .. COLOURS[k] ..
               " pile, say play " .. NAME[held] .. " up or play " .. NAME[held] .. " down"
      end
      if (figure_word == "up" or figure_word == "down") and not needs_choice then
        return "up or down is said only for a second card equal to the first in the ascending-descending variant: play " .. NAME[held]
      end
      local _, step = own_figure(game, seat, k)
      local target = string.match(rest, "move%s+(%a+)")
      if target then
        if step < NSTEPS then
          return "move <path> after a card only by the last-step rule: your " .. COLOURS[k] .. " figure is on step " .. step .. ", not " .. NSTEPS
        end
        local j = COLOUR_OF[target]
        if not j then return "'" .. target .. "' is not a path: one of " .. table.concat(COLOURS, ", ") end
        if j == k then return "your " .. COLOURS[k] .. " figure is on the last step: move another figure" end
        local f, other = own_figure(game, seat, j)
        if not f then return "you have no figure on the " .. COLOURS[j] .. " path" end
        if other >= NSTEPS then return "your " .. COLOURS[j] .. " figure is on the last step already" end
      end
      if step and step >= NSTEPS and not P.last_step_optional then
        return "your " .. COLOURS[k] .. " figure is on the last step: say which other figure moves, play " .. NAME[held] .. " move <path>"
      end
    elseif verb == "draw" then
      if phase ~= K.DRAW_PHASE then
        return phase == K.ARROW_PHASE and "resolve the arrow first: move <path> or pass"
          or "play or discard a card first, then draw"
      end
      local object = words[2] or ""
      if object == "deck" then return "the deck is empty" end
      local k = COLOUR_OF[object]
      if not k then return "'" .. object .. "' is not a colour letter: draw deck or draw one of " .. table.concat(LETTER, " ") end
      if game:size(DISCARD[k]) == 0 then return "the " .. COLOURS[k] .. " discard pile is empty" end
    elseif verb == "move" or verb == "pass" then
      if phase ~= K.ARROW_PHASE then
        return "there is no arrow to resolve" .. (verb == "move" and " (to move a figure, play a card of its path)" or "")
      end
      if verb == "pass" then return "an arrow must be used while one of your figures can move" end
      local k = COLOUR_OF[words[2] or ""]
      if not k then return "'" .. (words[2] or "") .. "' is not a path: one of " .. table.concat(COLOURS, ", ") end
      local f, step = own_figure(game, seat, k)
      if not f then return "you have no figure on the " .. COLOURS[k] .. " path" end
      if step >= NSTEPS then return "your " .. COLOURS[k] .. " figure is on the last step already" end
    end
    return "'" .. text .. "' is not an action now: " .. SYNTAX
  end
end

return M
