// bots_binding.cpp — the kernel's bots as Python callables (docs/python.md): houserules.bot("ismcts", seed=1,
// iterations=200) is the CLI's `--players ismcts:iterations=200`, and bot(state) is the action it chooses for
// the player to move. The bot sees only that player's information set (engine/bots.hpp): never the real state.
#include <pybind11/stl.h>

#include <stdexcept>

#include "bots.hpp"
#include "module.hpp"

namespace py = pybind11;

namespace hr::python {

namespace {

/// A bot of the kernel. Made for the first Game it plays (with that ruleset's [bots] defaults, as the CLI makes
/// it), it plays that Game's states only: its search and its history of positions belong to one ruleset.
struct Bot {
  std::string spec;  ///< "ismcts:iterations=200", as the CLI's --players takes it
  std::uint64_t seed = 0;
  std::shared_ptr<Game> game;
  std::unique_ptr<Player> player;
};

/// An option's value as the CLI's text: True/False as on/off, the rest as str() gives it.
std::string option_text(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "on" : "off";
  return py::str(value).cast<std::string>();
}

}  // namespace

void bind_bots(py::module_& m) {
  py::class_<Bot>(m, "Bot", "A bot of the kernel (random, greedy, ismcts) as a callable: bot(state) -> action.")
      .def(
          "__call__",
          [](Bot& b, State& s) {
            if (s.state.over()) throw py::value_error("the game is over: there is no action to choose");
            if (b.game && b.game != s.game)
              throw py::value_error("this bot plays the states of the Game it first played (" + b.game->rules->id() +
                                    "); make another bot for another Game");
            py::gil_scoped_release release;
            std::lock_guard guard(s.game->lock);
            if (!b.player) {
              b.player = make_bot(b.spec, b.seed, s.game->rules.get());  // the ruleset's [bots] defaults first
              b.game = s.game;
            }
            const std::vector<Action> legal = s.game->rules->legal_actions(s.state);
            if (legal.empty()) throw RulesError("the player to move has no legal action but the game is not over");
            return b.player->choose(*s.game->rules, InformationSet(s.state, s.state.to_move(), legal));
          },
          py::arg("state"),
          "The action (an int of state.legal_actions()) this bot chooses for the player to move. It reads only what "
          "that player may see. ValueError once the game is over or for a state of another Game; RulesError if a "
          "hook fails.")
      .def("step", [](py::object self, py::object state) { return self(state); }, py::arg("state"),
           "The same as bot(state) (OpenSpiel's Bot.step).")
      .def_property_readonly("name", [](const Bot& b) { return b.spec; },
                             "The bot as the CLI names it, e.g. 'ismcts:iterations=200'.")
      .def("__repr__", [](const Bot& b) { return "houserules.bot('" + b.spec + "', seed=" + std::to_string(b.seed) + ")"; });

  m.def(
      "bot",
      [](const std::string& name, std::uint64_t seed, const py::kwargs& options) {
        auto bot = std::make_unique<Bot>();
        bot->spec = name;
        bot->seed = seed;
        for (const auto& [key, value] : options)
          bot->spec += ":" + key.cast<std::string>() + "=" + option_text(value);
        // Checked now, so a bad option is an error where it is written: make_bot throws invalid_argument naming it.
        try {
          if (!make_bot(bot->spec, seed)) throw py::value_error("unknown bot '" + name + "' (choose random, greedy or ismcts)");
        } catch (const std::invalid_argument& e) {
          throw py::value_error(e.what());
        }
        return bot;
      },
      py::arg("name"), py::arg("seed") = 0,
      "A bot: name is 'random', 'greedy' or 'ismcts'; seed (int >= 0) makes its choices reproducible; options "
      "are ismcts's, as the CLI's ismcts:key=value (iterations=200, expand='greedy', finish_turn=False...). "
      "ValueError names an unknown bot or a bad option (listing the known ones).");

  m.def("bot_seed", [](std::uint64_t game_seed, int player) {
          if (player < 0) throw py::index_error("player must be >= 0");
          return derive_seed(game_seed, 1000 + static_cast<std::uint64_t>(player));
        },
        py::arg("game_seed"), py::arg("player"),
        "The seed `houserules play --seed game_seed` gives the bot of player (0-based): bot(name, "
        "seed=bot_seed(s, p)) makes the choices the CLI's bot of seat p + 1 makes in that game.");
}

}  // namespace hr::python
