// rng_test.cpp — hr::Rng against an independent reference of splitmix64 + xoshiro256** and Lemire's
// bounded draw, plus statistical and reproducibility checks with fixed seeds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <vector>

#include "rng.hpp"

namespace {

// ---- an independent reference, transcribed from the authors' C code (prng.di.unimi.it) ---------------
struct RefSplitMix {
  std::uint64_t x;
  std::uint64_t next() {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

struct RefXoshiro {
  std::uint64_t s[4];
  static std::uint64_t rotl(std::uint64_t v, int k) { return (v << k) | (v >> (64 - k)); }
  static RefXoshiro seeded(std::uint64_t seed) {
    RefSplitMix sm{seed};
    RefXoshiro r{};
    for (auto& w : r.s) w = sm.next();
    return r;
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s[1] * 5, 7) * 9;
    const std::uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
  // Lemire 2019, "Fast Random Integer Generation in an Interval", algorithm 5 (64-bit version).
  std::uint64_t below(std::uint64_t n) {
    __uint128_t m = static_cast<__uint128_t>(next()) * n;
    std::uint64_t l = static_cast<std::uint64_t>(m);
    if (l < n) {
      std::uint64_t t = -n % n;
      while (l < t) {
        m = static_cast<__uint128_t>(next()) * n;
        l = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }
};

}  // namespace

TEST_CASE("the reference implementation reproduces the published test vectors", "[rng]") {
  // Published outputs of xoshiro256** from state {1,2,3,4} (as used by rand_xoshiro's reference test)
  // and of splitmix64 from state 0: they validate the reference the kernel is compared against below.
  RefXoshiro r{{1, 2, 3, 4}};
  const std::uint64_t expected[] = {11520ULL,
                                    0ULL,
                                    1509978240ULL,
                                    1215971899390074240ULL,
                                    1216172134540287360ULL,
                                    607988272756665600ULL,
                                    16172922978634559625ULL,
                                    8476171486693032832ULL,
                                    10595114339597558777ULL,
                                    2904607092377533576ULL};
  for (std::uint64_t e : expected) CHECK(r.next() == e);
  RefSplitMix sm{0};
  CHECK(sm.next() == 0xe220a8397b1dcdafULL);
  CHECK(sm.next() == 0x6e789e6aa1b965f4ULL);
}

TEST_CASE("splitmix64 matches the reference", "[rng]") {
  std::uint64_t state = 0;
  CHECK(hr::splitmix64(state) == 0xe220a8397b1dcdafULL);
  CHECK(state == 0x9e3779b97f4a7c15ULL);
  CHECK(hr::splitmix64(state) == 0x6e789e6aa1b965f4ULL);
  RefSplitMix ref{123456789};
  std::uint64_t s2 = 123456789;
  for (int i = 0; i < 100; ++i) REQUIRE(hr::splitmix64(s2) == ref.next());
}

TEST_CASE("Rng produces fixed known outputs for fixed seeds", "[rng]") {
  // Computed once with the reference above (splitmix64 seeding, xoshiro256** 1.0).
  hr::Rng zero(0);
  CHECK(zero.next() == 0x99ec5f36cb75f2b4ULL);
  CHECK(zero.next() == 0xbf6e1f784956452aULL);
  CHECK(zero.next() == 0x1a5f849d4933e6e0ULL);
  CHECK(zero.next() == 0x6aa594f1262d2d2cULL);
  CHECK(zero.next() == 0xbba5ad4a1f842e59ULL);
  hr::Rng answer(42);
  CHECK(answer.next() == 0x15780b2e0c2ec716ULL);
  CHECK(answer.next() == 0x6104d9866d113a7eULL);
  CHECK(answer.next() == 0xae17533239e499a1ULL);
  CHECK(answer.next() == 0xecb8ad4703b360a1ULL);
  CHECK(answer.next() == 0xfde6dc7fe2ec5e64ULL);
  // The default constructor is seed 0.
  hr::Rng dflt;
  CHECK(dflt.next() == 0x99ec5f36cb75f2b4ULL);
}

TEST_CASE("Rng matches the reference stream for many seeds", "[rng]") {
  for (std::uint64_t seed : {1ULL, 7ULL, 0xdeadbeefULL, 0xffffffffffffffffULL, 0x8000000000000000ULL}) {
    hr::Rng rng(seed);
    RefXoshiro ref = RefXoshiro::seeded(seed);
    for (int i = 0; i < 1000; ++i) REQUIRE(rng.next() == ref.next());
  }
}

TEST_CASE("below() is Lemire's bounded draw, bit for bit", "[rng]") {
  // Bounds include powers of two, small odd numbers and bounds above 2^63, where about half of the raw
  // draws are rejected: every output and the number of raw draws consumed must agree with the reference.
  const std::uint64_t bounds[] = {1, 2, 3, 5, 6, 7, 10, 52, 1000, 1ULL << 32, (1ULL << 32) + 1,
                                  (1ULL << 63) + 1, 0xfffffffffffffff0ULL, 0xffffffffffffffffULL};
  hr::Rng rng(2024);
  RefXoshiro ref = RefXoshiro::seeded(2024);
  for (int round = 0; round < 200; ++round)
    for (std::uint64_t n : bounds) REQUIRE(rng.below(n) == ref.below(n));
  // Same position in the stream afterwards: rejections consumed the same raw draws.
  CHECK(rng.next() == ref.next());
}

TEST_CASE("reseed restarts the stream and copies continue identically", "[rng]") {
  hr::Rng a(99);
  std::vector<std::uint64_t> first;
  for (int i = 0; i < 20; ++i) first.push_back(a.next());
  a.reseed(99);
  for (int i = 0; i < 20; ++i) CHECK(a.next() == first[i]);
  a.reseed(100);
  CHECK(a.next() != first[0]);

  hr::Rng b(5);
  b.next();
  hr::Rng c = b;
  CHECK(c == b);
  for (int i = 0; i < 10; ++i) CHECK(b.next() == c.next());
  b.next();
  CHECK_FALSE(c == b);
}

TEST_CASE("below(n) stays in range and is roughly uniform", "[rng]") {
  hr::Rng rng(1234);
  for (int i = 0; i < 1000; ++i) CHECK(rng.below(1) == 0);
  CHECK(rng.below(0) == 0);  // documented: bound 0 returns 0

  for (std::uint64_t n : {2ULL, 3ULL, 6ULL, 10ULL, 13ULL}) {
    const int draws = 60000;
    std::vector<int> counts(n, 0);
    for (int i = 0; i < draws; ++i) {
      const std::uint64_t v = rng.below(n);
      REQUIRE(v < n);
      ++counts[v];
    }
    // Chi-square statistic with n-1 degrees of freedom: for df <= 12 the 99.99% quantile is below 40.
    const double expected = static_cast<double>(draws) / static_cast<double>(n);
    double chi2 = 0;
    for (int c : counts) chi2 += (c - expected) * (c - expected) / expected;
    INFO("n = " << n << ", chi2 = " << chi2);
    CHECK(chi2 < 40.0);
    for (int c : counts) CHECK(c > 0);
  }

  // A very large bound still lands in range and hits both halves.
  const std::uint64_t big = (1ULL << 63) + 12345;
  int upper = 0;
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t v = rng.below(big);
    REQUIRE(v < big);
    if (v >= big / 2) ++upper;
  }
  CHECK(upper > 850);
  CHECK(upper < 1150);
}

TEST_CASE("between() is inclusive at both ends and handles negative and full ranges", "[rng]") {
  hr::Rng rng(77);
  std::set<std::int64_t> seen;
  for (int i = 0; i < 5000; ++i) {
    const std::int64_t v = rng.between(-3, 3);
    REQUIRE(v >= -3);
    REQUIRE(v <= 3);
    seen.insert(v);
  }
  CHECK(seen.size() == 7);  // -3..3, both ends included
  for (int i = 0; i < 100; ++i) CHECK(rng.between(5, 5) == 5);
  for (int i = 0; i < 1000; ++i) {
    const std::int64_t v = rng.between(INT64_MAX - 1, INT64_MAX);
    REQUIRE(v >= INT64_MAX - 1);
  }
  for (int i = 0; i < 1000; ++i) {
    const std::int64_t v = rng.between(INT64_MIN, INT64_MIN + 2);
    REQUIRE(v <= INT64_MIN + 2);
  }
  // The full range consumes exactly one raw draw, reinterpreted as signed.
  hr::Rng a(8), b(8);
  CHECK(a.between(INT64_MIN, INT64_MAX) == static_cast<std::int64_t>(b.next()));
  CHECK(a.next() == b.next());
  // between(lo, hi) is lo + below(hi - lo + 1).
  hr::Rng c(9);
  RefXoshiro ref = RefXoshiro::seeded(9);
  for (int i = 0; i < 200; ++i) REQUIRE(c.between(-50, 49) == -50 + static_cast<std::int64_t>(ref.below(100)));
}

TEST_CASE("unit() is at least 0 and below 1, with 53 random bits", "[rng]") {
  hr::Rng rng(3);
  RefXoshiro ref = RefXoshiro::seeded(3);
  double sum = 0;
  for (int i = 0; i < 10000; ++i) {
    const double u = rng.unit();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    REQUIRE(u == static_cast<double>(ref.next() >> 11) / 9007199254740992.0);
    sum += u;
  }
  CHECK(sum / 10000 == Approx(0.5).margin(0.02));
}

TEST_CASE("shuffle is a permutation, reproducible, and reaches every permutation", "[rng]") {
  hr::Rng rng(11);
  std::vector<int> items(52);
  std::iota(items.begin(), items.end(), 0);
  std::vector<int> shuffled = items;
  rng.shuffle(std::span<int>(shuffled));
  std::vector<int> sorted = shuffled;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == items);
  CHECK(shuffled != items);  // probability 1/52! of a false failure

  // Same seed, same result.
  hr::Rng again(11);
  std::vector<int> second = items;
  again.shuffle(std::span<int>(second));
  CHECK(second == shuffled);

  // Durstenfeld from the top down, with below(i) for i = n..2.
  RefXoshiro ref = RefXoshiro::seeded(11);
  std::vector<int> expected = items;
  for (std::size_t i = expected.size(); i > 1; --i) std::swap(expected[i - 1], expected[ref.below(i)]);
  CHECK(expected == shuffled);

  // All 6 orders of 3 items appear, each roughly 1/6 of the time.
  std::map<std::array<int, 3>, int> counts;
  hr::Rng three(5);
  for (int i = 0; i < 6000; ++i) {
    std::array<int, 3> a{0, 1, 2};
    three.shuffle(std::span<int>(a));
    ++counts[a];
  }
  REQUIRE(counts.size() == 6);
  for (const auto& [perm, n] : counts) {
    CHECK(n > 850);
    CHECK(n < 1150);
  }

  // Empty and single-element spans are left alone and draw nothing.
  hr::Rng d(4), e(4);
  std::vector<int> none;
  d.shuffle(std::span<int>(none));
  std::array<int, 1> one{7};
  d.shuffle(std::span<int>(one));
  CHECK(one[0] == 7);
  CHECK(d == e);
}

TEST_CASE("derive_seed gives distinct, reproducible seeds", "[rng]") {
  std::set<std::uint64_t> seeds;
  for (std::uint64_t seed : {0ULL, 1ULL, 42ULL})
    for (std::uint64_t i = 0; i < 1000; ++i) seeds.insert(hr::derive_seed(seed, i));
  CHECK(seeds.size() == 3000);
  CHECK(hr::derive_seed(42, 3) == hr::derive_seed(42, 3));
  CHECK(hr::derive_seed(42, 3) != hr::derive_seed(43, 3));
  CHECK(hr::derive_seed(42, 3) != hr::derive_seed(42, 4));
  // Documented formula: splitmix64 of seed ^ (0xd1b54a32d192ed03 * (index + 1)).
  RefSplitMix sm{42ULL ^ (0xd1b54a32d192ed03ULL * 4)};
  CHECK(hr::derive_seed(42, 3) == sm.next());
  // Usable at compile time.
  static_assert(hr::derive_seed(1, 0) != hr::derive_seed(1, 1));
  // Streams from derived seeds differ.
  hr::Rng a(hr::derive_seed(7, 0)), b(hr::derive_seed(7, 1));
  CHECK(a.next() != b.next());
}
