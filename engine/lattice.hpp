// lattice.hpp — the static geometry of a board: a planar lattice of faces, edges and vertices
// (docs/boards.md). Triangular and square lattices are the same code with other tables (kTables below):
// vertex directions, face types, the rotation about the origin. No Lua here, no game state: a Lattice is
// built once per load and only read afterwards. Ids are 0-based here (1-based in Lua).
//
// Coordinates: a vertex is (q, r), 0 <= q <= width, 0 <= r <= height. Triangular: axial coordinates, drawn at
// x = q + r/2, y = r*sqrt(3)/2; cell (q, r) holds the up face (q,r)u = (q,r),(q+1,r),(q,r+1) and the down face
// (q,r)d = (q+1,r),(q+1,r+1),(q,r+1). Square: x = q, y = r; face (q,r) = (q,r),(q+1,r),(q+1,r+1),(q,r+1).
// Ids: vertex (q, r) is r*(width+1) + q; face (q, r, t) is (r*width + q)*types + t; edges are numbered from
// their lower-id vertex, in vertex id order, then by direction (east, then counter-clockwise).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hr {

enum class LatticeKind : std::uint8_t { Triangular, Square };
std::string_view to_string(LatticeKind kind);
/// Parses "triangular" or "square"; throws std::invalid_argument naming the expected kinds otherwise.
LatticeKind lattice_kind_from_string(std::string_view text);

/// Raised for a malformed text form, a size out of range, an id that is not on the lattice.
class LatticeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A vertex position in lattice coordinates (may be off the board: shapes use local coordinates).
struct Coord {
  int q = 0, r = 0;
  bool operator==(const Coord&) const = default;
  Coord operator+(Coord o) const { return {q + o.q, r + o.r}; }
  Coord operator-(Coord o) const { return {q - o.q, r - o.r}; }
};

/// A face position: cell (q, r) and type t (triangular: 0 = up "u", 1 = down "d"; square: always 0).
struct FaceCoord {
  int q = 0, r = 0, t = 0;
  bool operator==(const FaceCoord&) const = default;
};

/// An edge position: its two end vertices, the lower (r, then q) first.
struct EdgeCoord {
  Coord a, b;
  bool operator==(const EdgeCoord&) const = default;
};
/// The edge (a, b) with its ends in canonical order.
EdgeCoord make_edge(Coord a, Coord b);

/// Parses a face in local coordinates whatever the lattice kind: "q,ru" / "q,rd" (t = 0 / 1) or "q,r" (t = -1,
/// a square face); nullopt when malformed.
std::optional<FaceCoord> parse_local_face(std::string_view text);
/// Parses "q1,r1-q2,r2" whatever the kind (no check that the ends are one step apart); nullopt when malformed.
std::optional<EdgeCoord> parse_local_edge(std::string_view text);

/// Scratch memory for the movement queries (reachable, path): owned by the caller and reused, so that a query
/// allocates nothing once the scratch has grown to the largest lattice it served.
struct LatticeScratch {
  std::vector<std::uint32_t> stamp;  ///< per vertex: == current when visited in this query
  std::vector<std::int32_t> dist;    ///< per vertex: distance from the start (valid when stamped)
  std::vector<std::int32_t> parent;  ///< per vertex: previous vertex on a shortest path
  std::vector<std::int32_t> queue;   ///< visited vertices in BFS order ([0] = the start)
  std::uint32_t current = 0;
  /// Sizes the arrays for `vertices` vertices and starts a new query (returns its stamp).
  std::uint32_t begin(int vertices);
};

/// One lattice of a given kind and size, with its adjacency tables (built once, in the constructor).
class Lattice {
 public:
  static constexpr int kMaxDegree = 6;  ///< most edges around a vertex (triangular)

  Lattice() = default;
  /// Builds a `kind` lattice of width x height cells (1..255 each). Throws LatticeError otherwise.
  Lattice(LatticeKind kind, int width, int height);

