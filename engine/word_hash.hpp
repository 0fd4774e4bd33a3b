// word_hash.hpp — WordHash, the 64-bit hash of the memo keys: a state's observation key (observation_digest.cpp),
// a board's digest (board_digest.cpp) and the digest around a vertex (vertex_digest.cpp). Eight bytes at a time, so a
// few times cheaper than the byte-wise FNV-1a of fnv.hpp (whose values the golden digests keep).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace hr {

/// MurmurHash3's 64-bit finalizer (a bijection that spreads every input bit over the output): WordHash::finish,
/// and the codes of the board keys (board_keys.cpp).
inline std::uint64_t fmix64(std::uint64_t k) {
  k ^= k >> 33, k *= 0xff51afd7ed558ccdULL, k ^= k >> 33, k *= 0xc4ceb9fe1a85ec53ULL, k ^= k >> 33;
  return k;
}

/// A 64-bit hash of a byte stream taken 8 bytes at a time: each word is xor-ed into h, multiplied by an odd constant
/// (2^64 / golden ratio) and folded (h ^= h >> 32); small values are packed into a word first, and a value that
/// does not fit in the word being packed starts the next one (zero-padded). The same calls in the same order give the
/// same hash; finish() mixes the last bits (MurmurHash3's fmix64). Not for security: a memo key.
struct WordHash {
  std::uint64_t h = 0x243F6A8885A308D3ULL;
  std::uint64_t packed = 0;  // the word being packed
  unsigned bits = 0;          // bits of `packed` in use
  void mix(std::uint64_t w) {
    h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 32;
  }
  /// Hashes one 64-bit word on its own (after what is being packed).
  void word(std::uint64_t w) {
    flush();
    mix(w);
  }
  void flush() {
    if (bits) mix(packed), packed = 0, bits = 0;
  }
  void bytes(const void* data, std::size_t n) {
    flush();
    const auto* p = static_cast<const unsigned char*>(data);
    for (; n >= 8; p += 8, n -= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      mix(w);
    }
    if (n) std::memcpy(&packed, p, n), bits = static_cast<unsigned>(8 * n);
  }
  template <class T>
  void value(const T& v) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>);
    std::uint64_t x = 0;
    std::memcpy(&x, &v, sizeof v);
    constexpr unsigned width = 8 * sizeof(T);
    if (bits + width > 64) flush();
    packed |= x << bits;  // bits is 0 when width is 64 (flushed above)
    bits += width;
    if (bits == 64) flush();
  }
  std::uint64_t finish() {
    flush();
    return fmix64(h);
  }
};

}  // namespace hr
