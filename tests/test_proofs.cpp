// Proofs: those df-pn's table gives pass the independent checker, tampered
// ones do not, and they are built even from a table that lost the solve.
#include <catch2/catch.hpp>

#include <fstream>

#include "solver/search/table_seed.h"
#include "solver_support.h"
#include "temp_dir.h"

using Catch::Contains;
using namespace solver_test;

namespace {

std::string build_proof(const Pos& pos, bool* mover_wins = nullptr, size_t* entries = nullptr) {
  konobi::TranspositionTable tt(16);
  konobi::DfpnOptions opt;
  const std::optional<bool> solved = dfpn_wins(pos, tt, opt, 1);
  REQUIRE(solved.has_value());
  const bool wins = *solved;
  const konobi::Color winner = wins ? pos.to_move : konobi::other(pos.to_move);
  const konobi::Proof proof = konobi::ProofBuilder<1>(tt, opt).build(pos, winner);
  if (mover_wins) *mover_wins = wins;
  if (entries) *entries = proof.entries.size();
  return proof.to_text();
}

// The same proof in both Konobi formats, from one solved table.
struct BothFormats {
  std::string positions, moves;  // format 1, format 2
};
BothFormats build_both(const Pos& pos) {
  konobi::TranspositionTable tt(16);
  konobi::DfpnOptions opt;
  const std::optional<bool> solved = dfpn_wins(pos, tt, opt, 1);
  REQUIRE(solved.has_value());
  const konobi::Color winner = *solved ? pos.to_move : konobi::other(pos.to_move);
  // A first build proves again the few children the table did not keep
  // (and keeps them): the two builds after it read the same table.
  konobi::ProofBuilder<1>(tt, opt).build(pos, winner);
  konobi::ProofBuilder<1> one(tt, opt), two(tt, opt);
  BothFormats out;
  const konobi::Proof p1 = one.build(pos, winner),
                      p2 = two.build(pos, winner, konobi::KonobiProofFormat::Moves);
  // Format 2 holds its entries packed, one entry per format-1 line.
  CHECK(p2.entries.empty());
  CHECK(p2.entry_count() == p1.entries.size());
  out.positions = p1.to_text();
  out.moves = p2.to_text();
  REQUIRE(one.searched() == 0);
  REQUIRE(two.searched() == 0);
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) v.push_back(line);
  return v;
}

