// A retrograde analysis that the solver's tests compare the search with:
// the exact value of every reachable position of a small board, computed
// by full-width negamax over the rules with nothing from the solver.
#pragma once

#include <cstdint>
#include <vector>

#include "core/konobi.h"
#include "solver_support.h"

namespace solver_test {

// The exact value of every position reachable from `roots` (by default the
// empty n x n board) by placements and forced passes, no swap: full-width
// negamax over the rules with a memo of two bits per (board, side to move).
// Every legal placement is followed; nothing from the solver is used.
class Retrograde {
 public:
  explicit Retrograde(int n, const std::vector<Pos>& roots = {}) : g_(konobi::Geometry<1>::get(n)) {
    uint64_t boards = 1;
    for (int p = 0; p < n * n; ++p) pow3_.push_back(boards), boards *= 3;
    bits_.assign(size_t(boards * 2 / 32 + 1), 0);
    by_stones_.resize(size_t(n * n + 1) * 2);
    if (roots.empty()) solve(Pos::empty(g_));
    for (const Pos& root : roots) solve(root);
  }

  // Positions with s stones and `side` to move, by index.
  const std::vector<uint64_t>& group(int s, int side) const { return by_stones_[size_t(s * 2 + side)]; }
  int groups() const { return int(by_stones_.size()); }
  uint64_t positions() const { return count_; }
  int draws() const { return draws_; }

  bool wins(uint64_t i) const { return get(i) == 2; }
  Pos position(uint64_t i) const {
    Pos pos = Pos::empty(g_);
    pos.to_move = konobi::Color(i & 1);
    uint64_t board = i >> 1;
    for (int p = 0; p < g_.cells; ++p, board /= 3)
      if (board % 3) pos.toggle_stone(konobi::Color(board % 3 - 1), p);
    return pos;
  }

 private:
  uint64_t index(const Pos& pos) const {
    uint64_t board = 0;
    pos.stones[konobi::Black].for_each([&](int p) { board += pow3_[size_t(p)]; });
    pos.stones[konobi::White].for_each([&](int p) { board += 2 * pow3_[size_t(p)]; });
    return board * 2 + uint64_t(pos.to_move);
  }
  int get(uint64_t i) const { return int(bits_[i / 32] >> (i % 32 * 2)) & 3; }
  void set(uint64_t i, int v) { bits_[i / 32] |= uint64_t(v) << (i % 32 * 2); }

  bool solve(const Pos& pos) {
    const uint64_t i = index(pos);
    if (const int v = get(i)) return v == 2;
    bool win = false;
    const konobi::Bitboard<1> legal = konobi::konobi_legal_placements(pos);
    if (legal.none()) {
      if (konobi::konobi_legality(pos, konobi::other(pos.to_move)).legal.none())
        ++draws_;  // scored as a loss
      else {
        Pos q = pos;
        q.pass();
        win = !solve(q);
      }
    }
    legal.for_each([&](int m) {
      if (konobi::konobi_wins_by(pos, m)) {
        win = true;
        return;
      }
      Pos q = pos;
      q.place(m);
      q.swap_available = false;
      if (!solve(q)) win = true;
    });
    set(i, win ? 2 : 1);
    by_stones_[size_t(pos.stone_count() * 2 + int(pos.to_move))].push_back(i);
    ++count_;
    return win;
  }

  const konobi::Geometry<1>& g_;
  std::vector<uint64_t> pow3_, bits_;
  std::vector<std::vector<uint64_t>> by_stones_;
  uint64_t count_ = 0;
  int draws_ = 0;
};

}  // namespace solver_test
