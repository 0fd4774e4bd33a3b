-- heuristic.lua — Lost Cities: Rivals: heuristic(game, seat), an estimate of the seat's final score from what the
-- seat may see. Used by the greedy bot (one ply) and by ismcts to evaluate the leaves of its search (docs/bots.md).
-- rules.lua installs it as rules.heuristic = require("heuristic")(rules, K), K its card tables and helpers.
--
-- The estimate (seed 002 "Fin de la partie et décompte": footprints × (1 + wagers), the bonus, 1 point a coin):
--   now            rules.score: the seat's expeditions as they lie plus its coins;
--   auction        while bidding: the auction as it would end if every seat raised while the river is worth more to
--                  it than the next bid (auction_value): for the seat that wins it, what the river would add to its
--                  expeditions minus the price; 0 for the others;
--   to come        per expedition, the footprints of the number cards that may still join it (value at or above
--                  its last card) and are still in the draw piles, times the share of them the seat may expect to
--                  win (SHARE / seats), times its multiplier (1 + wagers) (expedition_prospects).
-- The last term is what the old heuristic (the score and the auction only) lacked: taking a 9 early looked as good
-- as taking a 4, though it closes the colour to every card below 9 (seed 002 "Entreprendre des expéditions": each
-- number equal to or higher than the last); ismcts, whose leaves it values, lost to greedy 7 games in 60. The
-- auction term first credited the high bidder with the river as if the auction ended now: a leaf in the middle of
-- an auction then looked won by whoever bid last, and ismcts, whose search stops there, outbid itself (11 coins
-- for a G2) or let greedy take rivers for 1 coin: it won 14 games in 100 against greedy (docs/bots.md).
--
-- Information: it reads only public zones (the river, every expedition, the box) and counters; the piles are
-- hidden from everybody, and the cards still in them are counted as all cards less the ones seen, never read. So
-- its value is the same for every state the seat cannot tell apart. Cost: one game:cards per non-empty public
-- zone; no allocation.

--- Of the cards still in the piles that fit an expedition of the seat, the share it expects to win (it competes
--- with the other seats for every revealed card; some are boxed). An estimate, not fitted.
local SHARE = 0.8