std::string text_of(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

// Header lines before the entries: konobi-proof, size, start, winner, entries.
constexpr size_t kHeaderLines = 5;

// A placement for the side to move in `pos` that alpha-beta says loses, or -1.
int losing_move(const Pos& pos) {
  int found = -1;
  konobi::konobi_legal_placements(pos).for_each([&](int m) {
    if (found >= 0 || konobi::konobi_wins_by(pos, m)) return;
    Pos q = pos;
    q.place(m);
    if (konobi::AlphaBeta<1>(14).wins(q)) found = m;
  });
  return found;
}

// Replaces the move of entry line `i` (after the last space) by `move`.
std::string with_move(std::vector<std::string> lines, size_t i, const std::string& move) {
  const size_t cut = lines[i].rfind(' ');
  lines[i] = lines[i].substr(0, cut + 1) + move;
  return text_of(lines);
}

void check_tampering_rejected(const std::string& text, int n) {
  const auto lines = lines_of(text);
  REQUIRE(lines.size() > kHeaderLines + 1);
  REQUIRE(lines[0] == "konobi-proof 1");
  REQUIRE(lines[3].rfind("winner ", 0) == 0);
  REQUIRE(lines.back() == "end");
  const size_t entries = lines.size() - kHeaderLines - 1;
  REQUIRE(lines[4] == "entries " + std::to_string(entries));

  SECTION("a winning move replaced by a losing one") {
    // Find an entry whose position has a losing legal move for the winner.
    bool done = false;
    for (size_t i = kHeaderLines; i < lines.size() - 1 && !done; ++i) {
      const std::string& line = lines[i];
      const Pos pos = konobi::from_text<1>(konobi::parse_position(line.substr(0, line.rfind(' '))));
      const int m = losing_move(pos);
      if (m < 0) continue;
      const auto c = konobi::check_proof(with_move(lines, i, konobi::point_name(n, m)));
      INFO("entry " << line << " -> " << konobi::point_name(n, m));
      CHECK_FALSE(c.ok);
      CHECK(!c.message.empty());
      done = true;
    }
    CHECK(done);
  }
  SECTION("a winning move replaced by an occupied point") {
    for (size_t i = kHeaderLines; i < lines.size() - 1; ++i) {
      const std::string& line = lines[i];
      const Pos pos = konobi::from_text<1>(konobi::parse_position(line.substr(0, line.rfind(' '))));
      if (pos.stone_count() == 0) continue;
      const int occupied = pos.occupied().first();
      const auto c = konobi::check_proof(with_move(lines, i, konobi::point_name(n, occupied)));
      CHECK_FALSE(c.ok);
      CHECK_THAT(c.message, Contains("illegal"));
      break;
    }
  }
  SECTION("a move that is not a point") {
    const auto c = konobi::check_proof(with_move(lines, kHeaderLines, "z99"));
    CHECK_FALSE(c.ok);
  }
  SECTION("a missing entry, with the count fixed") {
    for (size_t drop : {kHeaderLines, kHeaderLines + entries / 2, lines.size() - 2}) {
      auto v = lines;
      v.erase(v.begin() + long(drop));
      v[4] = "entries " + std::to_string(entries - 1);
      const auto c = konobi::check_proof(text_of(v));
      INFO("dropped line " << drop << ": " << lines[drop]);
      CHECK_FALSE(c.ok);
      CHECK_THAT(c.message, Contains("no move"));
    }
  }
  SECTION("a missing entry, count left as it was") {
    auto v = lines;
    v.erase(v.begin() + long(kHeaderLines + entries / 2));
    CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
  }
  SECTION("a truncated file") {
    for (size_t cut : {text.size() / 2, text.size() - 5, size_t(10)}) {
      INFO("cut at " << cut);
      CHECK_FALSE(konobi::check_proof(text.substr(0, cut)).ok);
    }
    CHECK_FALSE(konobi::check_proof("").ok);
  }
  SECTION("a wrong header") {
    auto v = lines;
    v[0] = "konobi-proof 2";
    CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
    v[0] = "gonnect-proof 1";
    CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
  }
  SECTION("the wrong winner") {
    auto v = lines;
    v[3] = v[3] == "winner white" ? "winner black" : "winner white";
    const auto c = konobi::check_proof(text_of(v));
    CHECK_FALSE(c.ok);
    v[3] = "winner nobody";
    CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
  }
  SECTION("a wrong size line") {
    auto v = lines;
    v[1] = "size " + std::to_string(n + 1);
    CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
  }
  SECTION("garbage after the last entry instead of 'end'") {
    auto v = lines;
    v.back() = "the end";
    CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
  }
}

// Format 2 (the moves alone, read as the walk needs them): `positions` is
// the same proof in format 1, whose entry i names the position of format
// 2's entry i.
void check_stream_tampering_rejected(const BothFormats& proof, int n) {
  const auto one = lines_of(proof.positions), lines = lines_of(proof.moves);
  REQUIRE(lines[0] == "konobi-proof 2");
  REQUIRE(lines.size() == one.size());
  REQUIRE(lines.back() == "end");
  const size_t entries = lines.size() - kHeaderLines - 1;
  REQUIRE(entries >= 3);
  const auto position_of = [&](size_t i) {
    return konobi::from_text<1>(konobi::parse_position(one[i].substr(0, one[i].rfind(' '))));
  };
  const auto with = [&](size_t i, const std::string& move) {
    auto v = lines;
    v[i] = move;
    return text_of(v);
  };
  SECTION("a winning move replaced by a losing one") {
    bool done = false;
    for (size_t i = kHeaderLines; i < lines.size() - 1 && !done; ++i) {
      const int m = losing_move(position_of(i));
      if (m < 0) continue;
      const auto c = konobi::check_proof(with(i, konobi::point_name(n, m)));
      INFO("entry " << one[i] << " -> " << konobi::point_name(n, m) << ": " << c.message);
      CHECK_FALSE(c.ok);
      done = true;
    }
    CHECK(done);
  }
  SECTION("a winning move replaced by an occupied point") {
    for (size_t i = kHeaderLines; i < lines.size() - 1; ++i) {
      const Pos pos = position_of(i);
      if (pos.stone_count() == 0) continue;
      const auto c = konobi::check_proof(with(i, konobi::point_name(n, pos.occupied().first())));
      CHECK_FALSE(c.ok);
      CHECK_THAT(c.message,
                 Contains("illegal") && Contains("at entry " + std::to_string(i - kHeaderLines + 1)));
      break;
    }
  }
  SECTION("a move that is not a point, or a format-1 line") {
    CHECK_FALSE(konobi::check_proof(with(kHeaderLines, "z99")).ok);
    CHECK_FALSE(konobi::check_proof(with(kHeaderLines, one[kHeaderLines])).ok);
  }
  SECTION("a missing entry, with the count fixed") {
    for (size_t drop : {kHeaderLines, kHeaderLines + entries / 2, lines.size() - 2}) {
      auto v = lines;
      v.erase(v.begin() + long(drop));
      v[4] = "entries " + std::to_string(entries - 1);
      INFO("dropped line " << drop);
      CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
    }
  }
  SECTION("one entry too many, with the count fixed") {
    auto v = lines;
    v.insert(v.end() - 1, lines[kHeaderLines]);
    v[4] = "entries " + std::to_string(entries + 1);
    const auto c = konobi::check_proof(text_of(v));
    CHECK_FALSE(c.ok);
    CHECK_THAT(c.message, Contains("never used"));
  }
  SECTION("a missing entry, count left as it was, and a truncated file") {
    auto v = lines;
    v.erase(v.begin() + long(kHeaderLines + entries / 2));
    CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
    for (size_t cut : {proof.moves.size() / 2, proof.moves.size() - 5, size_t(10)}) {
      INFO("cut at " << cut);
      CHECK_FALSE(konobi::check_proof(proof.moves.substr(0, cut)).ok);
    }
  }
  SECTION("each format's header on the other's entries") {
    auto v = lines;
    v[0] = "konobi-proof 1";
    CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
    auto w = one;
    w[0] = "konobi-proof 2";
    CHECK_FALSE(konobi::check_proof(text_of(w)).ok);
    w[0] = "konobi-proof 3";
    CHECK_FALSE(konobi::check_proof(text_of(w)).ok);
    w[0] = "konobi-proof 4";
    CHECK_THAT(konobi::check_proof(text_of(w)).message, Contains("not a konobi proof file"));
  }
}

}  // namespace

