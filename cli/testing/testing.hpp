// testing.hpp — the public header of cli/testing/ (testing rule scripts), included by the
// front as "testing/testing.hpp": scenario files and golden transcripts (`test`), random playouts against the rules'
// contracts (`check`), mutation testing (`mutate`) and the coverage options they share.
#pragma once

#include "check.hpp"
#include "coverage_options.hpp"
#include "golden.hpp"
#include "mutate.hpp"
#include "scenario.hpp"