return function(rules, K)
  local SEATS, NCOLOURS, NCARDS = K.SEATS, K.NCOLOURS, K.NCARDS
  local COLOUR, VALUE, FEET = K.COLOUR, K.VALUE, K.FEET
  local EXPEDITION, RIVER, BOX = K.EXPEDITION, K.RIVER, K.BOX
  local HIGH, BID, BIDDING = K.HIGH, K.BID, K.BIDDING
  local COINS = K.COINS
  local MIN_VALUE, MAX_VALUE = K.MIN_VALUE, K.MAX_VALUE
  local cards_of, counter_of, phase_of = K.cards_of, K.counter_of, K.phase_of
  local river_gain, COIN_POINTS = K.river_gain, K.COIN_POINTS
  local scratch = {}
  for c = 1, NCARDS do scratch[c] = 0 end

  -- FEET_FROM[k][v]: the footprints of all number cards of colour k with value >= v (v from MIN_VALUE to
  -- MAX_VALUE + 1), counted once at load from the card list.
  local FEET_FROM = {}
  for k = 1, NCOLOURS do
    FEET_FROM[k] = {}
    for v = MIN_VALUE, MAX_VALUE + 1 do FEET_FROM[k][v] = 0 end
  end
  for c = 1, NCARDS do
    if VALUE[c] > 0 and c <= K.NPILE_CARDS then
      for v = MIN_VALUE, VALUE[c] do FEET_FROM[COLOUR[c]][v] = FEET_FROM[COLOUR[c]][v] + FEET[c] end
    end
  end

  -- Per call: from[k], the least value that joins the seat's expedition of colour k (its last number card, at least
  -- MIN_VALUE); wagers[k], its wagers; seen_above[k], the footprints of the seen number cards (river, expeditions,
  -- box) of colour k at value from[k] or more.
  local from, wagers, seen_above = {}, {}, {}
  for k = 1, NCOLOURS do from[k], wagers[k], seen_above[k] = MIN_VALUE, 0, 0 end

  local function count_seen(game, zone)
    local cards, n = cards_of(game, zone, scratch)
    for i = 1, n do
      local c = cards[i]
      local v = VALUE[c]
      if v > 0 then
        local k = COLOUR[c]
        if v >= from[k] then seen_above[k] = seen_above[k] + FEET[c] end
      end
    end
  end

  --- unseen_feet_from(k) -> number: footprints of the number cards of colour k, value >= from[k], not seen (still
  --- in the draw piles: the pile cards are hidden from everybody). Reads the counts of the last count_all_seen.
  local function unseen_feet_from(k)
    if from[k] > MAX_VALUE then return 0 end
    return FEET_FROM[k][from[k]] - seen_above[k]
  end

  --- Counts the seen number cards at or above each from[k]: the river, every expedition, the box (all public zones).
  local function count_all_seen(game)
    for k = 1, NCOLOURS do seen_above[k] = 0 end
    count_seen(game, RIVER)
    count_seen(game, BOX)
    for s = 1, SEATS do
      for k = 1, NCOLOURS do count_seen(game, EXPEDITION[s][k]) end
    end
  end

  --- expedition_prospects(game, seat) -> number: the points the seat may still expect from the cards to come (seed
  --- 002 "Entreprendre des expéditions": a number joins an expedition when equal to or higher than its last card;
  --- "Fin de la partie": footprints × (1 + wagers)). Per colour: the unseen footprints at or above the last card
  --- (any value on an empty expedition or one holding only wagers), × SHARE / seats, × (1 + the wagers on it).
  --- (The seen cards are summed only at or above each last card, read first: the same integers as summing every
  --- value and then those from the last card up, for less work.)
  local function expedition_prospects(game, seat)
    for k = 1, NCOLOURS do
      local cards, n = cards_of(game, EXPEDITION[seat][k], scratch)
      local w, last = 0, MIN_VALUE
      for i = 1, n do
        local v = VALUE[cards[i]]
        if v == 0 then w = w + 1 else last = v end
      end
      wagers[k], from[k] = w, last < MIN_VALUE and MIN_VALUE or last
    end
    count_all_seen(game)
    local total = 0
    for k = 1, NCOLOURS do
      total = total + unseen_feet_from(k) * SHARE / SEATS * (1 + wagers[k])
    end
    return total
  end

  --- bid_limit(game, seat) -> integer: the highest bid at which the river is still worth its price to the seat (what
  --- it would add to its expeditions, in coins: seed 002 "Fin de la partie", COIN_POINTS points a coin), and never
  --- more than the coins it has (seed 002 "Enchères": a bid is paid in coins).
  local function bid_limit(game, seat)
    return math.min(river_gain(game, seat) // COIN_POINTS, counter_of(game, COINS, seat))
  end

  --- auction_value(game, seat) -> number: while bidding, what the auction as it would end is worth to the seat: the
  --- river it wins less the price it pays, or 0 if another seat wins. Seed 002 "Enchères": each seat in turn bids
  --- more or passes, and the last bidder wins. Every seat still bidding is taken to raise while the river is worth
  --- more than the next bid, as in an English auction: the high bidder keeps the river unless a seat that has not
  --- passed would bid above it (its limit, bid_limit, above the bid); then the seat with the highest limit wins (a
  --- tie: the high bidder) and pays one coin more than the best other limit, and never less than the bid.
  local function auction_value(game, seat)
    if phase_of(game) ~= BIDDING then return 0 end
    local high, bid = counter_of(game, HIGH), counter_of(game, BID)
    local winner, best, second = high, bid_limit(game, high), nil -- second: the best other limit, once one outbids
    for s = 1, SEATS do
      if s ~= high and rules.in_auction(game, s) then
        local limit = bid_limit(game, s)
        if limit > bid then -- it would outbid the high bidder
          if limit > best then
            winner, best, second = s, limit, best
          else
            second = math.max(second or limit, limit)
          end
        end
      end
    end
    if winner ~= seat then return 0 end
    local price = bid -- nobody outbids the high bidder: it pays its bid
    if second then
      price = math.min(second + 1, best) -- one coin over the best other limit, at most its own
      if winner ~= high then price = math.max(price, bid + 1) end -- and above the bid it outbids
    end
    return river_gain(game, seat) - price * COIN_POINTS
  end

  --- heuristic(game, seat) -> number: the seat's score now, plus the auction it is winning, plus the prospects of its
  --- expeditions (above). At the end of the game: the score.
  return function(game, seat)
    local value = rules.score(game, seat)
    if game:over() then return value end
    return value + auction_value(game, seat) + expedition_prospects(game, seat)
  end
end