TEST_CASE("format 2 is format 1's moves in the same order, and passes the same checker", "[solver][proof]") {
  // The 4x4 openings and 5x5 middle games.
  std::vector<Pos> positions = openings4();
  const std::vector<Pos> mid = random_positions(5, kSanitize ? 2 : 6, 10, 13, 4242u);
  positions.insert(positions.end(), mid.begin(), mid.end());
  for (const Pos& pos : positions) {
    const BothFormats proof = build_both(pos);
    const auto one = lines_of(proof.positions), two = lines_of(proof.moves);
    INFO(show(pos));
    REQUIRE(one.size() == two.size());
    for (size_t i = 1; i < kHeaderLines; ++i) CHECK(one[i] == two[i]);  // size, start, winner, entries
    for (size_t i = kHeaderLines; i + 1 < one.size(); ++i)
      CHECK(one[i].substr(one[i].rfind(' ') + 1) == two[i]);
    const auto c1 = konobi::check_proof(proof.positions), c2 = konobi::check_proof(proof.moves);
    INFO(c2.message);
    CHECK(c1.ok);
    CHECK(c2.ok);
    CHECK(c1.version == 1);
    CHECK(c2.version == 2);
    CHECK(c2.entries == c1.entries);
    CHECK(c2.positions == c1.positions);
    if (c1.entries > 0) CHECK(proof.moves.size() < proof.positions.size());
  }
}

TEST_CASE("tampered format-2 proofs are rejected", "[solver][proof]") {
  SECTION("4x4 b2") {
    check_stream_tampering_rejected(build_both(opening(4, konobi::parse_point(4, "b2"))), 4);
  }
  SECTION("a 5x5 middle game") {
    BothFormats proof;
    for (const Pos& pos : random_positions(5, 20, 10, 12, 99u)) {
      proof = build_both(pos);
      if (lines_of(proof.moves).size() >= kHeaderLines + 1 + 6) break;
    }
    check_stream_tampering_rejected(proof, 5);
  }
}

TEST_CASE("proofs of the 4x4 openings pass the independent checker", "[solver]") {
  for (int p = 0; p < 16; ++p) {
    const Pos pos = opening(4, p);
    bool wins = false;
    size_t entries = 0;
    const std::string text = build_proof(pos, &wins, &entries);
    const auto c = konobi::check_proof(text);
    INFO("opening " << konobi::point_name(4, p) << ": " << c.message);
    CHECK(c.ok);
    CHECK(c.entries == entries);
    CHECK(c.start == show(pos));
    CHECK(c.winner == (wins ? "white" : "black"));
    CHECK(c.positions >= entries);
  }
}

TEST_CASE("proofs of 5x5 middle games pass the independent checker", "[solver]") {
  const auto sample = random_positions(5, kSanitize ? 2 : 6, 10, 13, 4242u);
  REQUIRE(!sample.empty());
  int black = 0, white = 0;
  for (const Pos& pos : sample) {
    bool wins = false;
    const std::string text = build_proof(pos, &wins);
    const auto c = konobi::check_proof(text);
    const konobi::Color winner = wins ? pos.to_move : konobi::other(pos.to_move);
    (winner == konobi::Black ? black : white)++;
    INFO(show(pos) << ": " << c.message);
    CHECK(c.ok);
    CHECK(c.winner == (winner == konobi::Black ? "black" : "white"));
  }
  CHECK(black + white == int(sample.size()));
}

TEST_CASE("a proof is built even when the table has lost the solve", "[solver][proof]") {
  // Cleared after solving: every winning move is found again by the
  // builder's budgeted re-searches. A table of a few buckets: most of the
  // solve is lost along the way and proven again piece by piece.
  for (const double mb : {16.0, 0.01}) {
    for (const char* name : {"a1", "b2"}) {
      const Pos pos = opening(4, konobi::parse_point(4, name));
      konobi::TranspositionTable tt(mb);
      const konobi::DfpnOptions opt;
      const std::optional<bool> solved = dfpn_wins(pos, tt, opt, 1);
      REQUIRE(solved.has_value());
      if (mb > 1) tt.clear();
      const konobi::Color winner = *solved ? pos.to_move : konobi::other(pos.to_move);
      const konobi::Proof proof = konobi::ProofBuilder<1>(tt, opt).build(pos, winner);
      const auto c = konobi::check_proof(proof.to_text());
      INFO(name << " with " << mb << " MB: " << c.message);
      CHECK(c.ok);
      CHECK(c.winner == (winner == konobi::Black ? "black" : "white"));
      CHECK(c.entries == proof.entries.size());
    }
  }
}

TEST_CASE("tampered 4x4 proofs are rejected", "[solver]") {
  // b2: an interior opening, so the proof has many entries.
  const std::string text = build_proof(opening(4, konobi::parse_point(4, "b2")));
  REQUIRE(konobi::check_proof(text).ok);
  check_tampering_rejected(text, 4);
}

TEST_CASE("tampered 5x5 proofs are rejected", "[solver]") {
  // The first of a few middle games whose proof has some substance.
  std::string text, where;
  for (const Pos& pos : random_positions(5, 20, 10, 12, 99u)) {
    size_t entries = 0;
    text = build_proof(pos, nullptr, &entries);
    where = show(pos);
    if (entries >= 6) break;
  }
  INFO(where);
  REQUIRE(konobi::check_proof(text).ok);
  check_tampering_rejected(text, 5);
}

TEST_CASE("a proof has one entry per position of the winner and none where the winner wins at once",
          "[solver][proof]") {
  // The walk tests for an immediate win before it consults its visited set
  // (proof.h): such a position must still get no entry, and every other
  // position of the winner exactly one.
  std::vector<Pos> positions = openings4();
  const std::vector<Pos> mid = random_positions(5, kSanitize ? 3 : 12, 8, 12, 4242u);
  positions.insert(positions.end(), mid.begin(), mid.end());
  size_t entries = 0;
  for (const Pos& pos : positions) {
    INFO(show(pos));
    const auto lines = lines_of(build_proof(pos));
    REQUIRE(lines.size() > kHeaderLines);
    const std::string winner = lines[3].substr(std::string("winner ").size());
    std::unordered_set<std::string> seen;
    for (size_t i = kHeaderLines; i + 1 < lines.size(); ++i) {
      const std::string at = lines[i].substr(0, lines[i].rfind(' '));
      INFO(lines[i]);
      CHECK(seen.insert(at).second);
      const Pos p = konobi::from_text<1>(konobi::parse_position(at));
      CHECK(p.to_move == (winner == "black" ? konobi::Black : konobi::White));
      CHECK(konobi::KonobiRules::winning(p, konobi::KonobiRules::placements(p)).none());
      ++entries;
    }
  }
  CHECK(entries > 0);
}

