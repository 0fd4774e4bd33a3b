// houserules_module.cpp — `import houserules`: load a ruleset, play it from Python (docs/python.md).
// The shape follows OpenSpiel: load() gives a Game, game.new_game(seed) a State, and a State has
// current_player(), legal_actions(), action_to_string(), apply_action(), clone(), is_terminal(), returns() and
// observation(player), resample(player, rng) (a determinization) and transcript(); houserules.bot() gives the
// kernel's bots as callables (bots_binding.cpp). Players are 0-based as in OpenSpiel: player p is the kernel's seat p + 1.
// Threads: the GIL is released while the kernel or the Lua rules run; one Game is one Lua state, which is not
// thread-safe, so a thread plays with its own Game (load() it once per thread) — the Game's lock enforces it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "module.hpp"
#include "observation_json.hpp"
#include "rng.hpp"
#include "ruleset.hpp"

namespace py = pybind11;
using hr::python::Game;
using hr::python::State;

namespace {

/// OpenSpiel's current_player() once the game is over (pyspiel.PlayerId.TERMINAL).
constexpr int kTerminalPlayer = -4;

/// params {"hand_size": 10, "variant_name": "x", "flag": True} as the CLI's `--set name=value` texts.
std::vector<std::string> overrides_of(const py::dict& params) {
  std::vector<std::string> out;
  for (const auto& [key, value] : params) {
    std::string text;
    if (py::isinstance<py::bool_>(value)) text = value.cast<bool>() ? "true" : "false";
    else if (py::isinstance<py::str>(value)) text = value.cast<std::string>();
    else text = py::str(value).cast<std::string>();
    out.push_back(key.cast<std::string>() + "=" + text);
  }
  return out;
}

/// resample's seed: an int >= 0, or 64 bits drawn from a random.Random (anything with getrandbits).
std::uint64_t seed_of(const py::object& rng_or_seed) {
  if (py::isinstance<py::int_>(rng_or_seed) && !py::isinstance<py::bool_>(rng_or_seed))
    return rng_or_seed.cast<std::uint64_t>();
  if (py::hasattr(rng_or_seed, "getrandbits")) return rng_or_seed.attr("getrandbits")(64).cast<std::uint64_t>();
  throw py::type_error("rng_or_seed must be an int >= 0 or a random.Random, not " +
                       py::str(py::type::of(rng_or_seed).attr("__name__")).cast<std::string>());
}

}  // namespace

