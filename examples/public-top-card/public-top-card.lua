-- The deck's top card is public. Who sees what is the kernel's business, set in public-top-card.toml
-- ([visibility] deck = "top-card"): every seat's observation shows the deck's top card, so the bots know it
-- too. This script only shows it on the table a player reads (describe).
local rules = ...
local CARD = houserules.components
local DECK = houserules.zones.deck
local parent_describe = rules.describe

--- describe(view, seat): the parent's table, and the card on top of the deck.
function rules.describe(view, seat)
  local top = view:top(DECK)
  local shown = top and (top ~= 0 and CARD[top].name or "?") or "- (empty)"
  return parent_describe(view, seat) .. "Deck top card (face up): " .. shown .. "\n"
end

return rules
