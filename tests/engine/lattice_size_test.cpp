// lattice_size_test.cpp — Lattice::size_of (issue 32): what houserules.declare counts against the kernel budget
// before it builds a board is what the built board holds.
#include <catch2/catch.hpp>

#include "lattice.hpp"

TEST_CASE("Lattice::size_of gives the built board's faces, edges and vertices, and bounds its bytes", "[lattice]") {
  for (const hr::LatticeKind kind : {hr::LatticeKind::Triangular, hr::LatticeKind::Square})
    for (const auto& [w, h] : {std::pair{1, 1}, {4, 3}, {3, 4}, {17, 9}, {147, 147}}) {
      CAPTURE(static_cast<int>(kind), w, h);
      const hr::Lattice built(kind, w, h);
      const hr::Lattice::Size size = hr::Lattice::size_of(kind, w, h);
      CHECK(size.faces == built.faces());
      CHECK(size.edges == built.edges());
      CHECK(size.vertices == built.vertices());
      CHECK(size.bytes >= static_cast<std::int64_t>(built.faces()) * 44);
    }
}
