// undo_check.hpp — whether an undo would leave a seat knowing more than it knew at the position it goes back to
// (issue 32 item 9): `play`'s `undo` and the page's Undo refuse an undo past a reveal of hidden information.
#pragma once

#include <string>
#include <vector>

#include "state.hpp"

namespace hr {

/// The components `seat` knows in `now` (where they are and what they are) that it did not know in `back_to`, an
/// earlier position of the same game: the cards it drew, the cards others played from their hands, a card shown
/// to it. Cards it knew before and that only moved (its own card played to the table) are not in the list, nor
/// are cards that moved out of its sight. Component order.
std::vector<ComponentId> learned_since(const GameState& back_to, const GameState& now, int seat);

/// Why an undo from `now` back to `back_to` is refused for `seat` ("Undo refused: since that decision you have
/// seen Y8 (hidden before) ..."), naming at most 8 of the cards learned_since gives; empty when the seat learned
/// nothing hidden and the undo may go ahead. Going back and choosing again knowing the next card would be
/// playing with the deck face up, so an undo stops at the first reveal, as game sites do. It stops at chance too:
/// when the game's RNG moved between the two positions (a die rolled, a pile shuffled), the position it goes back
/// to would roll the same numbers again, so the seat would choose knowing the outcome; the answer then says so.
std::string undo_refusal(const GameState& back_to, const GameState& now, int seat);

}  // namespace hr