TEST_CASE("a proof's size without its text is the number of entries build() writes", "[solver][proof]") {
  std::vector<Pos> positions = openings4();
  const std::vector<Pos> mid = random_positions(5, kSanitize ? 3 : 12, 10, 14, 777u);
  positions.insert(positions.end(), mid.begin(), mid.end());
  // The counting builders share one visited set, as a solve's classes do:
  // each must start from an empty one, or it would skip what the last saw.
  konobi::KeySet visited;
  for (const Pos& pos : positions) {
    // Two tables solved alike, one each: building may re-solve children the
    // table lost, which changes the table.
    konobi::TranspositionTable tt(16), tt2(16);
    const konobi::DfpnOptions opt;
    const std::optional<bool> solved = dfpn_wins(pos, tt, opt, 1);
    REQUIRE(solved.has_value());
    REQUIRE(dfpn_wins(pos, tt2, opt, 1) == solved);
    const konobi::Color winner = *solved ? pos.to_move : konobi::other(pos.to_move);
    const size_t counted = konobi::ProofBuilder<1>(tt2, opt, &visited).size(pos, winner);
    konobi::ProofBuilder<1> builder(tt, opt);
    const konobi::Proof proof = builder.build(pos, winner);
    INFO(show(pos));
    CHECK(counted == proof.entries.size());
    // A builder remembers what it wrote, so a second walk would skip it.
    CHECK_THROWS_AS(builder.size(pos, winner), std::logic_error);
  }
}

// A 4x4 opening solved by df-pn on its own table, with its winner.
struct Solved4x4 {
  Pos pos;
  konobi::TranspositionTable tt{16};
  konobi::DfpnOptions opt;
  konobi::Color winner = konobi::Black;
  explicit Solved4x4(const char* point) : pos(opening(4, konobi::parse_point(4, point))) {
    const std::optional<bool> wins = dfpn_wins(pos, tt, opt, 1);
    REQUIRE(wins.has_value());
    winner = *wins ? pos.to_move : konobi::other(pos.to_move);
  }
  konobi::Proof proof() { return konobi::ProofBuilder<1>(tt, opt).build(pos, winner); }
};

// A 5x5 middle game (one of bench's): a builder on a table that never saw
// its solve proves again thousands of nodes, where a 4x4 opening's root
// is proven again in about a hundred.
struct Solved5x5 {
  Pos pos = konobi::from_text<1>(konobi::parse_position("...../...../.WB../.BBW./..... w"));
  konobi::DfpnOptions opt;
  konobi::Color winner = konobi::Black;
  Solved5x5() {
    konobi::TranspositionTable tt(16);
    const std::optional<bool> wins = dfpn_wins(pos, tt, opt, 1);
    REQUIRE(wins.has_value());
    winner = *wins ? pos.to_move : konobi::other(pos.to_move);
  }
};

TEST_CASE(
    "a proof assembled from proof pieces needs no search, and extending pieces writes only what they lack",
    "[solver][proof][pieces]") {
  // Three 4x4 openings: proofs big enough that a table which never saw
  // the solve has work to do.
  for (const char* name : {"a1", "b2", "c2"}) {
    Solved4x4 solved(name);
    const Pos& pos = solved.pos;
    const konobi::DfpnOptions& opt = solved.opt;
    const konobi::Color winner = solved.winner;
    const konobi::Proof full = solved.proof();
    REQUIRE(konobi::check_proof(full.to_text()).ok);
    konobi::ProofPieces pieces;
    for (const std::string& line : full.entries) CHECK(pieces.add(line));
    CHECK(pieces.size() == full.entries.size());
    INFO("opening " << name << ", " << full.entries.size() << " entries");

    // A table that never saw the solve: without pieces the builder must
    // search; with them it copies the strategy, searching nothing.
    konobi::TranspositionTable empty(16);
    konobi::ProofBuilder<1> blind(empty, opt);
    const konobi::Proof searched = blind.build(pos, winner);
    CHECK(konobi::check_proof(searched.to_text()).ok);
    CHECK(blind.searched() > 0);

    konobi::TranspositionTable empty2(16);
    konobi::ProofBuilder<1> copier(empty2, opt);
    copier.use_pieces(&pieces, false);
    const konobi::Proof copied = copier.build(pos, winner);
    CHECK(copier.searched() == 0);
    const auto c = konobi::check_proof(copied.to_text());
    INFO(c.message);
    CHECK(c.ok);
    std::vector<std::string> a = full.entries, b = copied.entries;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CHECK(a == b);

    // Extending pieces that hold the whole strategy writes nothing.
    konobi::ProofBuilder<1> extender(solved.tt, opt);
    extender.use_pieces(&pieces, true);
    CHECK(extender.build(pos, winner).entries.empty());
  }
}

