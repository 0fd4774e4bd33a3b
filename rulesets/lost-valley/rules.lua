-- Lost Valley (Roland & Tobias Goslar, Kronberger Spiele 2004), 3 or 4 players, as a houserules rules script.
-- Rules: seed 004 (French, ../shared/seeds/004_5b8eeeb2a33ba8b7.txt), digest ../shared/rules/lost-valley.md;
-- parameters in ruleset.toml (every ASSUMED value is one); the map drawing and the explanations are in view.lua.
--
-- The board "valley" is a triangular lattice (docs/boards.md): prospectors stand on vertices (intersections) and
-- walk along edges (tile sides); tiles cover faces (a rhombus two triangles, a triangle one, the start tile four).
-- Marks: face `course` (river order from the waterfall: 1 the start tile, then each river tile, the source last),
-- face `water` (a bushes or forest tile watered by a canal), face `mine`; edge `river` (the river crosses this
-- edge), edge `ford`, edge `canal`; vertex `building` (1 fish net, 2 sawmill); face `bank` (below).
-- Tokens lie face down: grey gold, events and animals on faces; green gold on faces (lake, bushes) and, on river
-- tiles, on one face of the tile per bank (seed 2.d: "sur la même rive que le symbole"): the face mark `bank` (1-3)
-- names the corner of that face (its place in `game:face_vertices`) whose bank the tokens lying there belong to. So
-- a token belongs to its tile and to its bank, and two river tiles never share a token (they share corners).
-- Per seat: counters log, food, tool (the backpack; the supply is owner 0); zones equip.<s> (public: equipment),
-- goods.<s> (owner: whisky, dynamite sticks, dried fish, face down), gold.<s> (owner: the gold bag), look.<s>
-- (owner: the two events of a meadow being looked at).
--
-- A turn (phase MAIN): `move ...` (and the exploration it starts: phases RIVER and LAND, one `lay` per tile),
-- one action (`pan`, `mine`, `event` (then KEEP on a meadow), `fish`, `hunt`, `fell`, `build ...`, `buy ...` (then
-- SHOP until `pay`), `refine`), `drink for move|action`, `use dried-fish`, `declare end`, `end turn` (then DISCARD
-- while the inventory overflows, then the ice die).
--
-- The rules are split by the rulebook's chapters, one module each (README "For variant authors"): valley.lua (the
-- material and the board), setup.lua, turn.lua, movement.lua, exploration.lua, actions.lua, store.lua, the_end.lua,
-- and heuristic.lua (the greedy bot's estimate). This file loads them in that order, then the view.

local K = require("valley")
local rules = K.rules
local P, SEATS, W, H, B, LETTER, LANDSCAPE_NAME = K.P, K.SEATS, K.W, K.H, K.B, K.LETTER, K.LANDSCAPE_NAME
local ITEMS, ICE, PILE_RIVER, PILE_LAND, PILE_TRIANGLE = K.ITEMS, K.ICE, K.PILE_RIVER, K.PILE_LAND, K.PILE_TRIANGLE
local DRAWN, SHOP, EQUIP, GOODS, GOLD, MAIN = K.DRAWN, K.SHOP, K.EQUIP, K.GOODS, K.GOLD, K.MAIN
local LAY_RIVER, LAY_LAND, KEEP, SHOPPING, DISCARD = K.LAY_RIVER, K.LAY_LAND, K.KEEP, K.SHOPPING, K.DISCARD
local MODE_NAME, NAME, ITEM, NUGGETS, VQ, VR, vid = K.MODE_NAME, K.NAME, K.ITEM, K.NUGGETS, K.VQ, K.VR, K.vid
local geometry, land_of = K.geometry, K.land_of
require("movement")
require("setup")
require("turn")
require("exploration")
require("actions")
require("store")
require("the_end")
require("heuristic")

local view = require("view")
view.install(rules, {
  P = P, SEATS = SEATS, B = B, W = W, H = H, LETTER = LETTER, LANDSCAPE_NAME = LANDSCAPE_NAME, NAME = NAME,
  ITEMS = ITEMS, ITEM = ITEM, NUGGETS = NUGGETS, EQUIP = EQUIP, GOODS = GOODS, GOLD = GOLD, SHOP = SHOP,
  DRAWN = DRAWN, PILE_RIVER = PILE_RIVER, PILE_LAND = PILE_LAND, PILE_TRIANGLE = PILE_TRIANGLE, ICE = ICE,
  VQ = VQ, VR = VR, vid = vid, geometry = geometry, land_of = land_of, MODE_NAME = MODE_NAME,
  PHASES = { [MAIN] = "move and act", [LAY_RIVER] = "lay the river tile", [LAY_LAND] = "lay the land tile",
             [KEEP] = "keep one event", [SHOPPING] = "buy, then pay", [DISCARD] = "discard the excess" },
})

return rules
