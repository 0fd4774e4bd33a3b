// coverage.cpp — the coverage record, its reports (text, lcov, JSON), and the source overrides of mutation
// testing. The executable lines of a chunk come from its binary dump (format of Lua 5.4's ldump.c).
#include "coverage.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <sstream>

#include <lua.hpp>
#include <nlohmann/json.hpp>

#include "printable.hpp"
#include "sandbox.hpp"

namespace hr {

namespace {

// ---- the binary chunk: line information of every prototype -----------------------------------------------

struct ProtoLines {
  int line_defined = 0;
  int last_line = 0;
  std::vector<int> lines;  // the line of each instruction Lua reports (collectvalidlines in ldebug.c)
};

/// Reads a Lua 5.4 binary chunk (ldump.c) far enough to get each prototype's lines. Throws std::runtime_error
/// on a format it does not know.
class DumpReader {
 public:
  explicit DumpReader(std::string_view bytes) : b_(bytes) {}

  std::vector<ProtoLines> read() {
    static const char signature[] = "\x1bLua\x54\x00\x19\x93\r\n\x1a\n";
    need(sizeof signature - 1);
    if (std::memcmp(b_.data(), signature, sizeof signature - 1) != 0) fail();
    pos_ = sizeof signature - 1;
    const int instruction = byte(), integer = byte(), number = byte();
    if (instruction != 4 || integer != 8 || number != 8) fail();
    skip(8 + 8);  // LUAC_INT, LUAC_NUM
    byte();       // upvalues of the main closure
    std::vector<ProtoLines> out;
    function(out);
    return out;
  }

 private:
  [[noreturn]] static void fail() { throw std::runtime_error("unknown Lua binary chunk format"); }
  void need(std::size_t n) const {
    if (b_.size() - pos_ < n) fail();
  }
  int byte() {
    need(1);
    return static_cast<unsigned char>(b_[pos_++]);
  }
  void skip(std::size_t n) {
    need(n);
    pos_ += n;
  }
  std::size_t size() {  // dumpSize: 7 bits a byte, most significant first, the last byte marked by 0x80
    std::size_t x = 0;
    for (int i = 0; i < 10; ++i) {
      const int c = byte();
      x = (x << 7) | static_cast<std::size_t>(c & 0x7f);
      if (c & 0x80) return x;
    }
    fail();
  }
  void string() {
    const std::size_t n = size();
    if (n > 0) skip(n - 1);
  }
  void function(std::vector<ProtoLines>& out) {
    ProtoLines p;
    string();  // source
    p.line_defined = static_cast<int>(size());
    p.last_line = static_cast<int>(size());
    byte();                      // numparams
    const bool vararg = byte();  // is_vararg
    byte();                      // maxstacksize
    const std::size_t code = size();
    skip(4 * code);
    for (std::size_t k = size(); k > 0; --k) {  // constants
      switch (byte()) {
        case 3: case 19: skip(8); break;    // integer, float
        case 4: case 20: string(); break;   // short, long string
        default: break;                     // nil, false, true
      }
    }
    skip(3 * size());  // upvalues: instack, idx, kind
    const std::size_t index = out.size();
    out.push_back({});
    for (std::size_t k = size(); k > 0; --k) function(out);
    // debug: lineinfo (signed byte deltas; -128 = absolute entry), abslineinfo (pc, line)
    const std::size_t n = size();
    need(n);
    std::string_view deltas = b_.substr(pos_, n);
    pos_ += n;
    std::map<std::size_t, int> absolute;
    for (std::size_t k = size(); k > 0; --k) {
      const std::size_t pc = size();
      absolute[pc] = static_cast<int>(size());
    }
    for (std::size_t k = size(); k > 0; --k) {  // local variables
      string();
      size();
      size();
    }
    for (std::size_t k = size(); k > 0; --k) string();  // upvalue names
    int line = p.line_defined;
    for (std::size_t pc = 0; pc < deltas.size(); ++pc) {
      const auto delta = static_cast<signed char>(deltas[pc]);
      line = delta == -128 ? absolute[pc] : line + delta;
      if (pc == 0 && vararg) continue;  // OP_VARARGPREP: Lua does not report its line
      p.lines.push_back(line);
    }
    out[index] = std::move(p);
  }

