// fnv.hpp — 64-bit FNV-1a, byte by byte: the hash of GameState's digests (state.cpp) and of its observation digest
// (observation_digest.cpp), which must feed the same bytes in the same order to agree.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hr {

/// A running 64-bit FNV-1a hash (Fowler, Noll, Vo): h starts at the offset basis; each byte is xor-ed in, then
/// multiplied by the FNV prime. Not for security: a digest for equality checks and memo keys.
struct Fnv {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  /// Hashes n bytes from data, in memory order.
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ULL;
  }
  /// Hashes the object representation of v (its sizeof(T) bytes).
  template <class T>
  void value(const T& v) { bytes(&v, sizeof v); }
};

}  // namespace hr
