// allocation_counter.hpp — bytes allocated with operator new since the program started, for benchmarks that
// report what an operation allocates (a GameState copy, a lattice search). Link allocation_counter.cpp, which
// replaces the global operator new and delete (malloc and free underneath).
#pragma once

#include <cstddef>

namespace hr_bench {
/// Total bytes requested from operator new so far (all threads).
std::size_t allocated_bytes();
}  // namespace hr_bench
