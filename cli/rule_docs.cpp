// rule_docs: the extension points of a ruleset with their docstrings' first sentence (rule_docs.hpp).
#include "rule_docs.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string_view>

namespace hr {
namespace {

namespace fs = std::filesystem;

std::string trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

/// The name a line defines (`function rules.NAME(` or `rules.NAME = function(`) and the text from its "(",
/// or an empty name.
std::pair<std::string, std::string> defined_rule(const std::string& line) {
  const std::string t = trimmed(line);
  std::string_view v = t;
  bool prefixed = false;
  if (v.rfind("function rules.", 0) == 0) {
    v.remove_prefix(15);
    prefixed = true;
  } else if (v.rfind("rules.", 0) == 0) {
    v.remove_prefix(6);
  } else {
    return {};
  }
  std::size_t end = 0;
  while (end < v.size() && (std::isalnum(static_cast<unsigned char>(v[end])) || v[end] == '_')) ++end;
  if (end == 0) return {};
  const std::string name(v.substr(0, end));
  std::string_view rest = v.substr(end);
  if (!prefixed) {  // rules.NAME = function(...)
    std::string r = trimmed(rest);
    if (r.rfind("=", 0) != 0) return {};
    r = trimmed(std::string_view(r).substr(1));
    if (r.rfind("function", 0) != 0) return {};
    rest = std::string_view(t).substr(t.find("function") + 8);
  }
  const std::size_t open = rest.find('('), close = rest.find(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return {name, "()"};
  return {name, std::string(rest.substr(open, close - open + 1))};
}

/// The first sentence of a docstring (its lines joined), without a leading "NAME(args) [-> result]:".
void summarize(const std::string& name, const std::string& text, RuleDoc& doc) {
  std::string s = text;
  if (s.rfind(name + "(", 0) == 0 || s.rfind("rules." + name + "(", 0) == 0) {
    // the signature ends at the first ": " after the closing parenthesis
    const std::size_t close = s.find(')');
    const std::size_t colon = close == std::string::npos ? std::string::npos : s.find(": ", close);
    if (colon != std::string::npos) {
      doc.signature = s.substr(s.rfind("rules.", 0) == 0 ? 6 : 0, colon - (s.rfind("rules.", 0) == 0 ? 6 : 0));
      s = s.substr(colon + 2);
    }
  }
  std::size_t end = s.find(". ");
  s = end == std::string::npos ? s : s.substr(0, end + 1);
  if (s.size() > 160) {
    std::size_t cut = 157;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    s = s.substr(0, cut) + "...";
  }
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  doc.summary = s;
}

/// Reads `file`'s definitions of named rules into `found` (a later one replaces an earlier one).
void scan(const fs::path& file, std::map<std::string, RuleDoc>& found) {
  std::ifstream in(file);
  if (!in) return;
  std::string line, docstring;
  while (std::getline(in, line)) {
    const std::string t = trimmed(line);
    if (t.rfind("---", 0) == 0) {
      const std::string part = trimmed(std::string_view(t).substr(3));
      docstring += (docstring.empty() || part.empty() ? "" : " ") + part;
      continue;
    }
    const auto [name, args] = defined_rule(line);
    if (!name.empty()) {
      RuleDoc doc{name, name + args, ""};
      if (!docstring.empty()) summarize(name, docstring, doc);
      found[name] = doc;
    }
    docstring.clear();
  }
}

}  // namespace

std::vector<RuleDoc> rule_docs(const RulesetInfo& info, const std::vector<std::string>& names) {
  std::map<std::string, RuleDoc> found;
  std::vector<fs::path> others;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(info.dir, ec))
    if (entry.path().extension() == ".lua" && entry.path() != info.entry) others.push_back(entry.path());
  std::sort(others.begin(), others.end());
  for (const auto& f : others) scan(f, found);
  scan(info.entry, found);  // the entry script's definitions win over its modules'
  for (const auto& v : info.variants)
    if (!v.script.empty()) scan(v.script, found);
  std::vector<RuleDoc> out;
  for (const auto& name : names) {
    const auto it = found.find(name);
    out.push_back(it != found.end() ? it->second : RuleDoc{name, name + "(...)", ""});
  }
  return out;
}

}  // namespace hr