  /// What a `kind` lattice of width x height cells (1..255 each) would hold, without building it:
  /// houserules.declare counts a board's bytes against its budget before it builds the board.
  struct Size {
    std::int64_t faces = 0, edges = 0, vertices = 0;
    std::int64_t bytes = 0;  ///< an upper bound of the bytes of its tables (the vectors' contents)
  };
  static Size size_of(LatticeKind kind, int width, int height);

  LatticeKind kind() const { return kind_; }
  int width() const { return width_; }
  int height() const { return height_; }
  int faces() const { return static_cast<int>(face_coord_.size()); }
  int edges() const { return static_cast<int>(edge_vertices_.size()); }
  int vertices() const { return (width_ + 1) * (height_ + 1); }
  /// Number of rotations of the lattice about a vertex: 6 (steps of 60°) or 4 (90°), counter-clockwise.
  int rotations() const;
  /// Face types per cell: 2 (up, down) or 1.
  int face_types() const;
  /// Vertices (= edges) of each face: 3 or 4.
  int face_size() const;

  // ---- ids and coordinates (every function taking an id expects a valid one: 0 <= id < count) ----
  /// The vertex at (q, r), or -1 when off the board.
  int vertex_at(Coord c) const;
  /// The face at (q, r, t), or -1 when off the board (or t is not a type of this kind).
  int face_at(FaceCoord f) const;
  /// The edge joining v1 and v2, or -1 when they are not one step apart.
  int edge_between(int v1, int v2) const;
  /// The edge with these end coordinates, or -1 when off the board or not an edge.
  int edge_at(EdgeCoord e) const;
  Coord vertex_coord(int v) const { return {v % (width_ + 1), v / (width_ + 1)}; }
  FaceCoord face_coord(int f) const { return face_coord_[static_cast<std::size_t>(f)]; }
  EdgeCoord edge_coord(int e) const { return make_edge(vertex_coord(edge_vertices(e)[0]), vertex_coord(edge_vertices(e)[1])); }
  /// Drawing position of a vertex (unit edge length, y up).
  std::pair<double, double> vertex_xy(int v) const;

  // ---- adjacency ----
  /// The vertices of face f, counter-clockwise from its first (docs/boards.md): 3 or 4 ids.
  std::span<const std::int32_t> face_vertices(int f) const { return {&face_vertices_[stride(f)], static_cast<std::size_t>(face_size())}; }
  /// The edges of face f: edge i joins face vertex i and i+1.
  std::span<const std::int32_t> face_edges(int f) const { return {&face_edges_[stride(f)], static_cast<std::size_t>(face_size())}; }
  /// The two vertices of edge e (lower id first).
  const std::array<std::int32_t, 2>& edge_vertices(int e) const { return edge_vertices_[static_cast<std::size_t>(e)]; }
  /// The faces of edge e: one (on the rim) or two, in face id order.
  std::span<const std::int32_t> edge_faces(int e) const {
    const auto& f = edge_faces_[static_cast<std::size_t>(e)];
    return {f.data(), f[1] < 0 ? 1u : 2u};
  }
  /// The edges around vertex v, counter-clockwise from east (only those on the board).
  std::span<const std::int32_t> vertex_edges(int v) const { return around(vertex_edges_, vertex_edge_count_, v); }
  /// The faces around vertex v, counter-clockwise from east (only those on the board).
  std::span<const std::int32_t> vertex_faces(int v) const { return around(vertex_faces_, vertex_face_count_, v); }
  /// The other end of edge e from vertex v.
  int other_end(int e, int v) const { const auto& ends = edge_vertices(e); return ends[0] == v ? ends[1] : ends[0]; }
  /// The face across edge e from face f, or -1 (rim).
  int neighbour(int f, int e) const;
  /// Whether two sites of one kind are adjacent (the question a rule asks: "are these next to each other"): two
  /// vertices joined by an edge, two faces sharing an edge, two edges sharing a vertex. A site is not adjacent
  /// to itself. Ids valid for their kind.
  bool adjacent_vertices(int a, int b) const { return a != b && edge_between(a, b) >= 0; }
  bool adjacent_faces(int a, int b) const;
  bool adjacent_edges(int a, int b) const;
  /// True if edge e lies on the rim of the board (one face).
  bool on_rim(int e) const { return edge_faces_[static_cast<std::size_t>(e)][1] < 0; }

