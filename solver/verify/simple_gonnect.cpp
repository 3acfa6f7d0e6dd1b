#include "simple_gonnect.h"

#include <algorithm>

namespace konobi_ref {

namespace {

char other(char c) { return c == 'B' ? 'W' : 'B'; }

std::vector<int> neighbours(int n, int p) {
  const int x = p % n, y = p / n;
  std::vector<int> out;
  if (x > 0) out.push_back(p - 1);
  if (x + 1 < n) out.push_back(p + 1);
  if (y > 0) out.push_back(p - n);
  if (y + 1 < n) out.push_back(p + n);
  return out;
}

// The chain through p: every point reachable over same-coloured neighbours.
std::vector<int> chain_of(int n, const std::vector<char>& b, int p) {
  std::vector<int> chain{p}, todo{p};
  std::vector<bool> seen(b.size(), false);
  seen[p] = true;
  while (!todo.empty()) {
    const int q = todo.back();
    todo.pop_back();
    for (int r : neighbours(n, q))
      if (!seen[r] && b[r] == b[p]) {
        seen[r] = true;
        chain.push_back(r);
        todo.push_back(r);
      }
  }
  return chain;
}

bool has_liberty(int n, const std::vector<char>& b, const std::vector<int>& chain) {
  for (int q : chain)
    for (int r : neighbours(n, q))
      if (b[r] == '.') return true;
  return false;
}

}  // namespace

RefGo ref_go_empty(int n, bool superko, bool own_edges) {
  RefGo g;
  g.n = n;
  g.cell.assign(n * n, '.');
  g.superko = superko;
  g.own_edges = own_edges;
  return g;
}

std::vector<char> ref_go_board_after(const RefGo& g, int p) {
  std::vector<char> b = g.cell;
  const char me = g.to_move, opp = other(me);
  b[p] = me;
  // Opponent chains without liberties go first; only then is the mover's
  // own chain judged (a capture can save it).
  for (int q : neighbours(g.n, p)) {
    if (b[q] != opp) continue;
    const std::vector<int> chain = chain_of(g.n, b, q);
    if (!has_liberty(g.n, b, chain))
      for (int r : chain) b[r] = '.';
  }
  if (!has_liberty(g.n, b, chain_of(g.n, b, p))) return {};
  return b;
}

std::vector<int> ref_go_legal(const RefGo& g) {
  std::vector<int> out;
  for (int p = 0; p < g.n * g.n; ++p) {
    if (g.cell[p] != '.') continue;
    const std::vector<char> after = ref_go_board_after(g, p);
    if (after.empty()) continue;
    if (g.superko) {
      if (std::find(g.earlier.begin(), g.earlier.end(), after) != g.earlier.end()) continue;
    } else if (!g.earlier.empty()) {
      // The board after the mover's previous move is the one before the
      // opponent's last move: the most recent earlier board.
      if (after == g.earlier.back()) continue;
    }
    out.push_back(p);
  }
  return out;
}

RefGo ref_go_play(const RefGo& g, int p) {
  RefGo next = g;
  next.earlier.push_back(g.cell);
  next.cell = ref_go_board_after(g, p);
  next.to_move = other(g.to_move);
  return next;
}

bool ref_go_has_winning_chain(const RefGo& g, char color) {
  const int n = g.n;
  for (int p = 0; p < n * n; ++p) {
    if (g.cell[p] != color) continue;
    bool top = false, bottom = false, left = false, right = false;
    for (int q : chain_of(n, g.cell, p)) {
      bottom |= q / n == 0;
      top |= q / n == n - 1;
      left |= q % n == 0;
      right |= q % n == n - 1;
    }
    const bool rows = top && bottom, cols = left && right;
    if (g.own_edges ? (color == 'B' ? rows : cols) : (rows || cols)) return true;
  }
  return false;
}

std::string ref_go_diagram(const RefGo& g) {
  std::string s;
  for (int row = g.n - 1; row >= 0; --row) {
    const std::string label = std::to_string(row + 1);
    s += std::string(4 - label.size(), ' ') + label;
    for (int col = 0; col < g.n; ++col) s += std::string(" ") + g.cell[row * g.n + col];
    s += "\n";
  }
  s += "    ";
  for (int col = 0; col < g.n; ++col) s += std::string(" ") + char('a' + col);
  return s + "\n  " + (g.to_move == 'B' ? "Black" : "White") + " to move, " +
         std::to_string(g.earlier.size()) + " earlier boards\n";
}

namespace {
void perft_rec(const RefGo& g, int depth, std::vector<uint64_t>& counts, int d) {
  for (int p : ref_go_legal(g)) {
    ++counts[d];
    if (d + 1 == depth) continue;
    const RefGo next = ref_go_play(g, p);
    if (ref_go_has_winning_chain(next, g.to_move)) continue;
    perft_rec(next, depth, counts, d + 1);
  }
}
}  // namespace

std::vector<uint64_t> ref_go_perft(const RefGo& g, int depth) {
  std::vector<uint64_t> counts(depth, 0);
  if (depth > 0) perft_rec(g, depth, counts, 0);
  return counts;
}

}  // namespace konobi_ref
