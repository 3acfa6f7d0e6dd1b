// Text forms of points, moves, game records and positions (docs/NOTATION.md).
// Parsers throw ParseError with a message that names what is wrong and where.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "types.h"

namespace konobi {

struct ParseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A word of the user's input for a message, in single quotes: only its first
// 40 characters and "..." when it is longer, so that a mistake such as a
// whole file pasted as one word does not fill the screen.
std::string quote_token(std::string_view text);

// Throws ParseError unless 3 <= n <= 19.
void check_size(int n);

std::string point_name(int n, int p);           // "c3"
int parse_point(int n, std::string_view text);  // throws ParseError
std::string move_name(int n, Move m);           // "c3", "pass", "swap"
Move parse_move(int n, std::string_view text);  // throws ParseError
std::vector<Move> parse_record(int n, std::string_view text);
std::string format_record(int n, const std::vector<Move>& moves);

// A position independent of the board's word count.
struct PositionText {
  int n = 0;
  std::vector<int> cells;  // by point: -1 empty, 0 Black, 1 White
  Color to_move = Black;
  bool swap_available = false;
};

// "rows/from/the/top b|w [swap]": '.' empty, 'B' and 'W' stones, a number is
// that many empty points. The number of rows is the size.
PositionText parse_position(std::string_view text);
std::string format_position(const PositionText& pos);

// Splits on whitespace and commas.
std::vector<std::string> split_words(std::string_view text);

}  // namespace konobi
