// json_fields.cpp — typed fields of the API's JSON request bodies (see json_fields.hpp).
#include "json_fields.hpp"

#include <fmt/format.h>

#include "input_line.hpp"
#include "serve.hpp"

namespace hr {

using nlohmann::json;

namespace {

/// "a string", "a number", "an object"... for messages.
std::string type_text(const json& value) {
  switch (value.type()) {
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "the number " + value.dump();
    case json::value_t::number_float: return "the number " + value.dump();
    case json::value_t::array: return "a list";
    case json::value_t::object: return "an object";
    default: return std::string("a ") + value.type_name();
  }
}

[[noreturn]] void wrong(const char* name, const char* must, const json& value) {
  throw ApiError(400, fmt::format("field '{}' must be {}, not {}", name, must, type_text(value)));
}

/// The field, or nullptr when absent or null.
const json* field(const json& object, const char* name) {
  const auto it = object.find(name);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

}  // namespace

const json& request_object(const json& body, std::initializer_list<const char*> known) {
  static const json empty = json::object();
  if (body.is_null()) return empty;
  if (!body.is_object())
    throw ApiError(400, fmt::format("the request body must be a JSON object, not {}", type_text(body)));
  for (const auto& [key, value] : body.items()) {
    bool ok = false;
    for (const char* k : known) ok = ok || key == k;
    if (!ok) {
      std::string list;
      for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      throw ApiError(400, fmt::format("unknown field '{}' (the fields are {})", cut_for_message(key, 60),
                                      list.empty() ? "none" : list));
    }
  }
  return body;
}

std::optional<std::string> string_field(const json& object, const char* name) {
  const json* v = field(object, name);
  if (!v) return std::nullopt;
  if (!v->is_string()) wrong(name, "a string", *v);
  return v->get<std::string>();
}

std::optional<bool> bool_field(const json& object, const char* name) {
  const json* v = field(object, name);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) wrong(name, "true or false", *v);
  return v->get<bool>();
}

std::optional<std::int64_t> int_field(const json& object, const char* name, std::int64_t min, std::int64_t max) {
  const json* v = field(object, name);
  if (!v) return std::nullopt;
  const std::string must = fmt::format("a whole number from {} to {}", min, max);
  if (v->is_number_unsigned()) {
    const auto u = v->get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(max)) wrong(name, must.c_str(), *v);
    return static_cast<std::int64_t>(u);
  }
  if (!v->is_number_integer()) wrong(name, must.c_str(), *v);
  const auto i = v->get<std::int64_t>();
  if (i < min || i > max) wrong(name, must.c_str(), *v);
  return i;
}

std::optional<std::uint64_t> uint_field(const json& object, const char* name) {
  const json* v = field(object, name);
  if (!v) return std::nullopt;
  if (!v->is_number_unsigned()) wrong(name, "a whole number from 0", *v);
  return v->get<std::uint64_t>();
}

std::optional<std::vector<std::string>> string_list_field(const json& object, const char* name) {
  const json* v = field(object, name);
  if (!v) return std::nullopt;
  if (!v->is_array()) wrong(name, "a list of strings", *v);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_string())
      throw ApiError(400, fmt::format("field '{}' must be a list of strings: item {} is {}", name, i + 1, type_text((*v)[i])));
    out.push_back((*v)[i].get<std::string>());
  }
  return out;
}

}  // namespace hr
