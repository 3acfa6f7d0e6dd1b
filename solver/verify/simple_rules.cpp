// See reference_rules.h. Everything here is written for clarity, not speed.
#include "simple_rules.h"

#include <cstdlib>
#include <deque>
#include <stdexcept>

namespace konobi_ref {

namespace {

bool on_board(const RefBoard& b, int col, int row) { return col >= 0 && row >= 0 && col < b.n && row < b.n; }
int col_of(const RefBoard& b, int p) { return p % b.n; }
int row_of(const RefBoard& b, int p) { return p / b.n; }
int point(const RefBoard& b, int col, int row) { return row * b.n + col; }

const int kOrth[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
const int kDiag[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// Whether a `color` stone at empty x would be weakly connected to at least
// one `color` stone on the board as given.
bool has_any_weak_connection(const RefBoard& b, int x, char color) {
  const int cx = col_of(b, x), rx = row_of(b, x);
  for (const auto& d : kDiag) {
    const int c = cx + d[0], r = rx + d[1];
    if (!on_board(b, c, r)) continue;
    const int t = point(b, c, r);
    if (b.cell[t] == color && ref_weakly_connected(b, x, t, color)) return true;
  }
  return false;
}

void perft_rec(RefBoard& b, int depth, int level, std::vector<uint64_t>& counts) {
  const std::vector<int> moves = ref_legal(b);
  const char mover = b.to_move;
  if (moves.empty()) {
    counts[level] += 1;  // the forced pass
    if (level + 1 < depth) {
      b.to_move = ref_other(mover);
      perft_rec(b, depth, level + 1, counts);
      b.to_move = mover;
    }
    return;
  }
  counts[level] += moves.size();
  if (level + 1 == depth) return;
  for (int p : moves) {
    b.cell[p] = mover;
    if (!ref_has_winning_chain(b, mover)) {
      b.to_move = ref_other(mover);
      perft_rec(b, depth, level + 1, counts);
      b.to_move = mover;
    }
    b.cell[p] = '.';
  }
}

}  // namespace

char ref_other(char color) { return color == 'B' ? 'W' : 'B'; }

RefBoard ref_empty(int n) {
  RefBoard b;
  b.n = n;
  b.cell.assign(n * n, '.');
  b.to_move = 'B';
  return b;
}

RefBoard ref_from_string(const std::string& text) {
  std::vector<std::string> rows(1);
  size_t i = 0;
  for (; i < text.size() && text[i] != ' '; ++i) {
    const char ch = text[i];
    if (ch == '/') rows.emplace_back();
    else if (ch == '.' || ch == 'B' || ch == 'W') rows.back().push_back(ch);
    else throw std::invalid_argument("bad board character in: " + text);
  }
  while (i < text.size() && text[i] == ' ') ++i;
  const std::string side = text.substr(i);
  RefBoard b = ref_empty(int(rows.size()));
  for (int r = 0; r < b.n; ++r) {
    if (int(rows[r].size()) != b.n) throw std::invalid_argument("ragged board: " + text);
    for (int c = 0; c < b.n; ++c) b.cell[point(b, c, b.n - 1 - r)] = rows[r][c];  // first row is the top
  }
  if (side == "b") b.to_move = 'B';
  else if (side == "w") b.to_move = 'W';
  else throw std::invalid_argument("bad side to move in: " + text);
  return b;
}

std::string ref_to_string(const RefBoard& b) {
  std::string s;
  for (int r = b.n - 1; r >= 0; --r) {
    for (int c = 0; c < b.n; ++c) s += b.cell[point(b, c, r)];
    if (r > 0) s += '/';
  }
  s += b.to_move == 'B' ? " b" : " w";
  return s;
}

std::string ref_point_name(int n, int p) {
  std::string s(1, char('a' + p % n));
  return s += std::to_string(p / n + 1);
}

int ref_parse_point(int n, const std::string& name) {
  const int col = name.at(0) - 'a';
  const int row = std::stoi(name.substr(1)) - 1;
  if (col < 0 || col >= n || row < 0 || row >= n) throw std::invalid_argument("bad point " + name);
  return row * n + col;
}

bool ref_weakly_connected(const RefBoard& b, int a, int c, char color) {
  const int ca = col_of(b, a), ra = row_of(b, a);
  const int cc = col_of(b, c), rc = row_of(b, c);
  if (!(std::abs(ca - cc) == 1 && std::abs(ra - rc) == 1)) return false;  // not diagonal neighbours
  // The two points orthogonally adjacent to both a and c.
  const int common1 = point(b, ca, rc);
  const int common2 = point(b, cc, ra);
  return b.cell[common1] != color && b.cell[common2] != color;
}

bool ref_is_crosscut(const RefBoard& b, int p, char color) {
  const char opp = ref_other(color);
  const int cp = col_of(b, p), rp = row_of(b, p);
  // Every 2x2 block containing p, named by its bottom-left corner.
  for (int c0 = cp - 1; c0 <= cp; ++c0)
    for (int r0 = rp - 1; r0 <= rp; ++r0) {
      if (!on_board(b, c0, r0) || !on_board(b, c0 + 1, r0 + 1)) continue;
      auto at = [&](int c, int r) { return point(b, c, r) == p ? color : b.cell[point(b, c, r)]; };
      const char bl = at(c0, r0), br = at(c0 + 1, r0), tl = at(c0, r0 + 1), tr = at(c0 + 1, r0 + 1);
      const bool main_c_anti_o = bl == color && tr == color && br == opp && tl == opp;
      const bool main_o_anti_c = bl == opp && tr == opp && br == color && tl == color;
      if (main_c_anti_o || main_o_anti_c) return true;
    }
  return false;
}

bool ref_weak_rule_forbids(const RefBoard& b, int p, char color) {
  const int cp = col_of(b, p), rp = row_of(b, p);
  for (const auto& d : kDiag) {
    const int cs = cp + d[0], rs = rp + d[1];
    if (!on_board(b, cs, rs)) continue;
    const int s = point(b, cs, rs);
    if (b.cell[s] != color) continue;
    if (!ref_weakly_connected(b, p, s, color)) continue;
    // p would be weakly connected to s. Is there a free strong connection to s?
    for (const auto& o : kOrth) {
      const int cx = cs + o[0], rx = rs + o[1];
      if (!on_board(b, cx, rx)) continue;
      const int x = point(b, cx, rx);
      if (b.cell[x] != '.') continue;
      if (!has_any_weak_connection(b, x, color)) return true;  // board without p
    }
  }
  return false;
}

bool ref_is_legal(const RefBoard& b, int p) {
  if (p < 0 || p >= b.n * b.n) return false;
  if (b.cell[p] != '.') return false;
  if (ref_is_crosscut(b, p, b.to_move)) return false;
  if (ref_weak_rule_forbids(b, p, b.to_move)) return false;
  return true;
}

std::vector<int> ref_legal(const RefBoard& b) {
  std::vector<int> out;
  for (int p = 0; p < b.n * b.n; ++p)
    if (ref_is_legal(b, p)) out.push_back(p);
  return out;
}

bool ref_has_winning_chain(const RefBoard& b, char color) {
  std::vector<char> seen(b.n * b.n, 0);
  std::deque<int> queue;
  // Start from the colour's first edge: row 0 for Black, column 0 for White.
  for (int i = 0; i < b.n; ++i) {
    const int p = color == 'B' ? point(b, i, 0) : point(b, 0, i);
    if (b.cell[p] == color) seen[p] = 1, queue.push_back(p);
  }
  while (!queue.empty()) {
    const int p = queue.front();
    queue.pop_front();
    const int c = col_of(b, p), r = row_of(b, p);
    if (color == 'B' ? r == b.n - 1 : c == b.n - 1) return true;
    for (int dc = -1; dc <= 1; ++dc)
      for (int dr = -1; dr <= 1; ++dr) {
        if ((dc == 0 && dr == 0) || !on_board(b, c + dc, r + dr)) continue;
        const int q = point(b, c + dc, r + dr);
        if (b.cell[q] == color && !seen[q]) seen[q] = 1, queue.push_back(q);
      }
  }
  return false;
}

std::vector<uint64_t> ref_perft(RefBoard b, int depth) {
  std::vector<uint64_t> counts(depth > 0 ? depth : 0, 0);
  if (depth > 0) perft_rec(b, depth, 0, counts);
  return counts;
}

}  // namespace konobi_ref