  // ---- geometry of arbitrary coordinates (local shapes) ----
  /// c rotated by `rotation` steps counter-clockwise about (0, 0) (any integer: taken modulo rotations()).
  Coord rotate(Coord c, int rotation) const;
  FaceCoord rotate(FaceCoord f, int rotation) const;
  EdgeCoord rotate(EdgeCoord e, int rotation) const { return make_edge(rotate(e.a, rotation), rotate(e.b, rotation)); }
  /// The corners of face f, counter-clockwise (face_size() of them are valid).
  std::array<Coord, 4> corners(FaceCoord f) const;
  /// The face whose corners are exactly these (any order), or nullopt.
  std::optional<FaceCoord> face_with_corners(std::span<const Coord> corners) const;
  /// Translation of a face by a vertex offset.
  static FaceCoord translate(FaceCoord f, Coord by) { return {f.q + by.q, f.r + by.r, f.t}; }

  // ---- text forms: vertex "4,7", face "4,7u"/"4,7d" (triangular) or "4,7" (square), edge "4,7-5,7" ----
  std::string vertex_text(int v) const { return coord_text(vertex_coord(v)); }
  std::string face_text(int f) const { return face_text(face_coord(f)); }
  std::string edge_text(int e) const { return edge_text(edge_coord(e)); }
  static std::string coord_text(Coord c);
  std::string face_text(FaceCoord f) const;
  static std::string edge_text(EdgeCoord e);
  /// Parses "q,r" (integers, maybe negative, blanks allowed around them); nullopt when malformed.
  static std::optional<Coord> parse_coord(std::string_view text);
  /// Parses a face text of this kind ("q,ru" / "q,rd", or "q,r" for square); nullopt when malformed.
  std::optional<FaceCoord> parse_face(std::string_view text) const;
  /// Parses "q1,r1-q2,r2" (two vertices one step apart); nullopt when malformed or not one step.
  std::optional<EdgeCoord> parse_edge(std::string_view text) const;
  /// Id of the vertex / face / edge named by `text`: -1 when well formed but off the board; throws LatticeError
  /// naming the text and the expected form when malformed.
  int vertex(std::string_view text) const;
  int face(std::string_view text) const;
  int edge(std::string_view text) const;

  // ---- movement queries ----
  /// The vertices reachable from `from` in 1..k edges through the edges e with pass(e) true, by breadth-first
  /// search in `scratch` (no allocation once grown). Returns them in increasing distance, then id; each one's
  /// distance is scratch.dist[v] and its predecessor scratch.parent[v]. `from` itself is not listed. The span
  /// points into scratch and is valid until its next use.
  template <class Pass>
  std::span<const std::int32_t> reachable(int from, int k, Pass&& pass, LatticeScratch& scratch) const {
    return reachable(from, k, pass, [](int) { return true; }, scratch);
  }
  /// The same, where a reached vertex v other than `from` is passed through (its edges followed further) only
  /// when through(v) is true: a vertex that stops a move can still be its end.
  template <class Pass, class Through>
  std::span<const std::int32_t> reachable(int from, int k, Pass&& pass, Through&& through, LatticeScratch& scratch) const;
  /// A shortest path from `from` to `to` of at most k edges through passing edges, written into `out` (from and to
  /// included); false (out empty) if there is none. `from == to` gives the one-vertex path.
  template <class Pass, class Through>
  bool path(int from, int to, int k, Pass&& pass, Through&& through, LatticeScratch& scratch, std::vector<std::int32_t>& out) const;
  template <class Pass>
  bool path(int from, int to, int k, Pass&& pass, LatticeScratch& scratch, std::vector<std::int32_t>& out) const {
    return path(from, to, k, pass, [](int) { return true; }, scratch, out);
  }