TEST_CASE("pieces of the replies and one new entry make a proof of the position above them",
          "[solver][proof][pieces]") {
  // A 4x4 position whose mover wins: its proof is its own entry plus the
  // proof of the position its move leads to. Built as the job manager
  // does, the child's piece first and the parent's by extending, then
  // assembled on a table that never saw either.
  for (const char* name : {"a1", "b1", "b2"}) {
    Solved4x4 solved(name);
    const Pos& root = solved.pos;  // White to move
    konobi::TranspositionTable& tt = solved.tt;
    const konobi::DfpnOptions& opt = solved.opt;
    const konobi::Color winner = solved.winner;
    konobi::ProofPieces pieces;
    // The replies' pieces (the loser's replies at a lost root, or the
    // winning reply's position at a won one), each built as an extension.
    int children = 0;
    konobi::konobi_legal_placements(root).for_each([&](int m) {
      Pos q = root;
      q.place(m);
      const std::optional<bool> child = dfpn_wins(q, tt, opt, 1);
      REQUIRE(child.has_value());
      const konobi::Color child_winner = *child ? q.to_move : konobi::other(q.to_move);
      if (child_winner != winner) return;  // a move that loses: no part of the proof
      konobi::ProofBuilder<1> b(tt, opt);
      b.use_pieces(&pieces, true);
      for (const std::string& line : b.build(q, winner).entries) CHECK(pieces.add(line));
      ++children;
    });
    REQUIRE(children > 0);
    konobi::ProofBuilder<1> top(tt, opt);
    top.use_pieces(&pieces, true);
    const std::vector<std::string> added = top.build(root, winner).entries;
    // At a won root only its own entry is new; at a lost one, nothing.
    CHECK(added.size() == (winner == root.to_move ? 1u : 0u));
    for (const std::string& line : added) pieces.add(line);

    konobi::TranspositionTable empty(16);
    konobi::ProofBuilder<1> copier(empty, opt);
    copier.use_pieces(&pieces, false);
    const konobi::Proof proof = copier.build(root, winner);
    CHECK(copier.searched() == 0);
    const auto c = konobi::check_proof(proof.to_text());
    INFO(name << ": " << c.message);
    CHECK(c.ok);
  }
}

TEST_CASE("a piece whose move is not legal is passed over for the table's", "[solver][proof][pieces]") {
  Solved4x4 solved("b2");
  const konobi::Proof full = solved.proof();
  REQUIRE(!full.entries.empty());
  konobi::ProofPieces pieces;
  // Every entry's move replaced by the occupied point of the first stone.
  const std::string stone = konobi::point_name(4, konobi::parse_point(4, "b2"));
  for (const std::string& line : full.entries) pieces.add(line.substr(0, line.rfind(' ') + 1) + stone);
  CHECK_THROWS_AS(pieces.add("no-move-here"), std::invalid_argument);
  konobi::ProofBuilder<1> b(solved.tt, solved.opt);
  b.use_pieces(&pieces, false);
  const auto c = konobi::check_proof(b.build(solved.pos, solved.winner).to_text());
  INFO(c.message);
  CHECK(c.ok);
}

TEST_CASE("a builder's stop flag ends a walk that needs no search", "[solver][proof][pieces]") {
  // The table that solved b2 holds its whole strategy: the builder only
  // walks it, and still stops at once when the flag is up.
  Solved4x4 solved("b2");
  konobi::ProofBuilder<1> walker(solved.tt, solved.opt);
  const std::atomic<bool> stop{true};
  walker.set_stop(&stop);
  CHECK_THROWS_AS(walker.build(solved.pos, solved.winner), konobi::BuildStopped);
  // Without the flag the same walk is a whole proof, found without search.
  konobi::ProofBuilder<1> free_walker(solved.tt, solved.opt);
  const auto c = konobi::check_proof(free_walker.build(solved.pos, solved.winner).to_text());
  CHECK(c.ok);
  CHECK(free_walker.searched() == 0);
}

TEST_CASE("a builder's re-proofs on several threads give proofs the checker accepts",
          "[solver][proof][pieces]") {
  for (const char* name : {"a1", "b2"}) {
    Solved4x4 solved(name);
    INFO("opening " << name);
    // A table that never saw the solve, every re-proof on two threads.
    konobi::TranspositionTable empty(16);
    konobi::ProofBuilder<1> wide(empty, solved.opt);
    wide.set_threads(2, 0);
    const auto c = konobi::check_proof(wide.build(solved.pos, solved.winner).to_text());
    INFO(c.message);
    CHECK(c.ok);
    CHECK(wide.searched() > 0);
  }
  // A limit and a stop flag end threaded re-proofs as they end one thread's.
  Solved5x5 solved;
  konobi::TranspositionTable empty(16);
  konobi::ProofBuilder<1> tight(empty, solved.opt);
  tight.set_threads(2, 0);
  // A limit of one node: reached by the first re-proof, whatever the two
  // threads' interleaving (df-pn looks at its budget only every 1024
  // nodes, so a small re-proof may end before it does).
  tight.set_search_limit(1);
  CHECK_THROWS_AS(tight.build(solved.pos, solved.winner), konobi::SearchLimitReached);
  konobi::TranspositionTable empty2(16);
  konobi::ProofBuilder<1> stopped(empty2, solved.opt);
  const std::atomic<bool> stop{true};
  stopped.set_threads(2, 0);
  stopped.set_stop(&stop);
  CHECK_THROWS_AS(stopped.build(solved.pos, solved.winner), konobi::BuildStopped);
}

TEST_CASE("a winner's position the table holds without its move is proven again child by child",
          "[solver][proof]") {
  // An entry proven won that names no move: the builder's search of the
  // position itself ends at once on it, so each child is searched.
  for (const char* name : {"a1", "b2", "c2"}) {
    Solved4x4 solved(name);
    Pos s = solved.pos;
    if (s.to_move != solved.winner) {  // a reply of the loser's: the winner to move
      int reply = -1;
      konobi::konobi_legal_placements(s).for_each([&](int m) {
        if (reply < 0) reply = m;
      });
      REQUIRE(reply >= 0);
      s.place(reply);
    }
    REQUIRE(s.to_move == solved.winner);
    konobi::TranspositionTable tt(16);
    tt.store(s.canonical_key(), 0, konobi::kInf, -1, 1);
    konobi::ProofBuilder<1> builder(tt, solved.opt);
    const konobi::Proof proof = builder.build(s, solved.winner);
    const auto c = konobi::check_proof(proof.to_text());
    INFO(name << ": " << c.message);
    CHECK(c.ok);
    CHECK(builder.searched() > 0);
    CHECK(proof.entries.size() > 1);
  }
}