PYBIND11_MODULE(houserules, m) {
  m.doc() = "houserules: card and tile games whose rules are sandboxed Lua scripts (docs/python.md)";
  // Errors carry the rules' file:line in their message (as the CLI prints them).
  static py::exception<hr::LoadError> load_error(m, "LoadError", PyExc_ValueError);
  static py::exception<hr::RulesError> rules_error(m, "RulesError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const hr::IllegalAction& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const hr::LoadError& e) {
      load_error(e.what());
    } catch (const hr::RulesError& e) {
      rules_error(e.what());
    }
  });

  py::class_<State>(m, "State", "A game in progress (OpenSpiel's State).")
      .def("current_player",
           [](const State& s) { return s.state.over() ? kTerminalPlayer : s.state.to_move() - 1; },
           "The player to move, 0-based (seat - 1); -4 (OpenSpiel's TERMINAL) once the game is over.")
      .def("num_players", &State::seats, "The number of players (seats).")
      .def("legal_actions",
           [](State& s) {
             py::gil_scoped_release release;
             std::lock_guard guard(s.game->lock);
             return s.game->rules->legal_actions(s.state);
           },
           "The legal actions of the player to move (ints, the ruleset's order); [] once the game is over.")
      .def("action_to_string",
           [](State& s, hr::Action action) {
             py::gil_scoped_release release;
             std::lock_guard guard(s.game->lock);
             return s.game->rules->action_text(s.state, action);
           },
           py::arg("action"), "The action's text as the CLI prints it, e.g. 'play Y7'.")
      .def("apply_action",
           [](State& s, hr::Action action) {
             py::gil_scoped_release release;
             std::lock_guard guard(s.game->lock);
             s.game->rules->apply_checked(s.state, action);
             s.history.push_back(action);
           },
           py::arg("action"),
           "Plays `action` for the player to move. ValueError (state unchanged) if it is not legal; RulesError "
           "(state unchanged, message with the rules' file:line) if a hook fails.")
      .def("clone", [](const State& s) { return State(s); }, "An independent copy of this state.")
      .def("resample",
           [](const State& s, int player, const py::object& rng_or_seed) {
             s.check_player(player);
             hr::Rng rng(seed_of(rng_or_seed));
             State sample{s.game, s.state.determinized(player + 1, rng), s.seed, s.history, false};
             return sample;
           },
           py::arg("player"), py::arg("rng_or_seed"),
           "A determinization for `player`: this state with the cards the player cannot know dealt again at random "
           "(the ismcts bot's samples, GameState::determinized). Its observation(player) equals this state's; what "
           "it deals depends only on what the player knows and on rng_or_seed (an int >= 0, or a random.Random "
           "whose getrandbits(64) seeds it). IndexError for a player out of range. A resample has no transcript.")
      .def("history", [](const State& s) { return s.history; },
           "The actions applied since the deal, in order (OpenSpiel's history()).")
      .def("transcript",
           [](State& s, std::optional<std::vector<std::string>> players, const std::string& path) {
             const std::vector<std::string> names = players ? *players : std::vector<std::string>(s.seats(), "python");
             std::string text = hr::python::transcript_text(s, names, path);
             if (!path.empty()) {
               std::ofstream out(path);
               if (!(out << text) || !(out.flush()))
                 throw py::value_error("cannot write the transcript file " + path);
             }
             return text;
           },
           py::arg("players") = py::none(), py::arg("path") = "",
           "The game so far as the JSON Lines transcript `houserules play --log` writes (docs/transcripts.md): a "
           "header (players: one name per seat, default 'python' each), one line per action, then a result line, "
           "or a 'stopped' line while the game is not over (`houserules play --resume` continues it). With `path`, "
           "also written there (a ruleset given by path is named relative to it). ValueError for a resample, a "
           "wrong number of players or a file that cannot be written.")
      .def("is_terminal", [](const State& s) { return s.state.over(); }, "Whether the match is over.")
      .def("returns",
           [](const State& s) {
             std::vector<double> out;
             for (auto v : s.state.match_scores()) out.push_back(static_cast<double>(v));
             return out;
           },
           "Each player's match score so far (the sum of the rounds scored), as floats.")
      .def("ranks", [](const State& s) { return s.state.ranks(); },
           "Each player's place from the match scores: 1 = best, ties share a place.")
      .def("observation",
           [](const State& s, int player) {
             s.check_player(player);
             const std::string text = hr::observation_json(s.state.observation(player + 1), player + 1).dump();
             return py::module_::import("json").attr("loads")(text);
           },
           py::arg("player"),
           "What `player` may see, as a dict: the external-player protocol's observation (docs/external-players.md)"
           " — cards the player cannot see are None.")
      .def("__str__", [](State& s) {
        std::lock_guard guard(s.game->lock);
        return s.game->rules->describe(s.state.observation(s.state.to_move()), s.state.to_move());
      });

  py::class_<Game, std::shared_ptr<Game>>(m, "Game", "A loaded ruleset or variant (OpenSpiel's Game).")
      .def("new_game",
           [](const std::shared_ptr<Game>& g, std::uint64_t seed) {
             py::gil_scoped_release release;
             std::lock_guard guard(g->lock);
             return State{g, g->rules->new_game(seed), seed, {}, true};
           },
           py::arg("seed"), "A new match dealt from `seed` (the same seed gives the same game as `houserules play --seed`).")
      .def("num_players", [](const Game& g) { return g.rules->layout().seats; })
      .def("id", [](const Game& g) { return g.rules->id(); }, "The ruleset's id, e.g. 'lost-cities/three-player'.");

  hr::python::bind_bots(m);

  m.def("load",
        [](const std::string& ruleset, int players, const py::dict& params) {
          hr::LoadOptions options;
          options.seats = players;
          options.overrides = overrides_of(params);
          py::gil_scoped_release release;
          auto game = std::make_shared<Game>();
          game->ruleset = ruleset;
          game->overrides = options.overrides;
          game->rules = hr::load_rules(ruleset, options);
          return game;
        },
        py::arg("ruleset"), py::arg("players") = 0, py::arg("params") = py::dict(),
        "Loads a ruleset or variant: an id ('lost-cities'), 'id/variant', or a path; `players` = 0 for its "
        "default; `params` overrides parameters as `--set` does. LoadError (a ValueError) names the file and line.");
}
