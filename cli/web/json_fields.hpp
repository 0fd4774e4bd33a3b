// json_fields.hpp — reading the fields of a JSON request body of the `serve` API with their types checked: a
// missing, unknown or wrongly typed field is an ApiError 400 that names the field and the type it must have
// (docs/serve.md, "The JSON API"). Every POST route reads its body through these helpers, before it looks the game
// up, so a bad body gets the same 400 whether or not the game exists.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hr {

/// A request body as an object, checked: `body` must be a JSON object (the empty body is read as {}) whose keys
/// are all in `known`. Throws ApiError 400 "the request body must be a JSON object ..." or "unknown field 'x' (the
/// fields are a, b)".
const nlohmann::json& request_object(const nlohmann::json& body, std::initializer_list<const char*> known);

/// The string field `name` of `object`, or nullopt when absent or null. Throws ApiError 400 "'name' must be a
/// string, not a number" otherwise.
std::optional<std::string> string_field(const nlohmann::json& object, const char* name);
/// The boolean field `name` (true or false), or nullopt when absent or null; 400 otherwise ("yes" is refused).
std::optional<bool> bool_field(const nlohmann::json& object, const char* name);
/// The whole-number field `name` in [min, max], or nullopt when absent or null; 400 naming the field and the
/// range for another type, a fraction or a number out of range.
std::optional<std::int64_t> int_field(const nlohmann::json& object, const char* name, std::int64_t min, std::int64_t max);
/// The unsigned whole-number field `name` (0 to 2^64-1), or nullopt when absent or null; 400 otherwise.
std::optional<std::uint64_t> uint_field(const nlohmann::json& object, const char* name);
/// The field `name` as a list of strings, or nullopt when absent or null; 400 naming the field (and the index of
/// the first item that is not a string).
std::optional<std::vector<std::string>> string_list_field(const nlohmann::json& object, const char* name);

}  // namespace hr