TEST_CASE("a builder that meets a wrong claim repairs it and proves the start by a move that wins",
          "[solver][proof]") {
  // 4x4 b2, solved: White to move wins. The table is then made to claim
  // that White wins by a move that alpha-beta says loses (the root's own
  // move, its child proven lost for Black), as a false hit in a full table
  // could. The builder follows it, meets a position the rules or a search
  // refute, forgets the claims on the way, proves the root again and
  // walks again: the proof is whole, and the log says where the wrong
  // claim showed, the move tagged by what chose it ([t]able).
  Solved4x4 solved("b2");
  const Pos& pos = solved.pos;
  REQUIRE(solved.winner == pos.to_move);
  const int wrong = losing_move(pos);
  REQUIRE(wrong >= 0);
  Pos after = pos;
  after.place(wrong);
  const std::string name = konobi::move_name(4, konobi::Move(wrong));
  REQUIRE(konobi::seed_proven_line(solved.tt, *pos.g, show(pos) + " " + name, solved.opt.symmetry));
  solved.tt.store(konobi::KonobiSearch::key(after, solved.opt.symmetry), konobi::kInf, 0, -1, 1);
  konobi::ProofBuilder<1> builder(solved.tt, solved.opt);
  konobi::BuildProgress progress;
  builder.set_progress(&progress);
  const konobi::Proof proof = builder.build(pos, solved.winner);
  CHECK(builder.repairs() >= 1);
  // What a progress line reads: the last walk's entries, all the searches.
  CHECK(progress.entries.load() == proof.entries.size());
  CHECK(progress.repairs.load() == builder.repairs());
  CHECK(progress.searched.load() == builder.searched());
  CHECK(builder.searched() > 0);
  REQUIRE(!builder.repair_log().empty());
  CHECK_THAT(builder.repair_log()[0], Contains("reached by " + name + "[t]"));
  const auto c = konobi::check_proof(proof.to_text());
  INFO(c.message);
  CHECK(c.ok);
  CHECK_THAT(proof.to_text(), !Contains(show(pos) + " " + name + "\n"));
}

TEST_CASE("a builder whose start was proven won wrongly says so, naming what showed it", "[solver][proof]") {
  // White to move; Black threatens b1, which joins b4-b3-b2 to the
  // bottom, and White loses (df-pn and alpha-beta agree). The table is
  // made to claim that White wins by another move: the builder follows it,
  // finds Black's immediate win, searches the start again, finds it lost
  // and ends the build with both findings, the move tagged [t]able.
  const Pos pos = konobi::from_text<1>(konobi::parse_position(".B../.B.W/.B../W... w"));
  const konobi::DfpnOptions opt;
  REQUIRE_FALSE(konobi::AlphaBeta<1>(14).wins(pos));
  const int b1 = konobi::parse_point(4, "b1");
  int wrong = -1;
  konobi::konobi_legal_placements(pos).for_each([&](int m) {
    if (wrong < 0 && m != b1) wrong = m;
  });
  REQUIRE(wrong >= 0);
  Pos after = pos;
  after.place(wrong);
  REQUIRE(konobi::KonobiRules::winning(after, konobi::konobi_legal_placements(after)).test(b1));
  konobi::TranspositionTable tt(16);
  const std::string name = konobi::move_name(4, konobi::Move(wrong));
  REQUIRE(konobi::seed_proven_line(tt, *pos.g, show(pos) + " " + name, opt.symmetry));
  tt.store(konobi::KonobiSearch::key(after, opt.symmetry), konobi::kInf, 0, -1, 1);
  konobi::ProofBuilder<1> builder(tt, opt);
  try {
    builder.build(pos, konobi::White);
    FAIL("the builder wrote a proof of a lost position");
  } catch (const std::logic_error& e) {
    CHECK_THAT(e.what(), Contains("the start is not white's, as it was proven: a position proven won was "
                                  "searched again and lost (" +
                                  show(pos) + "; reached by nothing: the start)"));
    CHECK_THAT(e.what(), Contains("the loser wins in a position proven lost (" + show(after) +
                                  "; reached by " + name + "[t])"));
  }
}

TEST_CASE("a builder stops at its search limit, and within it proves as without one",
          "[solver][proof][pieces]") {
  Solved5x5 solved;
  const Pos& pos = solved.pos;
  const konobi::DfpnOptions& opt = solved.opt;
  const konobi::Color winner = solved.winner;
  // On a table that never saw the solve the builder must search.
  konobi::TranspositionTable empty(16);
  konobi::ProofBuilder<1> free_builder(empty, opt);
  const auto proof = free_builder.build(pos, winner);
  REQUIRE(free_builder.searched() > 1000);
  konobi::TranspositionTable empty2(16);
  konobi::ProofBuilder<1> tight(empty2, opt);
  tight.set_search_limit(1000);
  CHECK_THROWS_AS(tight.build(pos, winner), konobi::SearchLimitReached);
  // df-pn looks at its budget between expansions, so it may run a little past it.
  CHECK(tight.searched() < 2000);
  CHECK(tight.searched() < free_builder.searched());
  konobi::TranspositionTable empty3(16);
  konobi::ProofBuilder<1> roomy(empty3, opt);
  roomy.set_search_limit(free_builder.searched() * 10);
  const auto c = konobi::check_proof(roomy.build(pos, winner).to_text());
  INFO(c.message);
  CHECK(c.ok);
}

