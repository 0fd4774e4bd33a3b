// seat_links.hpp — friends at one table over a network (docs/serve.md, "Friends at one table"): the secret key of
// each person's seat (its link), compared in constant time, and the view of a spectator (someone with no link):
// only what every seat's view shows alike.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hr {

/// Bytes of randomness in a seat key (160 bits; the key is their 40 hexadecimal digits).
constexpr std::size_t kSeatKeyBytes = 20;

/// A new seat key: kSeatKeyBytes from the kernel's random source (getrandom(2), blocking until it is seeded), as
/// 2 x kSeatKeyBytes lower-case hexadecimal digits. Throws std::runtime_error when the source fails.
std::string new_seat_key();

/// Whether `given` equals `key`, in a time that depends only on their lengths (the keys all have the same length),
/// not on where they first differ; an empty `key` (a seat without a link: a bot) never matches.
bool same_key(const std::string& given, const std::string& key);

/// The seat whose key in `keys` (keys[s - 1] is seat s's; empty for a bot) is `given`: every key is compared
/// (same_key), whichever matches. 0 when none does.
int seat_of_key(const std::string& given, const std::vector<std::string>& keys);

/// What a spectator may see of a game: the parts that are the same in every one of `views` (one web_view_json per
/// seat, each of that seat's observation). An object keeps the keys all views have, each the common part of their
/// values; a list of the same length in every view is taken item by item; values that differ otherwise (a card one
/// seat sees and another does not, the `viewer`) become null. So whatever a spectator is shown, every seat already
/// sees it. `views` must not be empty.
nlohmann::json common_view(const std::vector<nlohmann::json>& views);

}  // namespace hr
