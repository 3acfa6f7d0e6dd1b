// The GTP interpreter (gtp.h).
#include "gtp.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <istream>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "record.h"

namespace konobi {

namespace {

// clang-format off
const char* const kCommands[] = {
  "protocol_version", "name", "version", "known_command", "list_commands", "quit",
  "boardsize", "clear_board", "komi", "play", "genmove", "undo", "showboard",
  "time_settings", "time_left", "final_score",
  "konobi-game", "konobi-winner", "konobi-record", "konobi-position", "konobi-said",
};
// clang-format on

struct GtpError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What the commands need to know about the game the record describes.
struct Snapshot {
  int n = 0;
  std::vector<int> cells;  // -1 empty, else the colour
  Color to_move = Black;
  int winner = -1;
  bool must_pass = false;
  bool ended_without_move = false;
  std::string why_illegal;  // for the probed move, "" when legal
  std::string position;     // docs/NOTATION.md's position string
};

Snapshot snapshot(const GameRecord& record, std::optional<Move> probe = std::nullopt) {
  return dispatch_game(record.spec, [&](auto rules, const auto& variant, auto w) {
    using Rules = decltype(rules);
    constexpr int W = decltype(w)::value;
    const auto game = replay<Rules, W>(record, variant);
    const Position<W>& pos = game.position();
    Snapshot s;
    s.n = pos.size();
    for (int p = 0; p < pos.g->cells; ++p) s.cells.push_back(pos.at(p));
    s.to_move = pos.to_move;
    s.winner = game.winner();
    s.must_pass = game.must_pass();
    s.ended_without_move = game.ended_without_move();
    if (probe) s.why_illegal = game.why_illegal(*probe);
    s.position = format_position(to_text(pos));
    return s;
  });
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Color parse_color(const std::string& text) {
  const std::string t = lower(text);
  if (t == "b" || t == "black") return Black;
  if (t == "w" || t == "white") return White;
  throw GtpError("invalid color " + quote_token(text) + " (b, black, w or white)");
}

double parse_number(const std::string& text, const char* what) {
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v)) return v;
  } catch (const std::exception&) {}
  throw GtpError(std::string("invalid ") + what + " " + quote_token(text));
}

int parse_int(const std::string& text, const char* what) {
  const double v = parse_number(text, what);
  if (v != std::floor(v) || std::abs(v) > 1e9)
    throw GtpError(std::string("invalid ") + what + " " + quote_token(text));
  return int(v);
}

void need_args(const std::vector<std::string>& args, size_t count, const char* usage) {
  if (args.size() != count) throw GtpError(std::string("syntax error: usage ") + usage);
}

}  // namespace

GtpSession::GtpSession(const GtpOptions& options) : opt_(options) { record_.spec = opt_.spec; }

void GtpSession::run(std::istream& in, std::ostream& out) {
  std::string line;
  while (!quit_ && std::getline(in, line)) {
    const std::string reply = execute(line);
    if (reply.empty()) continue;
    out << reply << "\n\n" << std::flush;
  }
}

