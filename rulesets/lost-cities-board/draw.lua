-- draw.lua — how `houserules serve` draws the event tiles of Lost Cities: the board game on its paths (the
-- draw_component hook, docs/writing-rules.md "Drawing a component"). The cards keep the page's generic drawing
-- (a box in their colour with their name). rules.lua calls install(rules, K) with its constants.

local M = {}

function M.install(rules, K)
  local TILE, VALUE, ARTIFACT, ARROW, VPTILE = K.TILE, K.VALUE, K.ARTIFACT, K.ARROW, K.VPTILE

  --- The square every event tile is printed on (seed 000 CONTENU: "25 tuiles d'événement").
  local function plate(fill)
    return { shape = "rect", x = 0.04, y = 0.04, w = 0.92, h = 0.92, rx = 0.12, fill = fill, stroke = "#5a4a2a",
             stroke_width = 0.05 }
  end

  --- An artifact tile: a jar (seed 000: "9 artefacts"; collected, they score on the artifact table at the end).
  local function artifact()
    return {
      plate("#e6d9b5"),
      { shape = "polygon", points = { 0.38, 0.2, 0.62, 0.2, 0.58, 0.32, 0.74, 0.5, 0.66, 0.8, 0.34, 0.8, 0.26, 0.5, 0.42, 0.32 },
        fill = "#a0522d", stroke = "#5a2d0c", stroke_width = 0.03 },
      { shape = "line", x1 = 0.3, y1 = 0.55, x2 = 0.7, y2 = 0.55, stroke = "#f0d9a0", stroke_width = 0.04 },
    }
  end

  --- An arrow tile: one step forward for a figure of the seat's choice (seed 000: "9 flèches").
  local function arrow()
    return {
      plate("#d6e9f5"),
      { shape = "polygon", points = { 0.5, 0.14, 0.82, 0.48, 0.62, 0.48, 0.62, 0.84, 0.38, 0.84, 0.38, 0.48, 0.18, 0.48 },
        fill = "#1f5fbf" },
    }
  end

  --- A victory point tile: its value on a coin (seed 000: "7 points de victoire"; the values are params.vp_tiles).
  local function vp(value)
    return {
      plate("#fff3c4"),
      { shape = "circle", cx = 0.5, cy = 0.5, r = 0.34, fill = "gold", stroke = "#8a6d00", stroke_width = 0.04 },
      { shape = "text", x = 0.5, y = 0.52, text = tostring(value), size = 0.36, bold = true, fill = "#5a4400" },
    }
  end

  --- draw_component(view, card, kind): the scene of an event tile, nil for a card (drawn the generic way).
  function rules.draw_component(view, card, kind)
    if kind ~= "tile" then return nil end
    local t = TILE[card]
    if t == ARTIFACT then return artifact() end
    if t == ARROW then return arrow() end
    if t == VPTILE then return vp(VALUE[card]) end
    return nil
  end
end

return M
