// sandbox_require.cpp — `require` in the sandbox: Lua modules by name (letters, digits, _ - and dots), loaded
// as text only from the ruleset's folders (Sandbox::set_module_roots) or the built-in rulesets, never through
// a symbolic link that leads outside them; each module loaded once per Lua state.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <string>

#include <lua.hpp>

#include "coverage.hpp"
#include "printable.hpp"
#include "sandbox.hpp"
#include "sandbox_functions.hpp"

namespace hr {

namespace {

bool valid_module_name(const char* name) {
  if (!*name) return false;
  for (const char* p = name; *p; ++p)
    if (!(std::isalnum(static_cast<unsigned char>(*p)) || *p == '_' || *p == '-' || *p == '.')) return false;
  return std::strstr(name, "..") == nullptr && name[0] != '.';
}

}  // namespace

int sandbox_require(lua_State* L) {
  std::size_t length = 0;
  const char* name = luaL_checklstring(L, 1, &length);
  // A longer name would reach the file system as a file name past its limit (ENAMETOOLONG), and an exception
  // escaping into Lua hands the stack's top (the module cache) to the script's pcall as the error (issue 32).
  if (length > Sandbox::kMaxModuleName)
    return luaL_error(L, "require: a module name has at most %d bytes, not %d", static_cast<int>(Sandbox::kMaxModuleName),
                      static_cast<int>(length));
  if (!valid_module_name(name))
    return luaL_error(L, "require: '%s' is not a module name (letters, digits, _ - and dots only)", name);
  lua_getfield(L, LUA_REGISTRYINDEX, "houserules.modules");
  if (lua_getfield(L, -1, name) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  const int cache = lua_gettop(L);
  Sandbox* sandbox = Sandbox::from(L);
  std::string relative = name;
  std::replace(relative.begin(), relative.end(), '.', '/');
  relative += ".lua";
  for (const auto& root : sandbox->module_roots_) {
    const auto file = root / relative;
    std::error_code not_found;
    if (!std::filesystem::is_regular_file(file, not_found)) continue;  // (no exception: see above)
    // The module's real path (symbolic links resolved) must lie in the real folder, or among the built-in
    // rulesets (a link to a shipped module, as the planted-bug fixtures use): a link `lib -> /` in the
    // ruleset's folder would otherwise make every .lua file on the disk loadable.
    std::error_code ec;
    const auto real_file = std::filesystem::canonical(file, ec);
    auto under = [&](const std::filesystem::path& folder) {
      std::error_code ec2;
      const auto real_folder = std::filesystem::canonical(folder, ec2);
      const auto inside = real_file.lexically_relative(real_folder);
      return !ec2 && !inside.empty() && *inside.begin() != "..";
    };
    if (ec || !(under(root) || under(HOUSERULES_RULESETS_DIR)))
      return luaL_error(L, "require: '%s' leads outside the ruleset's folder (through a symbolic link): refused",
                        printable(Sandbox::display_path(file)).c_str());
    const std::string source = read_source(real_file).value_or("");
    const std::string chunkname = "@" + Sandbox::display_path(file);
    if (luaL_loadbufferx(L, source.data(), source.size(), chunkname.c_str(), "t") != LUA_OK) return lua_error(L);
    lua_pushstring(L, name);
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, cache, name);
    return 1;
  }
  std::string searched;
  for (const auto& root : sandbox->module_roots_) searched += "\n\tno file '" + Sandbox::display_path(root / relative) + "'";
  return luaL_error(L, "module '%s' not found in the ruleset's folders:%s", name, searched.c_str());
}

}  // namespace hr
