// Proofs anyone can check: for every position of the winner's strategy, the
// winner's move, with every reply of the loser covered. Built from the
// solved table (re-solving any child whose entry was overwritten), choosing
// immediate wins first and otherwise the winning child that cost the least
// to prove, so proofs stay small. The text format is in docs/PROOFS.md and
// is read by `konobi verify-proof`, which shares no code with this file.
#pragma once

#include <string>
#include <vector>

#include "core/game.h"
#include "dfpn.h"
#include "key_set.h"

namespace konobi {

struct Proof {
  int size = 0;
  std::string start;  // position string of the proven position
  std::string winner;  // "black" or "white"
  std::vector<std::pair<std::string, std::string>> entries;  // position string, winner's move

  std::string to_text() const {
    std::string s = "konobi-proof 1\nsize " + std::to_string(size) + "\nstart " + start + "\nwinner " + winner +
                    "\nentries " + std::to_string(entries.size()) + "\n";
    for (const auto& [pos, move] : entries) s += pos + " " + move + "\n";
    return s + "end\n";
  }
};

template <int W>
class ProofBuilder {
 public:
  ProofBuilder(TranspositionTable& tt, const DfpnOptions& opt) : tt_(tt), opt_(opt) { opt_.parallel = false; }

  // pos must be a proven position; `winner` is the colour that wins it.
  Proof build(const Position<W>& pos, Color winner) {
    Proof proof;
    proof.size = pos.size();
    proof.start = format_position(to_text(pos));
    proof.winner = winner == Black ? "black" : "white";
    entries_ = &proof.entries;
    if (pos.to_move == winner) winner_node(pos);
    else loser_node(pos);
    return proof;
  }

 private:
  uint64_t key(const Position<W>& p) const { return opt_.symmetry ? p.canonical_key() : p.key(); }

  void record(const Position<W>& pos, Move m) {
    entries_->emplace_back(format_position(to_text(pos)), move_name(pos.size(), m));
  }

  void winner_node(const Position<W>& pos) {
    if (!seen_.insert_growing(pos.key())) return;
    const NodeMoves<W> nm = node_moves(pos);
    // An immediate win needs no entry: the checker finds it by itself.
    if (nm.kind == NodeKind::WinNow) return;
    if (nm.kind == NodeKind::PassOnly) {
      record(pos, kPass);
      Position<W> q = pos;
      q.pass();
      return loser_node(q);
    }
    Move best = -1;
    uint32_t best_work = ~0u;
    // From the table first, keys computed without building the children and
    // every bucket fetched before the first is read.
    Move moves[64];
    uint64_t keys[64];
    int count = 0;
    nm.moves.for_each([&](int m) {
      moves[count] = Move(m);
      keys[count] = opt_.symmetry ? pos.canonical_key_after(m) : pos.key_after(m);
      tt_.prefetch(keys[count++]);
    });
    for (int i = 0; i < count; ++i) {
      const auto f = tt_.probe(keys[i]);
      if (f.hit && f.dn == 0 && f.work < best_work) best = moves[i], best_work = f.work;
    }
    // The table lost every winning child: prove them again until one wins.
    for (int i = 0; i < count && best < 0; ++i) {
      Position<W> q = pos;
      q.place(moves[i]);
      auto f = tt_.probe(keys[i]);
      if (!(f.hit && (f.pn == 0 || f.dn == 0))) {
        Dfpn<W> search(tt_, opt_);
        if (!search.solve(q)) f.dn = 0, f.hit = true;
      }
      if (f.hit && f.dn == 0) best = moves[i];
    }
    if (best < 0) throw std::logic_error("proof extraction found no winning move in a position proven won");
    record(pos, best);
    Position<W> q = pos;
    q.place(best);
    loser_node(q);
  }

  void loser_node(const Position<W>& pos) {
    if (!seen_.insert_growing(pos.key())) return;
    const Bitboard<W> legal = konobi_legal_placements(pos);
    if (legal.none()) {
      Position<W> q = pos;
      q.pass();
      return winner_node(q);
    }
    legal.for_each([&](int m) {
      Position<W> q = pos;
      q.place(m);
      winner_node(q);
    });
  }

  TranspositionTable& tt_;
  DfpnOptions opt_;
  KeySet seen_;
  std::vector<std::pair<std::string, std::string>>* entries_ = nullptr;
};

}  // namespace konobi
