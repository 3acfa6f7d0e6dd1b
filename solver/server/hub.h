// The hub: every game the server holds, who sits where, who watches, and the
// answers to each message of the protocol (docs/SERVER.md). It knows nothing
// of sockets: the transport reports each connection's opening, messages and
// closing, and the hub answers through a send callback. That keeps the
// protocol testable without a network.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace konobi {

struct HubOptions {
  std::string data_dir = "konobi-data";  // holds games.sqlite
  std::string results_dir;               // shipped results and puzzles
  double engine_seconds = 2;             // engine time per move unless the game asks for less
  double max_engine_seconds = 10;        // the most a game may ask for
  int max_engines = 2;                   // engines thinking at once; others wait their turn
  double analysis_seconds = 2;           // solver time for one analysis
  int max_games = 10000;                 // unfinished games held at once
  int max_games_per_player = 20;         // unfinished games one player token may have created
};

using ConnectionId = std::uint64_t;

struct HubStats {
  long connections = 0, games = 0, moves = 0, engines_thinking = 0;
};

class Hub {
 public:
  // Thread-safe, called from any thread, never while the hub holds a lock
  // the callee could wait on.
  using Send = std::function<void(ConnectionId, std::string)>;

  // Opens (or creates) the store under options.data_dir and loads the
  // unfinished games; throws std::runtime_error naming what is wrong.
  Hub(const HubOptions& options, Send send);
  ~Hub();  // stops the engines and waits for them
  Hub(const Hub&) = delete;
  Hub& operator=(const Hub&) = delete;

  // peer: the remote address, for limits per address.
  void open(ConnectionId c, const std::string& peer);
  void close(ConnectionId c);
  // One text message from connection c; every reply goes through send.
  void receive(ConnectionId c, std::string_view text);

  // The record file of a finished game, or nothing for an unknown or
  // unfinished one (served at /records/ID.txt).
  std::optional<std::string> record(std::string_view id) const;
  HubStats stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace konobi
