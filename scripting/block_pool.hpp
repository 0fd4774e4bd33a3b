// block_pool.hpp — BlockPool: the small blocks of a sandbox's Lua state (up to 512 bytes, in classes of 16 bytes),
// carved from 64 KiB slabs and, once Lua frees them, kept on a free list per class for the next block of that class.
// Lua allocates and frees tables, strings and closures at a high rate while a hook runs: malloc and free for each were
// ~4% of a Lost Valley search's instructions (callgrind, docs/performance.md), a free list costs a few. The slabs are
// freed with the pool (the sandbox's, after lua_close); a freed block is kept for reuse, so the pool holds at most
// the state's peak of small blocks. Not thread-safe: one pool per Lua state, which one thread runs at a time.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace hr {

class BlockPool {
 public:
  static constexpr std::size_t kGrain = 16;      // class width; every block is aligned to it (max_align_t)
  static constexpr std::size_t kMaxBlock = 512;  // larger blocks go to malloc
  static constexpr std::size_t kSlab = 64 * 1024;

  BlockPool() = default;
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;
  ~BlockPool() {
    for (void* slab : slabs_) std::free(slab);
  }

  /// Whether a block of `size` bytes (> 0) comes from the pool.
  static bool pooled(std::size_t size) { return size <= kMaxBlock; }
  /// Whether blocks of sizes a and b (> 0, pooled) are of one class: a block of one serves the other as it is.
  static bool same_class(std::size_t a, std::size_t b) { return (a - 1) / kGrain == (b - 1) / kGrain; }

  /// A block of `size` bytes (0 < size <= kMaxBlock), or nullptr when no slab could be allocated.
  void* allocate(std::size_t size) {
    const std::size_t c = (size - 1) / kGrain;
    if (Free* f = free_[c]) {
      free_[c] = f->next;
      return f;
    }
    const std::size_t bytes = (c + 1) * kGrain;
    if (static_cast<std::size_t>(end_ - next_) < bytes && !new_slab()) return nullptr;
    void* block = next_;
    next_ += bytes;
    return block;
  }
  /// Gives back a block allocate(size) returned (size: the size asked then, or one of the same class).
  void release(void* block, std::size_t size) {
    auto* f = static_cast<Free*>(block);
    const std::size_t c = (size - 1) / kGrain;
    f->next = free_[c];
    free_[c] = f;
  }

 private:
  struct Free {
    Free* next;
  };
  bool new_slab() {
    void* slab = std::malloc(kSlab);
    if (!slab) return false;
    try {
      slabs_.push_back(slab);
    } catch (const std::bad_alloc&) {
      std::free(slab);
      return false;
    }
    next_ = static_cast<char*>(slab);
    end_ = next_ + kSlab;
    return true;
  }
  Free* free_[kMaxBlock / kGrain] = {};
  char* next_ = nullptr;  // the current slab's unused part: [next_, end_)
  char* end_ = nullptr;
  std::vector<void*> slabs_;
};

}  // namespace hr
