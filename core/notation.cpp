#include "notation.h"

#include <cctype>

namespace konobi {

void check_size(int n) {
  if (n < kMinSize || n > kMaxSize)
    throw ParseError("board size " + std::to_string(n) + " is out of range: sizes " +
                     std::to_string(kMinSize) + " to " + std::to_string(kMaxSize) + " are supported");
}

std::string point_name(int n, int p) { return std::string(1, char('a' + p % n)) + std::to_string(p / n + 1); }

std::string quote_token(std::string_view text) {
  constexpr size_t kShown = 40;
  if (text.size() <= kShown) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, kShown)) + "...' (" + std::to_string(text.size()) + " characters)";
}

int parse_point(int n, std::string_view t) {
  const std::string quoted = quote_token(t);
  if (t.size() < 2 || !std::isalpha(static_cast<unsigned char>(t[0])))
    throw ParseError(quoted + " is not a point: expected a column letter and a row number, like c3");
  const int col = std::tolower(static_cast<unsigned char>(t[0])) - 'a';
  int row = 0;
  for (size_t i = 1; i < t.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(t[i])) || i > 2 || (i == 1 && t[i] == '0' && t.size() > 2))
      throw ParseError(quoted + " is not a point: expected a column letter and a row number, like c3");
    row = row * 10 + (t[i] - '0');
  }
  const std::string size = std::to_string(n) + "x" + std::to_string(n);
  if (col >= n)
    throw ParseError(quoted + " is off the " + size + " board: columns run from a to " +
                     std::string(1, char('a' + n - 1)));
  if (row < 1 || row > n)
    throw ParseError(quoted + " is off the " + size + " board: rows run from 1 to " + std::to_string(n));
  return (row - 1) * n + col;
}

std::string move_name(int n, Move m) {
  if (m == kPass) return "pass";
  if (m == kSwap) return "swap";
  return point_name(n, m);
}

Move parse_move(int n, std::string_view t) {
  std::string lower;
  for (char ch : t) lower += char(std::tolower(static_cast<unsigned char>(ch)));
  if (lower == "pass") return kPass;
  if (lower == "swap") return kSwap;
  return parse_point(n, t);
}

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : text) {
    if (std::isspace(static_cast<unsigned char>(ch)) || ch == ',') {
      if (!cur.empty()) out.push_back(std::move(cur)), cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

std::vector<Move> parse_record(int n, std::string_view text) {
  check_size(n);
  std::vector<Move> moves;
  const auto words = split_words(text);
  for (size_t i = 0; i < words.size(); ++i) {
    try {
      moves.push_back(parse_move(n, words[i]));
    } catch (const ParseError& e) { throw ParseError("move " + std::to_string(i + 1) + ": " + e.what()); }
  }
  return moves;
}

std::string format_record(int n, const std::vector<Move>& moves) {
  std::string s;
  for (Move m : moves) {
    if (!s.empty()) s += ' ';
    s += move_name(n, m);
  }
  return s;
}

PositionText parse_position(std::string_view text) {
  const auto words = split_words(text);
  if (words.empty()) throw ParseError("position is empty: expected rows like '.../.B./... w'");
  if (words.size() > 3)
    throw ParseError("position has " + std::to_string(words.size()) +
                     " fields: expected rows, the side to move (b or w) and optionally 'swap'");
  // Rows, top row first.
  std::vector<std::vector<int>> rows(1);
  const std::string& board = words[0];
  for (size_t i = 0; i < board.size(); ++i) {
    const char ch = board[i];
    // Built only for a message: a proof of millions of entries is parsed
    // here line by line, and a string per character was most of its cost.
    const auto where = [&](size_t at) {
      return "position character " + std::to_string(at + 1) + " (row " + std::to_string(rows.size()) +
             " from the top)";
    };
    if (ch == '/') {
      rows.emplace_back();
    } else if (ch == '.' || ch == '-') {
      rows.back().push_back(-1);
    } else if (ch == 'B' || ch == 'b' || ch == 'X' || ch == 'x') {
      rows.back().push_back(Black);
    } else if (ch == 'W' || ch == 'w' || ch == 'O' || ch == 'o') {
      rows.back().push_back(White);
    } else if (std::isdigit(static_cast<unsigned char>(ch))) {
      int run = 0;
      const size_t start = i;
      while (i < board.size() && std::isdigit(static_cast<unsigned char>(board[i]))) {
        run = run * 10 + (board[i++] - '0');
        if (run > kMaxSize) break;  // stop before the number can overflow
      }
      if (run == 0 || run > kMaxSize)
        throw ParseError(where(start) + ": a run of " + board.substr(start, i - start) +
                         "... empty points is impossible");
      --i;
      rows.back().insert(rows.back().end(), run, -1);
    } else {
      throw ParseError(where(i) + ": '" + std::string(1, ch) +
                       "' is not a point; use '.' for empty, 'B' or 'W' for stones, '/' between rows");
    }
  }
  PositionText pos;
  pos.n = int(rows.size());
  if (pos.n < kMinSize || pos.n > kMaxSize)
    throw ParseError("position has " + std::to_string(pos.n) + " rows: boards from " +
                     std::to_string(kMinSize) + "x" + std::to_string(kMinSize) + " to " +
                     std::to_string(kMaxSize) + "x" + std::to_string(kMaxSize) + " are supported");
  pos.cells.assign(pos.n * pos.n, -1);
  for (int r = 0; r < pos.n; ++r) {
    if (int(rows[r].size()) != pos.n)
      throw ParseError("position row " + std::to_string(r + 1) + " from the top (board row " +
                       std::to_string(pos.n - r) + ") has " + std::to_string(rows[r].size()) +
                       " points; a board with " + std::to_string(pos.n) + " rows needs " +
                       std::to_string(pos.n) + " in each");
    for (int c = 0; c < pos.n; ++c) pos.cells[(pos.n - 1 - r) * pos.n + c] = rows[r][c];
  }
  if (words.size() >= 2) {
    const std::string& side = words[1];
    if (side == "b" || side == "B" || side == "black") pos.to_move = Black;
    else if (side == "w" || side == "W" || side == "white") pos.to_move = White;
    else throw ParseError("side to move " + quote_token(side) + " is neither 'b' nor 'w'");
  } else {
    int stones = 0;
    for (int v : pos.cells) stones += v >= 0;
    pos.to_move = stones % 2 == 0 ? Black : White;  // documented default
  }
  if (words.size() == 3) {
    if (words[2] != "swap")
      throw ParseError("third position field " + quote_token(words[2]) + " is not 'swap'");
    int black = 0, white = 0;
    for (int v : pos.cells) black += v == Black, white += v == White;
    if (!(black == 1 && white == 0 && pos.to_move == White))
      throw ParseError("'swap' is only possible with one Black stone on the board and White to move");
    pos.swap_available = true;
  }
  return pos;
}

std::string format_position(const PositionText& pos) {
  std::string s;
  for (int r = pos.n - 1; r >= 0; --r) {
    for (int c = 0; c < pos.n; ++c) {
      const int v = pos.cells[r * pos.n + c];
      s += v < 0 ? '.' : v == Black ? 'B' : 'W';
    }
    if (r) s += '/';
  }
  s += pos.to_move == Black ? " b" : " w";
  if (pos.swap_available) s += " swap";
  return s;
}

}  // namespace konobi
