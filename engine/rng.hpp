// rng.hpp — the kernel's random number generator: xoshiro256** seeded through splitmix64.
//
// Every random event of a game (shuffles, `math.random` in a rules script, bots' choices) draws from an
// Rng, never from <random>'s distributions or std::shuffle, whose results differ between standard
// libraries and would break replays. The algorithm and the bounded draw are fixed and documented here, so
// a transcript (seed + actions) replays to the same game on any platform.
#pragma once

#include <cstdint>
#include <span>
#include <utility>

namespace hr {

/// splitmix64 step (Steele, Lea, Flood 2014): advances `state` and returns a well-mixed 64-bit value.
/// Used to expand a 64-bit seed into xoshiro's 256-bit state and to derive independent seeds.
constexpr std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Derives the seed of stream `index` of experiment `seed` (game i of a simulation, seat s's bot):
/// distinct, reproducible and independent of how many other streams exist.
constexpr std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index) noexcept {
  std::uint64_t s = seed ^ (0xd1b54a32d192ed03ULL * (index + 1));
  return splitmix64(s);
}

/// xoshiro256** 1.0 (Blackman & Vigna 2018). 32 bytes of state, trivially copyable.
class Rng {
 public:
  /// Seeds the four state words with successive splitmix64 outputs of `seed` (the authors' recommendation).
  explicit Rng(std::uint64_t seed = 0) noexcept { reseed(seed); }

  void reseed(std::uint64_t seed) noexcept {
    for (auto& word : s_) word = splitmix64(seed);
  }

  /// Next 64 uniformly distributed bits.
  std::uint64_t next() noexcept {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// Uniform integer in [0, bound), bound >= 1, without modulo bias: Lemire's multiply-shift with rejection
  /// ("Fast Random Integer Generation in an Interval", 2019). bound == 0 returns 0.
  std::uint64_t below(std::uint64_t bound) noexcept {
    if (bound == 0) return 0;
    __uint128_t m = static_cast<__uint128_t>(next()) * bound;
    auto low = static_cast<std::uint64_t>(m);
    if (low < bound) {
      const std::uint64_t threshold = (0 - bound) % bound;
      while (low < threshold) {
        m = static_cast<__uint128_t>(next()) * bound;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  /// Uniform integer in [lo, hi] (inclusive); requires lo <= hi.
  std::int64_t between(std::int64_t lo, std::int64_t hi) noexcept {
    const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    if (span == UINT64_MAX) return static_cast<std::int64_t>(next());
    return lo + static_cast<std::int64_t>(below(span + 1));
  }

  /// Uniform double in [0, 1) with 53 random bits.
  double unit() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  /// Fisher–Yates shuffle, from the last element down (Durstenfeld): every permutation equally likely.
  template <class T>
  void shuffle(std::span<T> items) noexcept {
    for (std::size_t i = items.size(); i > 1; --i) {
      const auto j = static_cast<std::size_t>(below(i));
      std::swap(items[i - 1], items[j]);
    }
  }

  bool operator==(const Rng&) const = default;

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4]{};
};

}  // namespace hr
