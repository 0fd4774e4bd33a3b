#!/usr/bin/env python3
"""A small Lost Cities player for houserules, speaking the external player protocol (docs/external-players.md).
  houserules play lost-cities --players cmd:"python3 examples/external-bot/bot.py",greedy
It plays the lowest card that goes on an expedition worth having, else discards its lowest card; it draws
from the deck. Debug output goes to stderr: stdout carries only answers, one JSON line each, flushed."""
import json
import sys

cards = {}  # card name -> its attributes, e.g. "Y7": {"colour": "yellow", "value": 7, "wager": false, ...}
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        cards = message["layout"]["components"]
    elif message["type"] == "end":
        print(f"bot.py: the match is over, scores {message['match_scores']}", file=sys.stderr)
    elif message["type"] == "decide":
        me, zones, legal = message["seat"], message["observation"]["zones"], message["legal"]
        hand = zones[f"hand.{me}"]["cards"]
        def colour(action): return cards[action.split()[1]]["colour"]
        def value(action): return cards[action.split()[1]]["value"]
        def worth(c): return sum(cards[h]["value"] for h in hand if cards[h]["colour"] == c)
        plays = [a for a in legal if a.startswith("play ")
                 and (zones[f"expedition.{me}.{colour(a)}"]["cards"] or worth(colour(a)) >= 25)]
        discards = [a for a in legal if a.startswith("discard ")]
        if plays:
            answer = min(plays, key=value)
        elif "draw deck" in legal:
            answer = "draw deck"
        else:
            answer = min(discards, key=value) if discards else legal[0]
        print(json.dumps({"action": answer}), flush=True)
