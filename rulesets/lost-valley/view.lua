-- view.lua — the terminal view (describe) and the one-line reasons for refused actions (explain) of Lost Valley.
-- rules.lua calls install(rules, K) with its constants; nothing here is on a hot path.

local M = {}
local words_of = houserules.words -- the words of a typed line, lower-cased (scripting layer)

function M.install(rules, K)
  local B, SEATS, LETTER, NAME, ITEMS, ITEM, NUGGETS = K.B, K.SEATS, K.LETTER, K.NAME, K.ITEMS, K.ITEM, K.NUGGETS
  local VQ, VR, vid = K.VQ, K.VR, K.vid
  local W, H = K.W, K.H
  local WAYS = rules.WAYS

  local function vtext(v) return VQ[v] .. "," .. VR[v] end
  local function names(game, zone, hide)
    local counts, order = {}, {}
    for _, c in ipairs(game:cards(zone)) do
      local n = (c == 0 or hide) and "?" or NAME[c]
      if not counts[n] then counts[n] = 0; order[#order + 1] = n end
      counts[n] = counts[n] + 1
    end
    local out = {}
    for _, n in ipairs(order) do out[#out + 1] = counts[n] > 1 and (n .. " x" .. counts[n]) or n end
    return #out > 0 and table.concat(out, ", ") or "-"
  end

  --- fit(text [, width]) -> string: `text` (lines separated by "\n") with every line longer than `width`
  --- (default 100) columns broken after a ", " or "; " (else a blank) at or before that column, the rest
  --- indented by four blanks: the table fits a 100-column terminal.
  local function fit(text, width)
    width = width or 100
    local out = {}
    for line in (text .. "\n"):gmatch("(.-)\n") do
      local whole = line:sub(1, 1) == "\1" -- a line of the map: kept whole
      if whole then line = line:sub(2) end
      while not whole and #line > width do
        local cut = nil
        for i = width, 40, -1 do
          local two = line:sub(i - 1, i)
          if two == ", " or two == "; " then cut = i; break end
        end
        if not cut then
          for i = width, 20, -1 do if line:sub(i, i) == " " then cut = i; break end end
        end
        if not cut then break end
        out[#out + 1] = (line:sub(1, cut):gsub("%s+$", ""))
        line = "    " .. line:sub(cut + 1)
      end
      out[#out + 1] = line
    end
    return table.concat(out, "\n")
  end

  --- score_breakdown(game, seat): the nuggets of the seat's gold bag, token by token (seed FIN DU JEU: the
  --- richest player wins; the number of tokens does not count).
  function rules.score_breakdown(game, seat)
    local parts = {}
    for _, c in ipairs(game:cards(K.GOLD[seat])) do parts[#parts + 1] = c == 0 and "?" or tostring(K.NUGGETS[c]) end
    if #parts == 0 then return "gold bag empty: 0 nuggets" end
    return fit(string.format("gold bag, %d token%s: %s = %d nuggets", #parts, #parts == 1 and "" or "s",
      table.concat(parts, " + "), rules.nuggets(game, seat)), 92) -- play indents it by four
  end

  --- turn_summary(view, seat, turn) -> string: the line `play` prints for `seat`'s turn as the viewer saw it
  --- (docs/writing-rules.md, hooks). Seed UN TOUR DE JEU: a turn moves the prospector and explores (tiles laid),
  --- and performs one action (pan, mine, event, fish, hunt, fell, build, buy, refine), whisky buying a second
  --- move or action. The line names each step and what it resolved: the tokens taken (a gold token's value
  --- only to its owner: they lie face down, seed INVENTAIRE), the animal killed, the equipment or goods
  --- gained, and the seat's backpack change against the supply (log, food, tool).
  function rules.turn_summary(view, seat, turn)
    local mine = seat == turn.viewer
    local parts = {}
    local VERB = { pan = "panned at", mine = "mined", keep = "kept", discard = "discarded",
                   refine = "refined", buy = "bought" }
    -- The tiles the turn's moves laid, every one (a tile with a single placement and a triangle filling a hole are
    -- laid without a `lay`): the river's course (river tiles and the source) and the land rhombi and triangles laid
    -- are counters.
    local tiles = { river = 0, land = 0, triangle = 0 }
    for _, c in ipairs(turn.counters) do
      if c.owner == 0 and c.name == "course" then tiles.river = c.after - c.before end
      if c.owner == 0 and c.name == "land_laid" then tiles.land = c.after - c.before end
      if c.owner == 0 and c.name == "triangles_laid" then tiles.triangle = c.after - c.before end
      if c.owner == 0 and c.name == "end_edge" and c.after == 0 then tiles.source = 1 end -- the source closed it
    end
    if tiles.source then tiles.river = tiles.river - 1 end
    local function laid_text()
      local out = {}
      for _, k in ipairs({ "river", "land", "triangle" }) do
        local n = tiles[k]
        if n > 0 then out[#out + 1] = string.format("%d %s tile%s", n, k, n == 1 and "" or "s") end
      end
      if tiles.source then out[#out + 1] = "the source" end
      return #out > 0 and (" (laid " .. table.concat(out, ", ") .. ")") or ""
    end
    local moved_at -- the part of the (last) move that explored
    for _, text in ipairs(turn.actions) do
      local words = {}
      for w in text:gmatch("%S+") do words[#words + 1] = w end
      local verb, rest = words[1], text:match("^%S+ (.*)$")
      if verb == "lay" then
        -- counted above
      elseif verb == "hunt" then
        local hunter, beast = view:counter("hunter_roll"), view:counter("animal_roll")
        parts[#parts + 1] = string.format("hunted at %s (dice %d against %d: %s)", rest or "?", hunter, beast,
          hunter > beast and "a kill" or "missed")
      elseif verb == "move" then
        moved_at = #parts + 1
        parts[#parts + 1] = "moved to " .. (rest or "?")
      elseif verb == "event" then
        parts[#parts + 1] = string.format("event at %s (paid %s, %s)", words[2] or "?", words[3] or "?", words[4] or "?")
      elseif verb == "fish" or verb == "fell" or verb == "pay" then
        parts[#parts + 1] = verb == "fish" and "fished" or verb == "fell" and "felled a tree" or "paid"
      elseif verb == "build" then
        parts[#parts + 1] = "built a " .. (rest or "?")
      elseif verb == "drink" then
        parts[#parts + 1] = "drank a whisky " .. (rest or "")
      elseif verb == "use" then
        parts[#parts + 1] = "ate the dried fish"
      elseif verb == "declare" then
        parts[#parts + 1] = "declared the end"
      elseif verb == "end" then -- the end of the turn says nothing of its own
      elseif VERB[verb] then
        parts[#parts + 1] = VERB[verb] .. " " .. (rest or "")
      else
        parts[#parts + 1] = text
      end
    end
    local moves = 0
    for _, text in ipairs(turn.actions) do if text:match("^move ") then moves = moves + 1 end end
    if moves == 1 then parts[moved_at] = parts[moved_at] .. laid_text()
    elseif laid_text() ~= "" then parts[#parts + 1] = "explored" .. laid_text() end
    -- What the actions resolved: tokens and items that came to the seat or were killed.
    local got = {}
    for _, m in ipairs(turn.moved) do
      local zone = view:zone_name(m.to)
      if zone == "gold." .. seat then
        got[#got + 1] = string.format("%s (%d nugget%s)", NAME[m.card], NUGGETS[m.card], NUGGETS[m.card] == 1 and "" or "s")
      elseif zone == "equip." .. seat or zone == "goods." .. seat then
        got[#got + 1] = NAME[m.card]
      elseif zone == "killed" then
        parts[#parts + 1] = "killed a " .. NAME[m.card]
      end
    end
    if #got > 0 then parts[#parts + 1] = (mine and turn.you and "you got " or "got ") .. table.concat(got, ", ") end
    if not mine then -- the gold bag is face down: its new tokens are counted, not named
      local tokens = view:size(K.GOLD[seat])
      for _, text in ipairs(turn.actions) do
        -- an event may bring gold too (seed B.2: face down into the gold bag): its count, not its worth
        if text:match("^pan ") or text:match("^mine ") or text:match("^event ") or text:match("^keep ") then
          parts[#parts + 1] = string.format("gold bag now %d token%s", tokens, tokens == 1 and "" or "s")
          break
        end
      end
    end
    local changes = {}
    for _, c in ipairs(turn.counters) do
      if c.owner == seat and (c.name == "log" or c.name == "food" or c.name == "tool") then
        changes[#changes + 1] = string.format("%s %+d", c.name, c.after - c.before)
      end
    end
    if #changes > 0 then parts[#parts + 1] = table.concat(changes, ", ") end
    if #parts == 0 then return "ended the turn" end
    return table.concat(parts, "; ")
  end

  --- describe(view, seat): the map (faces by landscape letter, intersections with prospectors and buildings, the
  --- sides of the vertex rows: - land, ~ along the river, x across it, = ford, c canal), the tokens lying on it as
  --- counts, the ice block, then the viewer's inventory, the store's stock and what the others visibly hold.
  function rules.describe(game, seat)
    K.geometry(game)
    local lines = {}
    local function add(...) lines[#lines + 1] = string.format(...) end
    local to_move = game:to_move()
    add("Lost Valley - turn %d - seat %d to %s - land rhombi left %d, river %d, triangles %d%s",
        game:counter("turns") // SEATS + 1, to_move, K.PHASES[game:phase()] or "?", game:size(K.PILE_LAND),
        game:size(K.PILE_RIVER), game:size(K.PILE_TRIANGLE), game:counter("ice") ~= 0 and " - ICE BLOCK in play" or "")
    local t = game:top(K.DRAWN)
    if t and t > 0 then add("Tile to lay: %s", NAME[t]) end
    -- the extent of the explored area (plus one row and column)
    local qmax, rmax = 2, 2
    local _, _, _, nf = game:board_size(B)
    for f = 1, nf do
      if game:tile_at(B, f) then
        for _, v in ipairs(game:face_vertices(B, f)) do
          if VQ[v] > qmax then qmax = VQ[v] end
          if VR[v] > rmax then rmax = VR[v] end
        end
      end
    end
    qmax, rmax = math.min(qmax + 1, W), math.min(rmax + 1, H)
    local ice_face
    do local _, _, f = game:figure(K.ICE); if type(f) == "number" and game:counter("ice") ~= 0 then ice_face = f end end
    -- the candidate placements of the tile being laid: their faces lettered a, b, c... (* where several overlap)
    local cand_of, cands = {}, {}
    local phase = game:phase()
    if phase == rules.constants.LAY_RIVER or phase == rules.constants.LAY_LAND then
      local out = {}
      rules.actions(game, out)
      for i, x in ipairs(out) do
        local tag = string.char(96 + math.min(i, 26))
        local faces, exit = rules.placement_faces(game, x)
        local ft = {}
        for _, f in ipairs(faces) do
          cand_of[f] = cand_of[f] and "*" or tag
          ft[#ft + 1] = game:face_text(B, f)
        end
        cands[#cands + 1] = string.format("%s = %s (%s%s)", tag, rules.action_text(game, x), table.concat(ft, " + "),
          exit and ("; the river leaves by " .. game:edge_text(B, exit)) or "")
      end
    end
    -- The map: intersection q,r at column 4q + 2r (rows slant: q,r+1 stands up and right of q,r, half a side on),
    -- each followed by its figure; the sides between are drawn where a tile ends (inner sides of a tile left blank),
    -- the faces between the intersection rows by letter. Coordinates on the four rims.
    local X0 = 5 -- columns of the row labels ("r=18 ")
    local width = X0 + 4 * qmax + 2 * rmax + 7 -- 120 columns at most (18 x 18)
    local function blank() local row = {}; for i = 1, width do row[i] = " " end; return row end
    local function put(row, col, ch) if col >= 1 and col <= width then row[col] = ch end end
    local function puts(row, col, text) for i = 1, #text do put(row, col + i - 1, text:sub(i, i)) end end
    local function vx(q, r) return X0 + 4 * q + 2 * r + 1 end
    local function side(e, diagonal) -- the character(s) of side e: nil when nothing is drawn
      if not e then return nil end
      local way = rules.way(game, e)
      local canal = game:mark("valley", "canal", e) ~= 0
      if canal then return "c" end
      if way & WAYS.FORD ~= 0 then return "=" end
      if way & WAYS.CROSSING ~= 0 then return "x" end
      if way == 0 then
        -- an inner side of a tile: blank; a side with no tile on either side: blank
        return nil
      end
      if way & WAYS.ALONG ~= 0 then return diagonal or "~" end
      return diagonal or "-"
    end
    add("Map (F forest, M mountain, B bushes, L lake, R river, S source, T trading post, Y refinery,")
    add("     C bear cave, E meadow, H start; lower case: a mine; # ice block. Intersections: + explored,")
    add("     . not yet, $ store, n fish net, s sawmill, then the prospector there: its seat, * several")
    add("     (listed below). Sides: - / \\ tile borders, ~ along the river, x across it, = ford, c canal)")
    local function q_rim(r)
      local row = blank()
      for q = 0, qmax do puts(row, vx(q, r), tostring(q)) end
      return "\1" .. (("q=   " .. table.concat(row):sub(6)):gsub("%s+$", ""))
    end
    lines[#lines + 1] = q_rim(rmax)
    local crowd = {}
    for r = rmax, 0, -1 do
      if r < rmax then
        local row = blank()
        for q = 0, qmax do
          local x = vx(q, r)
          local fu, fd = game:face(B, q, r, "u"), game:face(B, q, r, "d")
          -- the side q,r - q,r+1 (/) and q+1,r - q,r+1 (\)
          local a, up = vid(q, r), vid(q, r + 1)
          local ch = a and up and side(game:edge_between(B, a, up), "/")
          if ch then put(row, x + 1, ch) end
          local b = vid(q + 1, r)
          ch = b and up and side(game:edge_between(B, b, up), "\\")
          if ch then put(row, x + 3, ch) end
          for i, f in ipairs({ fu, fd }) do
            if f then
              local c
              if game:tile_at(B, f) then
                c = LETTER[game:face_feature(B, f) & 15] or "?"
                if game:mark("valley", "mine", f) ~= 0 then c = c:lower() end
                if f == ice_face then c = "#" end
              elseif cand_of[f] then
                c = cand_of[f]
              end
              if c then put(row, x + 2 * i, c) end
            end
          end
        end
        lines[#lines + 1] = "\1" .. table.concat(row):gsub("%s+$", "")
      end
      local row = blank()
      puts(row, 1, string.format("r=%-3d", r))
      local last = 0
      for q = 0, qmax do
        local v = vid(q, r)
        if v then
          local x = vx(q, r)
          local touched = false
          for _, f in ipairs(game:vertex_faces(B, v)) do if game:tile_at(B, f) then touched = true end end
          local ch = touched and "+" or "."
          local bld = game:mark("valley", "building", v)
          if bld == 1 then ch = "n" elseif bld == 2 then ch = "s" end
          if touched and rules.at_store(game, v) then ch = "$" end
          put(row, x, ch)
          local here = {}
          -- the seats there, in increasing order: game:figures_on lists them in figure order (engine/state.hpp), and
          -- prospector s is figure s (valley.lua)
          for _, f in ipairs(game:figures_on(B, "vertex", v)) do if f <= SEATS then here[#here + 1] = f end end
          if #here == 1 then put(row, x + 1, tostring(here[1]))
          elseif #here > 1 then
            put(row, x + 1, "*")
            local seats = {}
            for _, f in ipairs(here) do seats[#seats + 1] = tostring(f) end
            crowd[#crowd + 1] = string.format("%s: %d prospectors (seats %s)", vtext(v), #here, table.concat(seats, ", "))
          end
          local w = vid(q + 1, r)
          if w and q < qmax then
            local e = game:edge_between(B, v, w)
            local c = side(e)
            if c then puts(row, x + 2, c == "-" and "--" or c == "~" and "~~" or ("-" .. c)) end
          end
          last = x + 1
        end
      end
      puts(row, last + 2, string.format("r=%d", r))
      lines[#lines + 1] = "\1" .. table.concat(row):gsub("%s+$", "")
    end
    lines[#lines + 1] = q_rim(0)
    if #crowd > 0 then add("Several at one intersection: %s", table.concat(crowd, "; ")) end
    if #cands > 0 then add("Where the tile may go (letters on the map): %s", table.concat(cands, "; ")) end
    -- tokens as counts, per site, grouped by kind of site
    local groups, order = {}, {}
    local function note(kind, text)
      if not groups[kind] then groups[kind] = {}; order[#order + 1] = kind end
      local g = groups[kind]
      g[#g + 1] = text
    end
    for f = 1, nf do
      local n = #game:lying(B, "face", f)
      if n > 0 then
        local l = game:tile_at(B, f) and (K.LANDSCAPE_NAME[game:face_feature(B, f) & 15] or "?") or "?"
        note(l, game:face_text(B, f) .. (n > 1 and (" x" .. n) or ""))
      end
    end
    local _, _, _, _, _, nv = game:board_size(B)
    for v = 1, nv do
      local n = #game:lying(B, "vertex", v)
      if n > 0 then note("intersection", vtext(v) .. (n > 1 and (" x" .. n) or "")) end
    end
    if #order == 0 then add("Face-down tokens: none")
    else
      local parts = {}
      for _, kind in ipairs(order) do parts[#parts + 1] = kind .. " " .. table.concat(groups[kind], " ") end
      add("Face-down tokens: %s", table.concat(parts, "; "))
    end
    -- the inventories (every bag is shown when the viewer may see it: at the end of the game)
    local function known(zone)
      for _, c in ipairs(game:cards(zone)) do if c == 0 then return false end end
      return true
    end
    local function count(n, word) return n .. " " .. word .. (n == 1 and "" or "s") end -- "1 token", "2 tokens"
    -- goods: each the viewer knows by name, the others counted face down (the start whiskies come from the open
    -- supply, so every seat reads them the same)
    local function goods_text(zone)
      local known_list, hidden = {}, 0
      for _, c in ipairs(game:cards(zone)) do
        if c == 0 then hidden = hidden + 1 else known_list[#known_list + 1] = c end
      end
      local counts, order = {}, {}
      for _, c in ipairs(known_list) do
        local n = NAME[c]
        if not counts[n] then counts[n] = 0; order[#order + 1] = n end
        counts[n] = counts[n] + 1
      end
      local out = {}
      for _, n in ipairs(order) do out[#out + 1] = counts[n] > 1 and (n .. " x" .. counts[n]) or n end
      if hidden > 0 then out[#out + 1] = hidden .. " face down" end
      return #out > 0 and table.concat(out, ", ") or "-"
    end
    local function inventory(s, viewer)
      local own = viewer or (known(K.GOODS[s]) and known(K.GOLD[s]))
      local pack, room = rules.backpack(game, s)
      local eq, eroom = rules.equipment(game, s)
      local pos = rules.position(game, s)
      add("Seat %d%s at %s: log %d, food %d, tool %d (backpack %d/%d); equipment %s; goods %s (slots %d/%d); gold %s",
          s, viewer and " (you)" or "", pos and vtext(pos) or "?", game:counter("log", s), game:counter("food", s),
          game:counter("tool", s), pack, room, names(game, K.EQUIP[s]),
          goods_text(K.GOODS[s]), eq, eroom,
          own and (count(game:size(K.GOLD[s]), "token") .. ", " .. count(rules.nuggets(game, s), "nugget"))
              or count(game:size(K.GOLD[s]), "token"))
    end
    if seat and seat >= 1 and seat <= SEATS then inventory(seat, true) end
    for s = 1, SEATS do if s ~= seat then inventory(s, false) end end
    add("Store stock: %s; supply: log %d, food %d, tool %d; buildings: net %d, sawmill %d, mine %d",
        names(game, K.SHOP), game:counter("log", 0), game:counter("food", 0), game:counter("tool", 0),
        game:counter("net"), game:counter("sawmill"), game:counter("mine"))
    if game:phase() == rules.constants.MAIN then
      add("This turn: %d move(s) and %d action(s) left%s", game:counter("moves"), game:counter("acts"),
          game:counter("drank") ~= 0 and ", whisky drunk" or "")
    end
    return fit(table.concat(lines, "\n")) .. "\n"
  end

  -- ---- explain ----------------------------------------------------------------------------------------------------
  local function legal_texts(game)
    local out = {}
    rules.actions(game, out)
    local texts = {}
    for _, a in ipairs(out) do texts[rules.action_text(game, a)] = true end
    return texts
  end

  --- explain(game, text): which rule forbids `text` now (seed section in brackets). Patterns are anchored and
  --- bounded: no backtracking on long input.
  function rules.explain(game, text)
    K.geometry(game)
    if #text > 80 then return "not an action of Lost Valley (too long)" end
    local s = game:to_move()
    local phase = game:phase()
    local C = rules.constants
    local verb = text:match("^(%a+)") or ""
    if phase == C.LAY_RIVER or phase == C.LAY_LAND then
      local options = {}
      for t in pairs(legal_texts(game)) do options[#options + 1] = t end
      table.sort(options)
      local list = " (" .. table.concat(options, ", ") .. ")"
      if verb ~= "lay" then return "lay the drawn tile first (seed A.2: the exploration comes before anything else)" .. list end
      return "that placement is not legal" .. list .. ": the tile must " .. (phase == C.LAY_RIVER
        and "extend the river's course through its open end, next to your prospector if possible (seed A.2.a)"
        or "cover a free corner of your intersection, never the face the river flows into (seed A.2.b)")
    end
    if phase == C.KEEP then return "keep one of the two events you looked at (seed B.2): keep <name>" end
    if phase == C.SHOP and verb == "pay" then
      return "pay with a gold token of your bag while nuggets are owed (pay grey4), or pay to let the engine choose (seed B.7)"
    end
    if phase == C.SHOP and verb ~= "buy" then return "finish buying first: buy <item>, pay <token> or pay (seed B.7)" end
    if phase == C.DISCARD then
      return "discard the excess first (seed INVENTAIRE): backpack " .. table.concat({ rules.backpack(game, s) }, "/")
        .. ", equipment " .. table.concat({ rules.equipment(game, s) }, "/")
    end
    if verb == "lay" then return "there is no tile to lay: tiles are laid while exploring (seed A.2)" end
    if verb == "move" then
      if game:counter("moves") == 0 then
        return game:counter("drank") == 0 and "you have moved this turn; drink a whisky for a second move (seed B.2)"
          or "you have moved this turn, and one whisky per turn only (seed B.2)"
      end
      local q, r, mode = text:match("^move (%d%d?),(%d%d?) ?(%a*)$")
      if not q then return "write move <q>,<r> [horse|boat], e.g. move 4,7" end
      local v = vid(tonumber(q), tonumber(r))
      if not v then return "there is no intersection " .. q .. "," .. r .. " on the board" end
      if mode == "horse" and not rules.owns(game, s, 1) then return "you have no horse (seed A.1)" end
      if mode == "boat" and not rules.owns(game, s, 3) then return "you have no boat (seed A.1)" end
      local used = game:counter("mode")
      if used ~= 0 and K.MODE_NAME[used] ~= (mode == "" and "foot" or mode) then
        return "one way of moving per turn: you moved on " .. K.MODE_NAME[used] .. " (seed A.1)"
      end
      local n = 0
      for _, f in ipairs(game:figures_on(B, "vertex", v)) do if f <= SEATS then n = n + 1 end end
      if n >= rules.room_at(game, v) then
        return "no room at " .. q .. "," .. r .. ": one prospector per intersection, two on a river bank (seed A.1)"
      end
      return q .. "," .. r .. " is out of reach " .. (mode == "" and "on foot" or "by " .. mode) ..
        ": along tile sides, 1 side on foot or 2 along the river, 2 on horseback, 3 by boat on the river; the river" ..
        " is crossed only at the fords or by boat; unexplored intersections stop a move (seed A.1-2)"
    end
    local actions = { pan = true, mine = true, event = true, fish = true, hunt = true, fell = true, build = true,
                      buy = true, refine = true }
    if actions[verb] and game:counter("acts") == 0 and not (verb == "buy" and phase == C.SHOP) then
      return game:counter("drank") == 0 and "one action per turn: drink a whisky for a second one (seed B)"
        or "one action per turn, and one whisky per turn only (seed B)"
    end
    local v = rules.position(game, s)
    if verb == "pan" then
      if game:counter("food", s) < 1 then return "panning costs a food (seed B.1)" end
      return "no river gold on the same bank next to you, nor on a lake or a bushes tile watered by a canal (seed B.1)"
    elseif verb == "mine" then
      if game:counter("food", s) < 1 or game:counter("log", s) < 1 then return "mining costs a food and a log (seed B.1)" end
      if text:match(" stick$") then return "a dynamite stick is used only without a crate, and you need one (seed B.2)" end
      return "no mountain gold on an adjacent mountain or source with a mine (seed B.1)"
    elseif verb == "event" then
      return "an event costs two base goods of your choice and needs an event token on an adjacent tile (seed B.2)"
    elseif verb == "fish" then
      return "fishing needs a fishing rod by a river or lake, a fish net here, or a fish symbol next to you (seed B.3)"
    elseif verb == "hunt" then
      return "no animal on an adjacent tile (seed B.4)"
    elseif verb == "fell" then
      return "felling needs an adjacent forest, and logs left in the supply (seed B.5)"
    elseif verb == "build" then
      local what = text:match("^build (%a+)") or ""
      if what == "net" then return "a fish net costs a tool, goes at a river or lake intersection without a building (seed B.6)" end
      if what == "sawmill" then return "a sawmill costs a tool, goes at a forest intersection without a building (seed B.6)" end
      if what == "canal" then return "a canal costs a log and joins a tile with water to a dry bushes or forest tile along a side at your intersection, never a mountain (seed B.6)" end
      if what == "mine" then return "a mine costs a tool, a food and a log, on an adjacent mountain or source without one (seed B.6)" end
      return "build net, build sawmill, build canal <edge>, build mine <face> (seed B.6)"
    elseif verb == "buy" then
      if game:phase() ~= C.SHOP and not rules.at_store(game, v) then return "you are not at a store (seed B.7)" end
      return "not in stock, or your gold does not cover it: prices in nuggets, no change given (seed B.7)"
    elseif verb == "refine" then
      return "a refinery turns two base goods into a whisky: stand at one, whisky left in the supply (seed A.2.c)"
    elseif verb == "drink" then
      if not rules.owns(game, s, 9) then return "you have no whisky (seed B.2)" end
      if game:counter("drank") ~= 0 then return "one whisky per turn (seed B.2)" end
      return "drink after your move (for a second move) or after your action (for a second action) (seed B.2)"
    elseif verb == "declare" then
      if not rules.at_start_store(game, v) then return "declare the end at the start store, by the waterfall (seed FIN DU JEU)" end
      return "you need at least " .. K.P.end_tokens .. " gold tokens to declare the end (seed FIN DU JEU)"
    elseif verb == "discard" then
      return "discard only at the end of your turn, what your inventory cannot hold (seed INVENTAIRE)"
    elseif verb == "keep" then
      return "nothing to keep: you keep an event after looking at the two of a meadow (seed B.2)"
    elseif verb == "pay" then
      return "nothing to pay: buy at a store first (seed B.7)"
    elseif verb == "use" then
      return "you have no dried fish (seed B.2)"
    end
    local _ = legal_texts
    return "not an action of Lost Valley: move, pan, mine, event, fish, hunt, fell, build, buy, refine, drink, declare end, end turn"
  end

  --- shorthand(game, text) -> {action text...} or nil: a whole purchase on one line (seed "Acheter": "le joueur peut
  --- acheter autant d'articles qu'il le souhaite"): "buy horse whisky whisky" stands for "buy horse", "buy whisky",
  --- "buy whisky", "pay"; an item paid partly with a good or an item keeps its "for": "buy horse for food rod" is
  --- "buy horse for food", "buy rod", "pay". "with" and the gold tokens to pay with ends the line (seed B.7: the player
  --- pays): "buy horse whisky with grey4 green1" is "buy horse", "buy whisky", "pay grey4", "pay green1"; without it
  --- `pay` lets the engine choose (the least overpayment, then the fewest tokens). Any other text: nil.
  function rules.shorthand(game, text)
    if #text > 200 then return nil end
    local words = words_of(text)
    if words[1] ~= "buy" or #words < 2 then return nil end
    local steps, i = {}, 2
    local paid = false
    while i <= #words do
      if words[i] == "with" then
        -- the tokens to pay with, in order (rules.pay_token): "buy horse with grey4 green1"
        if paid or not words[i + 1] then return nil end
        paid = true
        for j = i + 1, #words do
          if words[j] == "with" or words[j] == "for" then return nil end
          steps[#steps + 1] = "pay " .. words[j]
        end
        break
      end
      if words[i] == "for" then return nil end
      if words[i + 1] == "for" then
        if not words[i + 2] then return nil end
        steps[#steps + 1] = "buy " .. words[i] .. " for " .. words[i + 2]
        i = i + 3
      else
        steps[#steps + 1] = "buy " .. words[i]
        i = i + 1
      end
    end
    if not paid then steps[#steps + 1] = "pay" end
    return steps
  end
end

return M
