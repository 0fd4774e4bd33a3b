// simulation.hpp — the public header of cli/simulation/ (many games at once), included by the
// front as "simulation/simulation.hpp": `simulate` and `merge` (threads, shards, the summary and its HTML report) and
// `compare` (two rulesets in mirror pairs).
#pragma once

#include "compare.hpp"
#include "simulate.hpp"
