// Fuzz target: a game record (core/notation.*: parse_record), the moves
// `konobi show --size N MOVE...` and `play` read. The first word is the
// board size, the rest the record, which is parsed, printed and parsed
// again, then played from the empty board under Konobi's rules and two
// Gonnect variants. ParseError and RuleError are the expected rejections.
#include <charconv>
#include <stdexcept>

#include "core/game.h"
#include "fuzz_support.h"

using namespace konobi;
using konobi_fuzz::finding;

namespace {

template <class Rules, int W>
void play(int n, const std::vector<Move>& record, const typename Rules::Variant& v) {
  auto game = Game<Rules, W>::new_game(n, v);
  try {
    game.play_record(record);
  } catch (const RuleError&) {}
  (void)game.legal_moves();
  (void)format_position(to_text(game.position()));
  if (game.moves().size() > record.size()) finding("more moves played than the record holds");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;  // a full 19x19 game is under 1,500 characters
  const std::string text = konobi_fuzz::as_text(data, size);
  const size_t cut = text.find_first_of(" \n");
  const std::string size_word = text.substr(0, cut);
  int n = 0;
  const auto [end, ec] = std::from_chars(size_word.data(), size_word.data() + size_word.size(), n);
  if (ec != std::errc() || end != size_word.data() + size_word.size()) return 0;
  const std::string_view moves_text =
      cut == std::string::npos ? std::string_view() : std::string_view(text).substr(cut);

  std::vector<Move> record;
  try {
    record = parse_record(n, moves_text);
  } catch (const ParseError&) { return 0; }
  const std::string printed = format_record(n, record);
  if (parse_record(n, printed) != record) finding("record does not survive format_record: '" + printed + "'");

  with_words(n, [&](auto w) {
    constexpr int W = decltype(w)::value;
    play<KonobiRules, W>(n, record, {});
    play<GonnectRules, W>(n, record, GonnectVariant{KoRule::Superko, EdgeRule::Either});
    play<GonnectRules, W>(n, record, GonnectVariant{KoRule::Simple, EdgeRule::Own});
  });
  return 0;
}
