// distribution.hpp — the figures of many integer values (scores, lengths, margins, action counts) kept as they
// come, in memory that does not grow with their number: a histogram (value -> how many times) and exact integer
// sums. Exact sums make the mean and the deviation independent of the order the values came in, so a run on any
// number of threads, or the merge of its shards, gives the same figures bit for bit (docs/simulation.md).
#pragma once

#include <cstdint>
#include <map>

namespace hr {

/// A 128-bit integer (GCC's and Clang's __int128): exact sums of squares of a billion 64-bit values.
__extension__ typedef __int128 Int128;

/// How many times each integer value occurred, with exact running sums. Memory: one map entry per distinct
/// value (a few hundred for scores or game lengths), whatever the number of values.
class Distribution {
 public:
  /// Adds `value`, `times` times (times >= 0).
  void add(std::int64_t value, std::int64_t times = 1);
  /// Adds every value of `other` (the figures of the union, exactly).
  void add(const Distribution& other);
  std::int64_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  /// Sum of the values divided by their count (0 when there are none): the sum is exact (128-bit) and divided
  /// in long double, as a sum of the values in any order would be.
  double mean() const;
  /// Sample standard deviation (n - 1) from the exact sums: sqrt((n S2 - S1^2) / (n (n - 1))); 0 below 2 values.
  double sd() const;
  /// The sample variance (n - 1), as sd() squared.
  double variance() const;
  std::int64_t min() const { return counts_.empty() ? 0 : counts_.begin()->first; }
  std::int64_t max() const { return counts_.empty() ? 0 : counts_.rbegin()->first; }
  /// value -> how many times, in increasing value.
  const std::map<std::int64_t, std::int64_t>& counts() const { return counts_; }
  bool operator==(const Distribution&) const = default;

 private:
  std::map<std::int64_t, std::int64_t> counts_;
  std::int64_t count_ = 0;
  Int128 sum_ = 0, squares_ = 0;
};

}  // namespace hr
