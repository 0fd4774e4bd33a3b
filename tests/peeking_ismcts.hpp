// peeking_ismcts.hpp — a test double for the no-peeking tests of tests/engine and tests/games.
#pragma once

#include <cstdint>

#include "ismcts.hpp"
#include "state.hpp"

namespace test_doubles {

/// ismcts that cheats: every iteration searches the real state (with a fresh RNG), as a bot would that read
/// the opponent's hand and the deck. Everything else is the real ismcts: what a no-peeking test must catch.
class PeekingIsmcts : public hr::IsmctsPlayer {
 public:
  PeekingIsmcts(std::uint64_t seed, hr::IsmctsOptions options, const hr::GameState& real)
      : hr::IsmctsPlayer(seed, options), real_(&real) {}

 protected:
  hr::GameState sample(const hr::InformationSet&, hr::Rng& rng) override {
    hr::GameState s = *real_;
    s.rng().reseed(rng.next());
    return s;
  }

 private:
  const hr::GameState* real_;
};

}  // namespace test_doubles