std::string GtpSession::execute(const std::string& raw) {
  // GTP's preprocessing: control characters out (tabs become spaces),
  // comments out.
  std::string line;
  for (char c : raw) {
    if (c == '#') break;
    if (c == '\t') line += ' ';
    else if (static_cast<unsigned char>(c) >= 32 && c != 127) line += c;
  }
  std::vector<std::string> words = split_words(line);
  if (words.empty()) return "";
  std::string id;
  if (std::all_of(words[0].begin(), words[0].end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    id = words[0];
    words.erase(words.begin());
    if (words.empty()) return "?" + id + " missing command";
  }
  const std::string command = words[0];
  words.erase(words.begin());
  try {
    const std::string result = handle(command, words);
    return "=" + id + (result.empty() ? "" : " " + result);
  } catch (const GtpError& e) { return "?" + id + " " + e.what(); } catch (const RuleError& e) {
    return "?" + id + " illegal move: " + e.what();
  } catch (const ParseError& e) { return "?" + id + " " + e.what(); } catch (const std::invalid_argument& e) {
    return "?" + id + " " + e.what();
  } catch (const std::exception& e) { return "?" + id + " internal error: " + e.what(); }
}

std::string GtpSession::handle(const std::string& command, const std::vector<std::string>& args) {
  if (command == "protocol_version") return "2";
  if (command == "name") return "konobi";
  if (command == "version") return opt_.version;
  if (command == "known_command") {
    need_args(args, 1, "known_command COMMAND");
    return std::find(std::begin(kCommands), std::end(kCommands), args[0]) != std::end(kCommands) ? "true"
                                                                                                 : "false";
  }
  if (command == "list_commands") {
    std::string out;
    for (const char* c : kCommands) out += (out.empty() ? "" : "\n") + std::string(c);
    return out;
  }
  if (command == "quit") {
    quit_ = true;
    return "";
  }
  if (command == "boardsize") {
    need_args(args, 1, "boardsize SIZE");
    const int n = parse_int(args[0], "size");
    if (n < kMinSize || n > kMaxSize)
      throw GtpError("unacceptable size " + args[0] + " (from " + std::to_string(kMinSize) + " to " +
                     std::to_string(kMaxSize) + ")");
    record_.spec.size = n;
    record_.moves.clear();
    return "";
  }
  if (command == "clear_board") {
    need_args(args, 0, "clear_board");
    record_.moves.clear();
    return "";
  }
  if (command == "komi") {  // no komi in a connection game: accepted, ignored
    need_args(args, 1, "komi VALUE");
    parse_number(args[0], "komi");
    return "";
  }
  if (command == "play") return play(args);
  if (command == "genmove") return genmove(args);
  if (command == "undo") {
    need_args(args, 0, "undo");
    if (record_.moves.empty()) throw GtpError("cannot undo: no move has been played");
    record_.moves.pop_back();
    return "";
  }
  if (command == "showboard") {
    need_args(args, 0, "showboard");
    return showboard();
  }
  if (command == "time_settings") {
    need_args(args, 3, "time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES");
    const double main = parse_number(args[0], "main time"), byo = parse_number(args[1], "byo-yomi time");
    const int stones = parse_int(args[2], "byo-yomi stones");
    if (main < 0 || byo < 0 || stones < 0) throw GtpError("time settings must not be negative");
    main_time_ = main, byo_time_ = byo, byo_stones_ = stones;
    time_left_[0] = time_left_[1] = -1;
    return "";
  }
  if (command == "time_left") {
    need_args(args, 3, "time_left COLOR TIME STONES");
    const Color c = parse_color(args[0]);
    const double t = parse_number(args[1], "time");
    const int stones = parse_int(args[2], "stones");
    if (t < 0 || stones < 0) throw GtpError("time left must not be negative");
    time_left_[c] = t, stones_left_[c] = stones;
    return "";
  }
  if (command == "final_score") {
    need_args(args, 0, "final_score");
    const Snapshot s = snapshot(record_);
    if (s.winner < 0) throw GtpError("the game is not over");
    return s.winner == Black ? "B+" : "W+";
  }
  if (command == "konobi-winner") {
    need_args(args, 0, "konobi-winner");
    return winner();
  }
  if (command == "konobi-record") {
    need_args(args, 0, "konobi-record");
    return format_record(record_.spec.size, record_.moves);
  }
  if (command == "konobi-said") {
    need_args(args, 0, "konobi-said");
    return said_;
  }
  if (command == "konobi-position") {
    need_args(args, 0, "konobi-position");
    return snapshot(record_).position;
  }
  if (command == "konobi-game") {
    if (args.empty() || args.size() > 3)
      throw GtpError("syntax error: usage konobi-game konobi|gonnect [KO] [EDGES]");
    GameSpec spec = record_.spec;
    if (args[0] == "konobi") {
      if (args.size() > 1) throw GtpError("konobi has no ko or edge rule");
      spec.gonnect = false;
    } else if (args[0] == "gonnect") {
      spec.gonnect = true;
      for (size_t i = 1; i < args.size(); ++i) {
        if (const auto ko = parse_ko_rule(args[i])) spec.ko = *ko;
        else if (const auto edges = parse_edge_rule(args[i])) spec.edges = *edges;
        else
          throw GtpError("unknown Gonnect rule " + quote_token(args[i]) + " (simple, superko, either, own)");
      }
    } else {
      throw GtpError("unknown game " + quote_token(args[0]) + " (konobi or gonnect)");
    }
    record_.spec = spec;
    record_.moves.clear();
    return "";
  }
  throw GtpError("unknown command " + quote_token(command));
}

void GtpSession::pass_until(Color c) {
  const Snapshot s = snapshot(record_);
  if (s.winner >= 0 || s.to_move == c) return;
  if (!s.must_pass)
    throw GtpError(std::string("it is ") + color_name(s.to_move) + "'s turn, not " + color_name(c) + "'s");
  record_.moves.push_back(kPass);  // the other side's forced pass
}

std::string GtpSession::play(const std::vector<std::string>& args) {
  need_args(args, 2, "play COLOR VERTEX");
  const Color c = parse_color(args[0]);
  const Move m = parse_move(record_.spec.size, lower(args[1]));
  const GameRecord before = record_;
  try {
    pass_until(c);
    const Snapshot s = snapshot(record_, m);
    if (s.winner >= 0) throw GtpError("the game is over: " + winner() + " has won");
    if (!s.why_illegal.empty()) throw GtpError("illegal move: " + s.why_illegal);
    record_.moves.push_back(m);
  } catch (...) {
    record_ = before;
    throw;
  }
  return "";
}

std::string GtpSession::genmove(const std::vector<std::string>& args) {
  need_args(args, 1, "genmove COLOR");
  const Color c = parse_color(args[0]);
  const GameRecord before = record_;
  try {
    pass_until(c);
    const Snapshot s = snapshot(record_);
    if (s.winner >= 0) throw GtpError("the game is over: " + winner() + " has won");
    const uint64_t seed = mix64(opt_.seed + 0x9e3779b97f4a7c15ull * ++moves_made_);
    Move m;
    if (opt_.player == GtpOptions::Player::Engine) {
      EngineLimits limits;
      limits.seconds = think_seconds(c);
      limits.playouts = opt_.playouts;
      limits.table_mb = opt_.table_mb;
      limits.seed = seed;
      const EngineChoice choice = engine_move(record_, limits);
      m = choice.move;
      said_ = choice.said;
    } else {
      said_ = "";
      m = baseline_move(
          record_, opt_.player == GtpOptions::Player::Random ? Baseline::Random : Baseline::Greedy, seed);
    }
    record_.moves.push_back(m);
    return move_name(record_.spec.size, m);
  } catch (...) {
    record_ = before;
    throw;
  }
}

double GtpSession::think_seconds(Color c) const {
  double t = opt_.think;
  const int cells = record_.spec.size * record_.spec.size;
  // A share of what is left: about the moves this side may still make.
  const double moves_left = std::max(4.0, double(cells - int(record_.moves.size())) / 4);
  if (time_left_[c] >= 0) {
    const double share = stones_left_[c] > 0 ? time_left_[c] / stones_left_[c] : time_left_[c] / moves_left;
    t = std::min(t, share * 0.8);
  } else if (main_time_ > 0) {
    t = std::min(t, main_time_ / moves_left * 0.8 + (byo_stones_ > 0 ? byo_time_ / byo_stones_ * 0.5 : 0));
  }
  return std::max(0.02, t);
}

std::string GtpSession::winner() const {
  const Snapshot s = snapshot(record_);
  return s.winner < 0 ? "none" : s.winner == Black ? "black" : "white";
}

std::string GtpSession::showboard() const {
  const Snapshot s = snapshot(record_);
  std::ostringstream out;
  std::string letters = "   ";
  for (int x = 0; x < s.n; ++x) letters += std::string(1, char('a' + x)) + " ";
  out << "\n" << letters << "\n";
  for (int y = s.n - 1; y >= 0; --y) {
    out << (y + 1 < 10 ? " " : "") << y + 1 << " ";
    for (int x = 0; x < s.n; ++x) {
      const int v = s.cells[y * s.n + x];
      out << (v == Black ? 'X' : v == White ? 'O' : '.') << ' ';
    }
    out << y + 1 << "\n";
  }
  out << letters << "\n";
  if (s.winner >= 0) out << color_name(Color(s.winner)) << " has won";
  else out << color_name(s.to_move) << " to move" << (s.must_pass ? " (must pass)" : "");
  out << "\nPosition: " << s.position;
  return out.str();
}

}  // namespace konobi