namespace {

// A proof in parts (format 3) on disk: the index and one format-2 part per
// reply of the loser at `root`, under a temporary folder, read back by a
// ProofParts that finds them there (as verify-proof does beside the file).
struct PartsOnDisk {
  konobi_test::TempDir dir;
  Pos root;
  konobi::Color winner = konobi::White;
  std::vector<std::string> index;  // the index's lines, header and `end` included
  konobi::ProofParts parts{[this](const std::string& path) {
                             std::ifstream in(dir / path, std::ios::binary);
                             if (!in) throw std::runtime_error("no such file");
                             return std::string(std::istreambuf_iterator<char>(in), {});
                           },
                           {}};
  uint64_t entries = 0;

  // 4x4 b2 after White's winning reply: Black to move, White wins.
  PartsOnDisk() {
    Solved4x4 solved("b2");
    const konobi::Proof first = solved.proof();
    REQUIRE(!first.entries.empty());
    const std::string& line = first.entries[0];
    root = solved.pos;
    root.place(konobi::parse_point(4, line.substr(line.rfind(' ') + 1)));
    winner = solved.winner;
    REQUIRE(root.to_move != winner);
    std::filesystem::create_directories(dir.path / "parts");
    std::vector<std::string> lines;
    konobi::konobi_legal_placements(root).for_each([&](int m) {
      Pos child = root;
      child.place(m);
      const konobi::Proof p = konobi::ProofBuilder<1>(solved.tt, solved.opt)
                                  .build(child, winner, konobi::KonobiProofFormat::Moves);
      entries += p.entry_count();
      const std::string name = "parts/" + konobi::point_name(4, m) + ".proof";
      write(name, p.to_text());
      lines.push_back(konobi::point_name(4, m) + " " + name);
    });
    REQUIRE(lines.size() >= 3);
    index = {"konobi-proof 3", "size 4", "start " + show(root), "winner white",
             "entries " + std::to_string(lines.size())};
    index.insert(index.end(), lines.begin(), lines.end());
    index.push_back("end");
  }
  void write(const std::string& name, const std::string& text) const { std::ofstream(dir / name) << text; }
  konobi::ProofCheck check(const std::vector<std::string>& lines) const {
    return konobi::check_proof(text_of(lines), &parts);
  }
};

}  // namespace

