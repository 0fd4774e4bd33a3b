// lattice.cpp — the tables of the triangular and square lattices, text forms, rotations.
#include "lattice.hpp"

#include <algorithm>
#include <cmath>

namespace hr {

namespace {

/// What distinguishes one lattice kind from another: everything else is shared code.
struct KindTables {
  int rotations;                  // = number of directions around a vertex
  std::array<Coord, 6> dirs;      // neighbour directions, counter-clockwise from east
  int forward;                    // the first `forward` directions lead to a higher vertex id (edge numbering)
  int types;                      // face types per cell
  int face_size;                  // corners per face
  std::array<std::array<Coord, 4>, 2> corners;  // per type: corner offsets from the cell, counter-clockwise
  const char* type_suffix;        // text suffix per type ("ud"), empty for one type
};

constexpr KindTables kTriangular{6, {{{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}}}, 3, 2, 3,
                                 {{{{{0, 0}, {1, 0}, {0, 1}, {0, 0}}}, {{{1, 0}, {1, 1}, {0, 1}, {0, 0}}}}}, "ud"};
constexpr KindTables kSquare{4, {{{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {0, 0}, {0, 0}}}, 2, 1, 4,
                             {{{{{0, 0}, {1, 0}, {1, 1}, {0, 1}}}, {}}}, ""};

const KindTables& tables(LatticeKind kind) { return kind == LatticeKind::Triangular ? kTriangular : kSquare; }

bool coord_less(Coord a, Coord b) { return a.r != b.r ? a.r < b.r : a.q < b.q; }

/// Reads an optionally signed integer at text[i...], skipping blanks; advances i.
bool read_int(std::string_view text, std::size_t& i, int& out) {
  while (i < text.size() && text[i] == ' ') ++i;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  const std::size_t start = i;
  long value = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9' && i - start < 6) value = value * 10 + (text[i++] - '0');
  if (i == start || (i < text.size() && text[i] >= '0' && text[i] <= '9')) return false;
  out = static_cast<int>(negative ? -value : value);
  while (i < text.size() && text[i] == ' ') ++i;
  return true;
}

bool read_coord(std::string_view text, std::size_t& i, Coord& out) {
  if (!read_int(text, i, out.q)) return false;
  if (i >= text.size() || text[i] != ',') return false;
  ++i;
  return read_int(text, i, out.r);
}

}  // namespace

std::string_view to_string(LatticeKind kind) { return kind == LatticeKind::Triangular ? "triangular" : "square"; }

LatticeKind lattice_kind_from_string(std::string_view text) {
  if (text == "triangular") return LatticeKind::Triangular;
  if (text == "square") return LatticeKind::Square;
  throw std::invalid_argument("unknown board kind '" + std::string(text) + "' (expected triangular or square)");
}

std::optional<FaceCoord> parse_local_face(std::string_view text) {
  const bool typed = !text.empty() && (text.back() == 'u' || text.back() == 'd');
  const auto c = Lattice::parse_coord(typed ? text.substr(0, text.size() - 1) : text);
  if (!c) return std::nullopt;
  return FaceCoord{c->q, c->r, typed ? (text.back() == 'u' ? 0 : 1) : -1};
}

std::optional<EdgeCoord> parse_local_edge(std::string_view text) {
  std::size_t i = 0;
  Coord a, b;
  if (!read_coord(text, i, a) || i >= text.size() || text[i] != '-') return std::nullopt;
  ++i;
  if (!read_coord(text, i, b) || i != text.size()) return std::nullopt;
  return make_edge(a, b);
}

EdgeCoord make_edge(Coord a, Coord b) { return coord_less(b, a) ? EdgeCoord{b, a} : EdgeCoord{a, b}; }

std::uint32_t LatticeScratch::begin(int vertices) {
  const auto n = static_cast<std::size_t>(vertices);
  if (stamp.size() < n) {
    stamp.assign(n, 0);
    dist.assign(n, 0);
    parent.assign(n, -1);
    queue.reserve(n);
    current = 0;
  }
  if (++current == 0) {  // the stamp wrapped: clear the marks once
    std::fill(stamp.begin(), stamp.end(), 0);
    current = 1;
  }
  return current;
}

int Lattice::rotations() const { return tables(kind_).rotations; }
int Lattice::face_types() const { return tables(kind_).types; }
int Lattice::face_size() const { return tables(kind_).face_size; }

Lattice::Size Lattice::size_of(LatticeKind kind, int width, int height) {
  const KindTables& k = tables(kind);
  const std::int64_t w = width, h = height;
  Size s;
  s.vertices = (w + 1) * (h + 1);
  s.faces = w * h * k.types;
  // the forward directions: east and north (one edge per pair of neighbours), and north-west on a triangular board
  s.edges = w * (h + 1) + (w + 1) * h + (k.forward == 3 ? w * h : 0);
  // face_coord_, face_vertices_ and face_edges_ (4 each); edge_vertices_, edge_faces_; per vertex, kMaxDegree
  // edges, faces and edge directions, and two counts
  s.bytes = s.faces * static_cast<std::int64_t>(sizeof(FaceCoord) + 8 * sizeof(std::int32_t)) +
            s.edges * static_cast<std::int64_t>(4 * sizeof(std::int32_t)) +
            s.vertices * static_cast<std::int64_t>(3 * kMaxDegree * sizeof(std::int32_t) + 2);
  return s;
}

Lattice::Lattice(LatticeKind kind, int width, int height) : kind_(kind), width_(width), height_(height) {
  if (width < 1 || width > 255 || height < 1 || height > 255)
    throw LatticeError("a board is 1 to 255 cells wide and high, not " + std::to_string(width) + "x" + std::to_string(height));
  const KindTables& k = tables(kind);
  const int nv = vertices();
  // faces, row by row (r, then q, then type)
  for (int r = 0; r < height; ++r)
    for (int q = 0; q < width; ++q)
      for (int t = 0; t < k.types; ++t) face_coord_.push_back({q, r, t});
  // edges: from each vertex in id order, the forward directions in order
  vertex_edge_dir_.assign(static_cast<std::size_t>(nv) * kMaxDegree, -1);
  for (int v = 0; v < nv; ++v)
    for (int d = 0; d < k.forward; ++d) {
      const int w = vertex_at(vertex_coord(v) + k.dirs[static_cast<std::size_t>(d)]);
      if (w < 0) continue;
      const auto e = static_cast<std::int32_t>(edge_vertices_.size());
      edge_vertices_.push_back({v, w});
      vertex_edge_dir_[static_cast<std::size_t>(v) * kMaxDegree + static_cast<std::size_t>(d)] = e;
      vertex_edge_dir_[static_cast<std::size_t>(w) * kMaxDegree + static_cast<std::size_t>(d + k.rotations / 2)] = e;
    }
  // face -> vertices, edges; edge -> faces
  edge_faces_.assign(edge_vertices_.size(), {-1, -1});
  face_vertices_.assign(face_coord_.size() * 4, -1);
  face_edges_.assign(face_coord_.size() * 4, -1);
  for (int f = 0; f < faces(); ++f) {
    const auto c = corners(face_coord(f));
    for (int i = 0; i < k.face_size; ++i) face_vertices_[stride(f) + static_cast<std::size_t>(i)] = vertex_at(c[static_cast<std::size_t>(i)]);
    for (int i = 0; i < k.face_size; ++i) {
      const int e = edge_between(face_vertices_[stride(f) + static_cast<std::size_t>(i)],
                                 face_vertices_[stride(f) + static_cast<std::size_t>((i + 1) % k.face_size)]);
      face_edges_[stride(f) + static_cast<std::size_t>(i)] = e;
      auto& ef = edge_faces_[static_cast<std::size_t>(e)];
      (ef[0] < 0 ? ef[0] : ef[1]) = f;  // faces are visited in id order
    }
  }
  // vertex -> edges and faces, counter-clockwise from east
  vertex_edges_.assign(static_cast<std::size_t>(nv) * kMaxDegree, -1);
  vertex_faces_.assign(static_cast<std::size_t>(nv) * kMaxDegree, -1);
  vertex_edge_count_.assign(static_cast<std::size_t>(nv), 0);
  vertex_face_count_.assign(static_cast<std::size_t>(nv), 0);
  for (int v = 0; v < nv; ++v) {
    const Coord at = vertex_coord(v);
    const auto base = static_cast<std::size_t>(v) * kMaxDegree;
    for (int d = 0; d < k.rotations; ++d) {
      if (const int e = vertex_edge_dir_[base + static_cast<std::size_t>(d)]; e >= 0)
        vertex_edges_[base + vertex_edge_count_[static_cast<std::size_t>(v)]++] = e;
      // the face between direction d and d+1
      const Coord d1 = k.dirs[static_cast<std::size_t>(d)], d2 = k.dirs[static_cast<std::size_t>((d + 1) % k.rotations)];
      std::array<Coord, 4> cs{at, at + d1, at + d2, at + d1 + d2};
      if (k.face_size == 3) cs[2] = at + d2;
      const auto face = face_with_corners(std::span<const Coord>(cs.data(), static_cast<std::size_t>(k.face_size)));
      if (face)
        if (const int f = face_at(*face); f >= 0) vertex_faces_[base + vertex_face_count_[static_cast<std::size_t>(v)]++] = f;
    }
  }
}

int Lattice::vertex_at(Coord c) const {
  if (c.q < 0 || c.r < 0 || c.q > width_ || c.r > height_) return -1;
  return c.r * (width_ + 1) + c.q;
}

int Lattice::face_at(FaceCoord f) const {
  const int types = face_types();
  if (f.q < 0 || f.r < 0 || f.q >= width_ || f.r >= height_ || f.t < 0 || f.t >= types) return -1;
  return (f.r * width_ + f.q) * types + f.t;
}

int Lattice::edge_between(int v1, int v2) const {
  if (v1 < 0 || v2 < 0 || v1 >= vertices() || v2 >= vertices()) return -1;
  const Coord delta = vertex_coord(v2) - vertex_coord(v1);
  const KindTables& k = tables(kind_);
  for (int d = 0; d < k.rotations; ++d)
    if (k.dirs[static_cast<std::size_t>(d)] == delta)
      return vertex_edge_dir_[static_cast<std::size_t>(v1) * kMaxDegree + static_cast<std::size_t>(d)];
  return -1;
}

int Lattice::edge_at(EdgeCoord e) const { return edge_between(vertex_at(e.a), vertex_at(e.b)); }

std::pair<double, double> Lattice::vertex_xy(int v) const {
  const Coord c = vertex_coord(v);
  if (kind_ == LatticeKind::Square) return {c.q, c.r};
  return {c.q + c.r / 2.0, c.r * std::sqrt(3.0) / 2.0};
}

bool Lattice::adjacent_faces(int a, int b) const {
  if (a == b) return false;
  for (const std::int32_t e : face_edges(a))
    if (neighbour(a, e) == b) return true;
  return false;
}

bool Lattice::adjacent_edges(int a, int b) const {
  if (a == b) return false;
  const auto& x = edge_vertices(a);
  const auto& y = edge_vertices(b);
  return x[0] == y[0] || x[0] == y[1] || x[1] == y[0] || x[1] == y[1];
}

int Lattice::neighbour(int f, int e) const {
  const auto& ef = edge_faces_[static_cast<std::size_t>(e)];
  if (ef[0] == f) return ef[1];
  if (ef[1] == f) return ef[0];
  return -1;
}

Coord Lattice::rotate(Coord c, int rotation) const {
  const int n = rotations();
  rotation = ((rotation % n) + n) % n;
  for (int i = 0; i < rotation; ++i)
    c = kind_ == LatticeKind::Triangular ? Coord{-c.r, c.q + c.r} : Coord{-c.r, c.q};
  return c;
}

std::array<Coord, 4> Lattice::corners(FaceCoord f) const {
  const KindTables& k = tables(kind_);
  std::array<Coord, 4> out{};
  const auto& offsets = k.corners[static_cast<std::size_t>(f.t)];
  for (int i = 0; i < k.face_size; ++i) out[static_cast<std::size_t>(i)] = Coord{f.q, f.r} + offsets[static_cast<std::size_t>(i)];
  return out;
}

std::optional<FaceCoord> Lattice::face_with_corners(std::span<const Coord> cs) const {
  const KindTables& k = tables(kind_);
  if (static_cast<int>(cs.size()) != k.face_size) return std::nullopt;
  Coord low = cs[0];
  for (const Coord c : cs) low = {std::min(low.q, c.q), std::min(low.r, c.r)};
  for (int t = 0; t < k.types; ++t) {
    const auto mine = corners({low.q, low.r, t});
    bool all = true;
    for (int i = 0; i < k.face_size && all; ++i)
      all = std::find(cs.begin(), cs.end(), mine[static_cast<std::size_t>(i)]) != cs.end();
    if (all) return FaceCoord{low.q, low.r, t};
  }
  return std::nullopt;
}

FaceCoord Lattice::rotate(FaceCoord f, int rotation) const {
  auto cs = corners(f);
  for (int i = 0; i < face_size(); ++i) cs[static_cast<std::size_t>(i)] = rotate(cs[static_cast<std::size_t>(i)], rotation);
  return *face_with_corners(std::span<const Coord>(cs.data(), static_cast<std::size_t>(face_size())));
}

std::string Lattice::coord_text(Coord c) { return std::to_string(c.q) + "," + std::to_string(c.r); }

std::string Lattice::face_text(FaceCoord f) const {
  std::string out = coord_text({f.q, f.r});
  if (face_types() > 1) out += tables(kind_).type_suffix[f.t];
  return out;
}

std::string Lattice::edge_text(EdgeCoord e) { return coord_text(e.a) + "-" + coord_text(e.b); }

std::optional<Coord> Lattice::parse_coord(std::string_view text) {
  std::size_t i = 0;
  Coord c;
  if (!read_coord(text, i, c) || i != text.size()) return std::nullopt;
  return c;
}

std::optional<FaceCoord> Lattice::parse_face(std::string_view text) const {
  std::size_t i = 0;
  Coord c;
  if (!read_coord(text, i, c)) return std::nullopt;
  int t = 0;
  if (face_types() > 1) {
    if (i >= text.size()) return std::nullopt;
    const char* suffix = tables(kind_).type_suffix;
    const char* hit = std::char_traits<char>::find(suffix, static_cast<std::size_t>(face_types()), text[i]);
    if (!hit) return std::nullopt;
    t = static_cast<int>(hit - suffix);
    ++i;
    while (i < text.size() && text[i] == ' ') ++i;
  }
  if (i != text.size()) return std::nullopt;
  return FaceCoord{c.q, c.r, t};
}

std::optional<EdgeCoord> Lattice::parse_edge(std::string_view text) const {
  std::size_t i = 0;
  Coord a, b;
  if (!read_coord(text, i, a) || i >= text.size() || text[i] != '-') return std::nullopt;
  ++i;
  if (!read_coord(text, i, b) || i != text.size()) return std::nullopt;
  const Coord delta = b - a;
  const KindTables& k = tables(kind_);
  for (int d = 0; d < k.rotations; ++d)
    if (k.dirs[static_cast<std::size_t>(d)] == delta) return make_edge(a, b);
  return std::nullopt;
}

int Lattice::vertex(std::string_view text) const {
  const auto c = parse_coord(text);
  if (!c) throw LatticeError("'" + std::string(text) + "' is not a vertex (write q,r, e.g. 4,7)");
  return vertex_at(*c);
}

int Lattice::face(std::string_view text) const {
  const auto f = parse_face(text);
  if (!f)
    throw LatticeError("'" + std::string(text) + "' is not a face of a " + std::string(to_string(kind_)) + " board (write " +
                       (face_types() > 1 ? "q,ru or q,rd, e.g. 4,7u" : "q,r, e.g. 4,7") + ")");
  return face_at(*f);
}

int Lattice::edge(std::string_view text) const {
  const auto e = parse_edge(text);
  if (!e)
    throw LatticeError("'" + std::string(text) + "' is not an edge (write two vertices one step apart, e.g. 4,7-5,7)");
  return edge_at(*e);
}

void Lattice::sort_layer(LatticeScratch& s, std::size_t begin, std::size_t end) const {
  std::sort(s.queue.begin() + static_cast<std::ptrdiff_t>(begin), s.queue.begin() + static_cast<std::ptrdiff_t>(end));
}

}  // namespace hr
