"""A match of Lost Cities between a Python policy (seat 1) and the ismcts bot (docs/python.md).
Usage: PYTHONPATH=build/python python3 examples/python/match.py [ITERATIONS [SEED]]"""
import sys

import houserules


def policy(state):
    """Plays a card to an expedition when one may be played, else the first legal action."""
    actions = state.legal_actions()
    plays = [a for a in actions if state.action_to_string(a).startswith("play")]
    return (plays or actions)[0]


iterations, seed = [int(arg) for arg in sys.argv[1:3]] + [300, 1][len(sys.argv[1:3]):]
state = houserules.load("lost-cities").new_game(seed)
ismcts = houserules.bot("ismcts", seed=seed, iterations=iterations)
while not state.is_terminal():
    state.apply_action(policy(state) if state.current_player() == 0 else ismcts(state))
print(f"python {state.returns()[0]:.0f}, ismcts {state.returns()[1]:.0f}: places {state.ranks()}")