  std::string_view b_;
  std::size_t pos_ = 0;
};

int append_dump(lua_State*, const void* p, std::size_t n, void* ud) {
  static_cast<std::string*>(ud)->append(static_cast<const char*>(p), n);
  return 0;
}

/// The prototypes of the Lua function at the top of the stack (not popped).
std::vector<ProtoLines> prototypes_of_top(lua_State* L) {
  std::string bytes;
  lua_dump(L, append_dump, &bytes, 0);
  return DumpReader(bytes).read();
}

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':'; }

/// A function's name from the line that defines it: `function a.b(`, `local function f(`, `x.y = function(`.
std::string function_name(const std::string& text) {
  const std::size_t at = text.find("function");
  if (at == std::string::npos) return "";
  std::size_t i = at + 8;
  while (i < text.size() && text[i] == ' ') ++i;
  std::size_t j = i;
  while (j < text.size() && is_name_char(text[j])) ++j;
  if (j > i && j < text.size() && (text[j] == '(' || text[j] == ' ')) return text.substr(i, j - i);
  // `name = function`
  std::size_t k = at;
  while (k > 0 && text[k - 1] == ' ') --k;
  if (k == 0 || text[k - 1] != '=') return "";
  --k;
  while (k > 0 && text[k - 1] == ' ') --k;
  std::size_t start = k;
  while (start > 0 && (is_name_char(text[start - 1]) || text[start - 1] == '[' || text[start - 1] == ']' ||
                       text[start - 1] == '"'))
    --start;
  return text.substr(start, k - start);
}

std::vector<std::string> source_lines(const std::filesystem::path& file) {
  std::vector<std::string> lines;
  if (const auto text = read_source(file)) {
    std::istringstream in(*text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  return lines;
}

/// Fills `f` (lines with 0 hits, the functions named) from the prototypes of its chunk.
void describe_chunk(FileCoverage& f, const std::vector<ProtoLines>& protos) {
  const std::vector<std::string> text = source_lines(f.path);
  std::set<std::string> names;
  for (const ProtoLines& p : protos) {
    for (int line : p.lines) f.lines.emplace(line, 0);
    if (p.line_defined == 0) continue;  // the main chunk
    FunctionCoverage fn;
    fn.line = p.line_defined;
    fn.last_line = p.last_line;
    const std::size_t index = static_cast<std::size_t>(p.line_defined - 1);
    fn.name = index < text.size() ? function_name(text[index]) : "";
    if (fn.name.empty() || !names.insert(fn.name).second) fn.name = "function@" + std::to_string(p.line_defined);
    names.insert(fn.name);
    f.functions.push_back(fn);
  }
  std::sort(f.functions.begin(), f.functions.end(),
            [](const FunctionCoverage& a, const FunctionCoverage& b) { return a.line < b.line; });
}

double percent(int part, int whole) { return whole ? 100.0 * part / whole : 100.0; }

std::string share(int part, int whole) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << percent(part, whole) << "% (" << part << "/" << whole << ")";
  return s.str();
}

// ---- source overrides --------------------------------------------------------------------------------------

std::mutex overrides_mutex;
std::map<std::filesystem::path, std::string>& overrides() {
  static std::map<std::filesystem::path, std::string> map;
  return map;
}

}  // namespace

// ---- FileCoverage ------------------------------------------------------------------------------------------

int FileCoverage::lines_run() const {
  return static_cast<int>(std::count_if(lines.begin(), lines.end(), [](const auto& l) { return l.second > 0; }));
}

int FileCoverage::functions_reached() const {
  return static_cast<int>(
      std::count_if(functions.begin(), functions.end(), [](const FunctionCoverage& f) { return f.calls > 0; }));
}

std::string FileCoverage::unrun_ranges() const {
  std::string out;
  int first = 0, last = 0;
  auto flush = [&] {
    if (!first) return;
    if (!out.empty()) out += ", ";
    out += std::to_string(first);
    if (last != first) out += "-" + std::to_string(last);
    first = 0;
  };
  for (const auto& [line, hits] : lines) {
    if (hits > 0) {
      flush();
    } else {
      if (!first) first = line;
      last = line;
    }
  }
  flush();
  return out;
}

// ---- CoverageRecorder ----------------------------------------------------------------------------------------

CoverageRecorder& CoverageRecorder::global() {
  static CoverageRecorder* recorder = new CoverageRecorder;  // never destroyed: sandboxes of static objects
  return *recorder;                                         // may still report at exit
}

int CoverageRecorder::hook_mask() { return LUA_MASKLINE | LUA_MASKCALL; }

FileCoverage* CoverageRecorder::file_for(lua_State* L, lua_Debug* ar, bool is_main) {
  const char* source = ar->source;
  if (source == last_source_ && last_file_ && std::strcmp(source + 1, last_file_->shown.c_str()) == 0)
    return last_file_;
  const std::string name(source + 1);
  auto it = files_.find(name);
  if (it == files_.end()) {
    if (!is_main) return nullptr;  // a file's main chunk runs before any of its functions
    FileCoverage f;
    f.shown = name;
    std::error_code ec;
    f.path = std::filesystem::absolute(name, ec);
    lua_getinfo(L, "f", ar);  // pushes the running function: the chunk
    try {
      describe_chunk(f, prototypes_of_top(L));
    } catch (const std::exception&) {
      // unknown dump format: lines are recorded as they run, without the ones never run
    }
    lua_pop(L, 1);
    it = files_.emplace(name, std::move(f)).first;
  }
  last_source_ = source;
  last_file_ = &it->second;
  return last_file_;
}

void CoverageRecorder::record(lua_State* L, lua_Debug* ar) noexcept {
  try {
    if (!lua_getinfo(L, "S", ar) || ar->source[0] != '@') return;
    std::lock_guard lock(mutex_);
    const bool is_main = ar->what[0] == 'm';
    FileCoverage* f = file_for(L, ar, is_main);
    if (!f) return;
    if (ar->event == LUA_HOOKLINE) {
      ++f->lines[ar->currentline];
    } else if (!is_main) {  // a call or tail call
      auto fn = std::lower_bound(f->functions.begin(), f->functions.end(), ar->linedefined,
                                 [](const FunctionCoverage& x, int line) { return x.line < line; });
      if (fn != f->functions.end() && fn->line == ar->linedefined) ++fn->calls;
    }
  } catch (...) {
    // out of memory in the recorder: the line goes unrecorded rather than failing the game
  }
}

std::vector<FileCoverage> CoverageRecorder::files() const {
  std::lock_guard lock(mutex_);
  std::vector<FileCoverage> out;
  for (const auto& entry : files_) out.push_back(entry.second);
  return out;
}

// ---- reports -------------------------------------------------------------------------------------------------

void print_coverage_report(const std::vector<FileCoverage>& files, std::ostream& out) {
  if (files.empty()) {
    out << "coverage: no rule script ran\n";
    return;
  }
  std::size_t width = 0;
  for (const FileCoverage& f : files) width = std::max(width, f.shown.size());
  int lines = 0, run = 0, functions = 0, reached = 0;
  out << "coverage (lines run, functions called):\n";
  for (const FileCoverage& f : files) {
    const int n = static_cast<int>(f.lines.size()), r = f.lines_run();
    const int fn = static_cast<int>(f.functions.size()), fr = f.functions_reached();
    lines += n, run += r, functions += fn, reached += fr;
    out << "  " << std::left << std::setw(static_cast<int>(width)) << printable(f.shown) << std::right
        << "  lines " << share(r, n) << "  functions " << share(fr, fn) << "\n";
    if (r < n) out << "    never run: lines " << f.unrun_ranges() << "\n";
    std::string never;
    for (const FunctionCoverage& fun : f.functions)
      if (fun.calls == 0) never += (never.empty() ? "" : ", ") + printable(fun.name) + " (" + std::to_string(fun.line) + ")";
    if (!never.empty()) out << "    never called: " << never << "\n";
  }
  out << "  total: lines " << share(run, lines) << ", functions " << share(reached, functions) << "\n";
}

void write_lcov(const std::vector<FileCoverage>& files, std::ostream& out, const std::string& test_name) {
  for (const FileCoverage& f : files) {
    out << "TN:" << test_name << "\n";
    out << "SF:" << f.path.string() << "\n";
    for (const FunctionCoverage& fn : f.functions) out << "FN:" << fn.line << "," << fn.name << "\n";
    for (const FunctionCoverage& fn : f.functions) out << "FNDA:" << fn.calls << "," << fn.name << "\n";
    out << "FNF:" << f.functions.size() << "\n";
    out << "FNH:" << f.functions_reached() << "\n";
    for (const auto& [line, hits] : f.lines) out << "DA:" << line << "," << hits << "\n";
    out << "LF:" << f.lines.size() << "\n";
    out << "LH:" << f.lines_run() << "\n";
    out << "end_of_record\n";
  }
}

std::string coverage_json(const std::vector<FileCoverage>& files) {
  nlohmann::json list = nlohmann::json::array();
  int lines = 0, run = 0, functions = 0, reached = 0;
  for (const FileCoverage& f : files) {
    nlohmann::json unrun = nlohmann::json::array(), fns = nlohmann::json::array();
    for (const auto& [line, hits] : f.lines)
      if (hits == 0) unrun.push_back(line);
    for (const FunctionCoverage& fn : f.functions)
      fns.push_back({{"name", fn.name}, {"line", fn.line}, {"last_line", fn.last_line}, {"calls", fn.calls}});
    const int n = static_cast<int>(f.lines.size()), r = f.lines_run();
    const int fn = static_cast<int>(f.functions.size()), fr = f.functions_reached();
    lines += n, run += r, functions += fn, reached += fr;
    list.push_back({{"file", f.shown},
                    {"path", f.path.string()},
                    {"lines", {{"total", n}, {"run", r}, {"unrun", unrun}}},
                    {"functions", {{"total", fn}, {"reached", fr}, {"list", fns}}}});
  }
  nlohmann::json doc = {{"files", list},
                        {"total", {{"lines", lines}, {"lines_run", run}, {"functions", functions},
                                   {"functions_reached", reached}}}};
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<std::set<int>> executable_lines(std::string_view source, const std::string& chunkname,
                                              std::string* error) {
  lua_State* L = luaL_newstate();
  if (!L) throw std::bad_alloc();
  std::optional<std::set<int>> out;
  if (luaL_loadbufferx(L, source.data(), source.size(), chunkname.c_str(), "t") != LUA_OK) {
    if (error) *error = lua_tostring(L, -1) ? lua_tostring(L, -1) : "cannot load";
  } else {
    try {
      out.emplace();
      for (const ProtoLines& p : prototypes_of_top(L)) out->insert(p.lines.begin(), p.lines.end());
    } catch (const std::exception& e) {
      out.reset();
      if (error) *error = e.what();
    }
  }
  lua_close(L);
  return out;
}

// ---- source overrides ----------------------------------------------------------------------------------------

void set_source_override(const std::filesystem::path& file, std::string text) {
  std::lock_guard lock(overrides_mutex);
  overrides()[std::filesystem::weakly_canonical(file)] = std::move(text);
}

std::optional<std::string> source_override(const std::filesystem::path& file) {
  std::lock_guard lock(overrides_mutex);
  if (overrides().empty()) return std::nullopt;
  std::error_code ec;
  const auto it = overrides().find(std::filesystem::weakly_canonical(file, ec));
  if (ec || it == overrides().end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> read_source(const std::filesystem::path& file) {
  if (auto text = source_override(file)) return text;
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace hr
