#include "messages.h"

#include <algorithm>
#include <initializer_list>

#include "core/types.h"
#include "solver/io/json.h"

namespace konobi {

namespace {

// The deepest nesting of arrays and objects, read before the parser builds
// anything, so that "[[[[...]]]]" costs nothing.
int nesting_depth(std::string_view text) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char ch : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (ch == '\\') escaped = true;
      else if (ch == '"') in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (ch == ']' || ch == '}') {
      --depth;
    }
  }
  return deepest;
}

struct FieldSpec {
  const char* type;
  std::initializer_list<const char*> required, optional;
};

// clang-format off
const FieldSpec kSpecs[] = {
  {"create",      {"game", "size", "mode", "player"}, {"name", "seat", "ko", "edges", "engine_seconds", "position"}},
  {"join",        {"id", "player"},                   {"name"}},
  {"leave",       {"id"},                             {}},
  {"move",        {"id", "move", "ply"},              {}},
  {"undo",        {"id"},                             {}},
  {"resign",      {"id"},                             {}},
  {"analyze",     {"id"},                             {}},
  {"knowledge",   {"game", "size"},                   {"ko", "edges"}},
  {"puzzles",     {"size"},                           {}},
  {"puzzle_move", {"size", "index", "moves"},         {}},
};
// clang-format on

const std::string& short_string(const JsonField& f, size_t most) {
  const std::string& s = f.str();
  if (s.size() > most) f.fail("longer than " + std::to_string(most) + " characters");
  return s;
}

}  // namespace

bool valid_token(std::string_view s) {
  if (s.size() < 16 || s.size() > 64) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

ClientMessage parse_message(std::string_view text) {
  ClientMessage m;
  if (text.size() > kMaxMessageBytes)
    throw MessageError("message of " + std::to_string(text.size()) + " bytes; the limit is " +
                           std::to_string(kMaxMessageBytes),
                       std::nullopt);
  if (nesting_depth(text) > kMaxMessageDepth)
    throw MessageError("message nested deeper than " + std::to_string(kMaxMessageDepth) + " levels",
                       std::nullopt);
  Json doc;
  try {
    doc = parse_json(text);
  } catch (const JsonError& e) { throw MessageError(e.what(), std::nullopt); }
  if (!doc.is_object()) throw MessageError("a message is a JSON object", std::nullopt);
  try {
    const JsonField root(doc, "");
    // The request number first, so that every later error can carry it.
    if (root.has("req")) m.req = root["req"].integer(0, (1ll << 53));
  } catch (const JsonError& e) { throw MessageError(e.what(), std::nullopt); }
  try {
    const JsonField root(doc, "");
    m.type = short_string(root["type"], 32);
    const FieldSpec* spec = nullptr;
    for (const FieldSpec& s : kSpecs)
      if (m.type == s.type) spec = &s;
    if (!spec) root["type"].fail("unknown message type '" + m.type + "'");
    for (const auto& [key, value] : doc.items()) {
      (void)value;
      const auto known = [&](std::initializer_list<const char*> l) {
        return std::any_of(l.begin(), l.end(), [&](const char* k) { return key == k; });
      };
      if (key != "type" && key != "req" && !known(spec->required) && !known(spec->optional))
        throw MessageError("unknown field '" + key.substr(0, 40) + "' in a " + m.type + " message", m.req);
    }
    for (const char* k : spec->required) (void)root[k];  // throws "k: missing"

    if (root.has("id")) m.id = short_string(root["id"], 32);
    if (root.has("player")) {
      m.player = root["player"].str();
      if (!valid_token(m.player))
        root["player"].fail("a player token is 16 to 64 characters of A-Z a-z 0-9 _ -");
    }
    if (root.has("name")) m.name = short_string(root["name"], 40);
    if (root.has("game")) m.game = root["game"].one_of({"konobi", "gonnect"});
    if (root.has("size")) m.size = int(root["size"].integer(kMinSize, kMaxSize));
    if (root.has("mode")) m.mode = root["mode"].one_of({"local", "online", "engine"});
    if (root.has("seat")) m.seat = root["seat"].one_of({"first", "second"}) == "first" ? 0 : 1;
    if (root.has("ko")) m.ko = root["ko"].one_of({"superko", "simple"});
    if (root.has("edges")) m.edges = root["edges"].one_of({"either", "own"});
    if (root.has("engine_seconds")) m.engine_seconds = root["engine_seconds"].number(0.01, 3600);
    // 19x19 with row separators and the side to move: 380 characters.
    if (root.has("position")) m.position = short_string(root["position"], 400);
    if (root.has("move")) m.move = short_string(root["move"], 8);
    if (root.has("ply")) m.ply = root["ply"].integer(0, 100000);
    if (root.has("index")) m.index = int(root["index"].integer(0, 100000));
    if (root.has("moves")) {
      if (root["moves"].array_size() > size_t(kMaxCells) * 4) root["moves"].fail("too many moves");
      for (const JsonField& f : root["moves"].array()) m.moves.push_back(short_string(f, 8));
    }
    if ((m.type == "create" || m.type == "knowledge") && m.game == "konobi" &&
        (root.has("ko") || root.has("edges")))
      throw MessageError("ko and edges are Gonnect's options; this game is konobi", m.req);
  } catch (const JsonError& e) { throw MessageError(e.what(), m.req); }
  return m;
}

}  // namespace konobi