TEST_CASE("a proof in parts (format 3) holds when every reply's part holds, and not otherwise",
          "[solver][proof]") {
  PartsOnDisk p;
  const size_t first = kHeaderLines, count = p.index.size() - kHeaderLines - 1;
  SECTION("whole") {
    const auto c = p.check(p.index);
    INFO(c.message);
    CHECK(c.ok);
    CHECK(c.version == 3);
    CHECK(c.parts == count);
    CHECK(c.entries == p.entries);
    CHECK(c.winner == "white");
    CHECK_THAT(c.message, Contains("in " + std::to_string(count) + " parts"));
  }
  SECTION("each part is told as it holds, and none after one fails") {
    std::vector<std::string> told;
    uint64_t entries = 0;
    konobi::ProofParts heard = p.parts;
    heard.checked = [&](const std::string& path, size_t index, size_t of, const konobi::ProofCheck& part) {
      CHECK(index == told.size() + 1);
      CHECK(of == count);
      CHECK(part.ok);
      entries += part.entries;
      told.push_back(path);
    };
    const auto c = konobi::check_proof(text_of(p.index), &heard);
    CHECK(c.ok);
    REQUIRE(told.size() == count);
    CHECK(entries == p.entries);
    for (size_t i = 0; i < count; ++i)
      CHECK(p.index[first + i].substr(p.index[first + i].find(' ') + 1) == told[i]);
    // The second part spoilt: the first is told, then the check fails.
    told.clear();
    p.write(p.index[first + 1].substr(p.index[first + 1].find(' ') + 1), "konobi-proof 2\n");
    const auto bad = konobi::check_proof(text_of(p.index), &heard);
    CHECK(!bad.ok);
    CHECK(told.size() == 1);
  }
  SECTION("without a way to read its parts") {
    CHECK_THAT(konobi::check_proof(text_of(p.index)).message, Contains("checked from its file"));
  }
  SECTION("a reply without its part") {
    auto v = p.index;
    v.erase(v.begin() + long(first + 1));
    v[4] = "entries " + std::to_string(count - 1);
    CHECK_THAT(p.check(v).message, Contains("no part for the loser's reply"));
  }
  SECTION("a reply named twice") {
    auto v = p.index;
    v[first + 1] = v[first];
    CHECK_THAT(p.check(v).message, Contains("a second part"));
  }
  SECTION("a part proving another position") {
    auto v = p.index;
    const std::string a = v[first].substr(v[first].find(' ')),
                      b = v[first + 1].substr(v[first + 1].find(' '));
    v[first] = v[first].substr(0, v[first].find(' ')) + b;
    v[first + 1] = v[first + 1].substr(0, v[first + 1].find(' ')) + a;
    CHECK_THAT(p.check(v).message, Contains("not the position after"));
  }
  SECTION("a part that fails, or is missing") {
    const std::string path = p.index[first].substr(p.index[first].find(' ') + 1);
    p.write(path, "konobi-proof 2\nsize 4\n");
    CHECK_THAT(p.check(p.index).message, Contains("part " + path + " fails") && Contains("truncated"));
    std::filesystem::remove(p.dir.path / path);
    CHECK_THAT(p.check(p.index).message, Contains("part " + path + ": no such file"));
  }
  SECTION("a part named outside its folder") {
    for (const char* bad : {"../x.proof", "/tmp/x.proof", "parts/../x.proof", "parts//x.proof"}) {
      auto v = p.index;
      v[first] = v[first].substr(0, v[first].find(' ') + 1) + bad;
      INFO(bad);
      CHECK_THAT(p.check(v).message, Contains("relative to this file"));
    }
  }
  SECTION("an illegal move, a pass where there are moves, a loser's winning reply") {
    auto v = p.index;
    const std::string occupied = konobi::point_name(4, p.root.occupied().first());
    v[first] = occupied + v[first].substr(v[first].find(' '));
    CHECK_THAT(p.check(v).message, Contains("illegal"));
    v[first] = "pass" + v[first].substr(v[first].find(' '));
    CHECK_THAT(p.check(v).message, Contains("legal placements"));
  }
  SECTION("parts within parts, the winner's one move at the top of a part") {
    // The first reply's part becomes itself a proof in parts: the winner's
    // move there, and the proof of the position after it, one folder down.
    const std::string move = p.index[first].substr(0, p.index[first].find(' '));
    const std::string path = p.index[first].substr(p.index[first].find(' ') + 1);
    Pos child = p.root;
    child.place(konobi::parse_point(4, move));
    Solved4x4 solved("b2");  // a table that holds child's proof
    const konobi::Proof whole = konobi::ProofBuilder<1>(solved.tt, solved.opt).build(child, p.winner);
    if (whole.entries.empty()) return;  // won at once: no move to split at
    const std::string& e = whole.entries[0];
    const std::string win = e.substr(e.rfind(' ') + 1);  // the winner's move at child
    Pos after = child;
    after.place(konobi::parse_point(4, win));
    std::filesystem::create_directories(p.dir.path / "parts" / "deeper");
    p.write("parts/deeper/" + win + ".proof", konobi::ProofBuilder<1>(solved.tt, solved.opt)
                                                  .build(after, p.winner, konobi::KonobiProofFormat::Moves)
                                                  .to_text());
    const std::string part = win + " deeper/" + win + ".proof";
    p.write(path, text_of({"konobi-proof 3", "size 4", "start " + show(child), "winner white", "entries 1",
                           part, "end"}));
    const auto c = p.check(p.index);
    INFO(c.message);
    CHECK(c.ok);
    CHECK(c.parts == count);  // the top level's
    // Two moves for the winner there are one too many.
    const int other = konobi::konobi_legal_placements(child).first();
    p.write(path, text_of({"konobi-proof 3", "size 4", "start " + show(child), "winner white", "entries 2",
                           part, konobi::point_name(4, other) + " deeper/" + win + ".proof", "end"}));
    CHECK_FALSE(p.check(p.index).ok);
  }
  SECTION("a part that names itself stops at the depth limit") {
    const std::string move = p.index[first].substr(0, p.index[first].find(' '));
    const std::string path = p.index[first].substr(p.index[first].find(' ') + 1);
    Pos child = p.root;
    child.place(konobi::parse_point(4, move));
    const int m = konobi::konobi_legal_placements(child).first();
    // Named relative to its own folder (parts/), the name is its own.
    p.write(path, text_of({"konobi-proof 3", "size 4", "start " + show(child), "winner white", "entries 1",
                           konobi::point_name(4, m) + " " + path.substr(path.find('/') + 1), "end"}));
    const auto c = p.check(p.index);
    INFO(c.message);
    CHECK_FALSE(c.ok);
    CHECK_THAT(c.message, Contains("nested more than 4 deep"));
  }
}

TEST_CASE("a proof in parts checked on several threads gives one thread's check, its parts told in order",
          "[solver][proof]") {
  PartsOnDisk p;
  const size_t first = kHeaderLines, count = p.index.size() - kHeaderLines - 1;
  // What a check hears and says: the paths told, in order, and its verdict.
  auto check = [&](int threads) {
    konobi::ProofParts heard = p.parts;
    heard.threads = threads;
    std::vector<std::string> told;
    heard.checked = [&](const std::string& path, size_t index, size_t of, const konobi::ProofCheck& part) {
      CHECK(index == told.size() + 1);
      CHECK(of == count);
      CHECK(part.ok);
      told.push_back(path);
    };
    const konobi::ProofCheck c = konobi::check_proof(text_of(p.index), &heard);
    return std::pair{c, told};
  };
  const auto [one, one_told] = check(1);
  REQUIRE(one.ok);
  REQUIRE(one_told.size() == count);
  for (int threads : {2, 3, 64}) {
    INFO(threads << " threads");
    const auto [c, told] = check(threads);
    CHECK(c.ok);
    CHECK(c.message == one.message);
    CHECK(c.parts == one.parts);
    CHECK(c.entries == one.entries);
    CHECK(c.positions == one.positions);
    CHECK(told == one_told);
  }
  // Two parts spoilt, the second and the last: the failure reported is the
  // second's, as on one thread, and only the first part is told.
  auto path_of = [&](size_t i) { return p.index[first + i].substr(p.index[first + i].find(' ') + 1); };
  p.write(path_of(1), "konobi-proof 2\nsize 4\n");
  p.write(path_of(count - 1), "not a proof\n");
  const auto [bad_one, bad_one_told] = check(1);
  CHECK_FALSE(bad_one.ok);
  CHECK_THAT(bad_one.message, Contains("part " + path_of(1) + " fails"));
  for (int threads : {2, 3, 64}) {
    INFO(threads << " threads");
    const auto [bad, told] = check(threads);
    CHECK_FALSE(bad.ok);
    CHECK(bad.message == bad_one.message);
    CHECK(told == bad_one_told);
    CHECK(told.size() == 1);
  }
}
