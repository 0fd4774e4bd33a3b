// distribution.cpp — exact running figures of integer values (distribution.hpp).
#include "distribution.hpp"

#include <cmath>

namespace hr {

void Distribution::add(std::int64_t value, std::int64_t times) {
  if (times <= 0) return;
  counts_[value] += times;
  count_ += times;
  sum_ += static_cast<Int128>(value) * times;
  squares_ += static_cast<Int128>(value) * value * times;
}

void Distribution::add(const Distribution& other) {
  for (const auto& [value, times] : other.counts_) counts_[value] += times;
  count_ += other.count_;
  sum_ += other.sum_;
  squares_ += other.squares_;
}

double Distribution::mean() const {
  if (count_ == 0) return 0;
  return static_cast<double>(static_cast<long double>(sum_) / static_cast<long double>(count_));
}

double Distribution::variance() const {
  if (count_ < 2) return 0;
  const Int128 n = count_;
  const Int128 numerator = n * squares_ - sum_ * sum_;  // n^2 times the population variance: exact, >= 0
  return static_cast<double>(static_cast<long double>(numerator) / (static_cast<long double>(count_) *
                                                                     static_cast<long double>(count_ - 1)));
}

double Distribution::sd() const { return std::sqrt(variance()); }

}  // namespace hr
