-- Lost Valley, chapters C "dé de glace" and FIN DU JEU ET VICTOIRE (seed 004): "Sur un résultat de 5 ou 6, le bloc
-- de glace descend la rivière d'une tuile"; "Le jeu se termine immédiatement si le bloc de glace atteint la cascade
-- ..., ou un prospecteur arrive au magasin de la cascade avec au moins 10 jetons d'or, et annonce la fin de la
-- partie." The richest player wins.

local K = require("valley")
local rules = K.rules
-- the kernel's methods bound to locals (docs: houserules.game): no method look-up on the game at each call
local move_figure = K.G.move_figure
local G = K.G
local P, B, ICE, GOLD, counter, size_of, GEO = K.P, K.B, K.ICE, K.GOLD, K.counter, K.size_of, K.GEO
local mark_of, CN = K.mark_of, K.CN

--- The ice die at the end of a turn once the ice block is in play: on `ice_roll` or more it moves one river tile
--- downstream; reaching the start tile's waterfall ends the game (seed FIN DU JEU).
function rules.roll_ice(game)
  if counter(game, CN.ice) == 0 then return end
  if G.random(game, P.die) < P.ice_roll then return end
  local _, _, f = G.figure(game, ICE)
  local c = mark_of(game, B, "course", f) - 1
  for g = 1, GEO.NF do
    if mark_of(game, B, "course", g) == c then
      move_figure(game, ICE, B, "face", g)
      break
    end
  end
  if c <= 1 then G.end_round(game) end
end

--- Whether seat s may declare the end (seed FIN DU JEU): its prospector is at the start store with at least
--- `end_tokens` gold tokens. (The gold bag's size, one kernel call, is asked first: the rules only read the game.)
function rules.may_declare_end(game, s)
  return size_of(game, GOLD[s]) >= P.end_tokens and rules.at_start_store(game, rules.position(game, s))
end

--- score(game, seat): the nuggets in the seat's gold bag (seed FIN DU JEU: "Le joueur le plus riche"; the seed's
--- example: 11 tokens worth 25 lose to 8 worth 30).
function rules.score(game, seat)
  return rules.nuggets(game, seat)
end