 private:
  std::size_t stride(int f) const { return static_cast<std::size_t>(f) * 4; }
  static std::span<const std::int32_t> around(const std::vector<std::int32_t>& table, const std::vector<std::uint8_t>& count, int v) {
    return {&table[static_cast<std::size_t>(v) * kMaxDegree], count[static_cast<std::size_t>(v)]};
  }
  void sort_layer(LatticeScratch& s, std::size_t begin, std::size_t end) const;

  LatticeKind kind_ = LatticeKind::Triangular;
  int width_ = 0, height_ = 0;
  std::vector<FaceCoord> face_coord_;
  std::vector<std::int32_t> face_vertices_;  // 4 per face (3 used for triangles)
  std::vector<std::int32_t> face_edges_;     // 4 per face
  std::vector<std::array<std::int32_t, 2>> edge_vertices_;
  std::vector<std::array<std::int32_t, 2>> edge_faces_;  // second -1 on the rim
  std::vector<std::int32_t> vertex_edges_;   // kMaxDegree per vertex
  std::vector<std::uint8_t> vertex_edge_count_;
  std::vector<std::int32_t> vertex_faces_;   // kMaxDegree per vertex
  std::vector<std::uint8_t> vertex_face_count_;
  std::vector<std::int32_t> vertex_edge_dir_;  // per vertex and direction: the edge, or -1 (for edge_between)
};

// ---- template definitions ----

template <class Pass, class Through>
std::span<const std::int32_t> Lattice::reachable(int from, int k, Pass&& pass, Through&& through, LatticeScratch& s) const {
  const std::uint32_t stamp = s.begin(vertices());
  s.queue.clear();
  s.queue.push_back(from);
  s.stamp[static_cast<std::size_t>(from)] = stamp;
  s.dist[static_cast<std::size_t>(from)] = 0;
  s.parent[static_cast<std::size_t>(from)] = -1;
  std::size_t begin = 0, end = 1;
  for (int d = 0; d < k && begin < end; ++d) {  // one layer at a time: layer d is queue[begin, end)
    for (std::size_t i = begin; i < end; ++i) {
      const int v = s.queue[i];
      if (d > 0 && !through(v)) continue;  // reached, but a move does not go on from here
      for (const std::int32_t e : vertex_edges(v)) {
        const int w = other_end(e, v);
        if (s.stamp[static_cast<std::size_t>(w)] == stamp || !pass(e)) continue;
        s.stamp[static_cast<std::size_t>(w)] = stamp;
        s.dist[static_cast<std::size_t>(w)] = d + 1;
        s.parent[static_cast<std::size_t>(w)] = v;
        s.queue.push_back(w);
      }
    }
    begin = end;
    end = s.queue.size();
    sort_layer(s, begin, end);  // layer d+1 in id order: the result order and the parents are deterministic
  }
  return {s.queue.data() + 1, s.queue.size() - 1};
}

template <class Pass, class Through>
bool Lattice::path(int from, int to, int k, Pass&& pass, Through&& through, LatticeScratch& s, std::vector<std::int32_t>& out) const {
  out.clear();
  if (from == to) {
    out.push_back(from);
    return true;
  }
  reachable(from, k, pass, through, s);
  if (s.stamp[static_cast<std::size_t>(to)] != s.current) return false;
  for (int v = to; v != -1; v = s.parent[static_cast<std::size_t>(v)]) out.push_back(v);
  for (std::size_t i = 0, j = out.size() - 1; i < j; ++i, --j) std::swap(out[i], out[j]);
  return true;
}

}  // namespace hr
