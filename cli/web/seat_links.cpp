// seat_links.cpp — seat keys and the spectator's view (seat_links.hpp).
#include "seat_links.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <sys/random.h>

namespace hr {

using nlohmann::json;

std::string new_seat_key() {
  unsigned char bytes[kSeatKeyBytes];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(std::string("no random bytes for a seat key (getrandom: ") + std::strerror(errno) + ")");
    got += static_cast<std::size_t>(n);
  }
  static const char* digits = "0123456789abcdef";
  std::string key;
  for (const unsigned char b : bytes) {
    key += digits[b >> 4];
    key += digits[b & 15];
  }
  return key;
}

bool same_key(const std::string& given, const std::string& key) {
  if (key.empty() || given.size() != key.size()) return false;
  volatile unsigned char diff = 0;
  for (std::size_t i = 0; i < key.size(); ++i) diff = diff | static_cast<unsigned char>(given[i] ^ key[i]);
  return diff == 0;
}

int seat_of_key(const std::string& given, const std::vector<std::string>& keys) {
  int seat = 0;
  for (std::size_t i = 0; i < keys.size(); ++i)  // no early exit: the time does not say which seat matched
    if (same_key(given, keys[i])) seat = static_cast<int>(i + 1);
  return seat;
}

namespace {

json common(const std::vector<const json*>& values) {
  const json& first = *values.front();
  bool equal = true;
  for (const json* v : values) equal = equal && *v == first;
  if (equal) return first;
  bool objects = true, lists = true;
  for (const json* v : values) {
    objects = objects && v->is_object();
    lists = lists && v->is_array() && v->size() == first.size();
  }
  if (objects) {
    json out = json::object();
    for (const auto& [key, value] : first.items()) {
      std::vector<const json*> parts;
      for (const json* v : values) {
        const auto it = v->find(key);
        if (it == v->end()) break;
        parts.push_back(&*it);
      }
      if (parts.size() == values.size()) out[key] = common(parts);
    }
    return out;
  }
  if (lists) {
    json out = json::array();
    for (std::size_t i = 0; i < first.size(); ++i) {
      std::vector<const json*> parts;
      for (const json* v : values) parts.push_back(&(*v)[i]);
      out.push_back(common(parts));
    }
    return out;
  }
  return nullptr;
}

}  // namespace

json common_view(const std::vector<json>& views) {
  std::vector<const json*> values;
  for (const json& v : views) values.push_back(&v);
  return common(values);
}

}  // namespace hr
