// The client's messages of docs/SERVER.md, read and checked before the hub
// acts on any of them: the size, the nesting, that the text is one JSON
// object, that its type is known, that every field is one that type takes,
// of the right type and in range. A bad message throws MessageError naming
// what is wrong, with the request number when one could be read, so that the
// error reply carries it.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace konobi {

// The largest message the hub reads, and the deepest nesting (the deepest a
// valid message has is 2: puzzle_move's list of moves).
constexpr size_t kMaxMessageBytes = 4096;
constexpr int kMaxMessageDepth = 4;

struct MessageError : std::runtime_error {
  MessageError(const std::string& what, std::optional<long long> req) : std::runtime_error(what), req(req) {}
  std::optional<long long> req;
};

struct ClientMessage {
  std::string type;  // create, join, leave, move, undo, resign, analyze, knowledge, puzzles, puzzle_move
  std::optional<long long> req;
  std::string id;      // the game: join, leave, move, undo, resign, analyze
  std::string player;  // the person's token: create, join
  std::string name;    // a display name, may be empty
  // create and knowledge
  std::string game = "konobi";  // "konobi" or "gonnect"
  int size = 0;
  std::string mode;              // "local", "online", "engine"
  int seat = 0;                  // 0: first, 1: second
  std::string ko = "superko";    // Gonnect
  std::string edges = "either";  // Gonnect
  double engine_seconds = 0;     // 0: the hub's default
  std::string position;          // create: a start position (docs/NOTATION.md), "" for the empty board
  // move
  std::string move;
  long long ply = 0;
  // puzzle_move
  int index = 0;
  std::vector<std::string> moves;
};

// Throws MessageError.
ClientMessage parse_message(std::string_view text);

// A player token: 16 to 64 characters of [A-Za-z0-9_-].
bool valid_token(std::string_view s);

}  // namespace konobi
