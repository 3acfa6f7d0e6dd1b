#include "hub.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "core/game.h"
#include "game_room.h"
#include "game_store.h"
#include "knowledge.h"
#include "messages.h"
#include "solver/engine/engine.h"
#include "solver/io/json.h"

namespace konobi {

namespace {

// A connection's place in a game.
enum Role { kFirst = 0, kSecond = 1, kBoth = 2, kWatcher = 3 };
const char* role_name(int r) {
  static const char* const names[] = {"first", "second", "both", "watcher"};
  return names[r];
}
const char* seat_name(int s) { return s == 0 ? "first" : "second"; }

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string utc_date(double t) {
  const std::time_t s = std::time_t(t);
  std::tm tm{};
  gmtime_r(&s, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// A request failed: the message goes back to the sender and nothing changed.
struct Refusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Seat {
  std::string player, name;  // player: the token, "" while free
  bool engine = false;
};

struct Room {
  std::string id, mode, creator;
  std::string start;  // the start position (docs/NOTATION.md), "" for the empty board
  double engine_seconds = 0, created = 0, finished = 0;
  std::unique_ptr<PlayedGame> game;
  Seat seats[2];
  int resigned = -1;                    // the colour that resigned
  std::string reason;                   // once over: "connection", "no-move", "resign"
  std::vector<std::string> events;      // what the last change did besides the move
  std::map<ConnectionId, int> viewers;  // connection -> Role
  // The engine's turn: the flag it watches, set when its answer is no
  // longer wanted (an undo, the hub closing).
  std::shared_ptr<std::atomic<bool>> thinking;
  std::string said;

  bool over() const { return resigned >= 0 || game->over(); }
  int winner() const { return resigned >= 0 ? int(other(Color(resigned))) : game->winner(); }
  // The seat that holds colour c: the first player holds Black until a swap.
  int seat_of(Color c) const { return int(c) ^ int(game->swapped()); }
  int seat_to_move() const { return seat_of(game->to_move()); }
  int engine_seat() const { return seats[0].engine ? 0 : seats[1].engine ? 1 : -1; }
};

using Outbox = std::vector<std::pair<ConnectionId, std::string>>;

std::string error_text(std::optional<long long> req, const std::string& message) {
  Json j = {{"type", "error"}};
  if (req) j["req"] = *req;
  j["message"] = message;
  return json_text(j, false);
}

GameSpec spec_of(const std::string& game, int size, const std::string& ko, const std::string& edges) {
  GameSpec s;
  s.gonnect = game == "gonnect";
  s.size = size;
  // Both callers hand over names checked before (a message on arrival, a
  // stored game when it was written); a game of Konobi leaves them empty.
  s.ko = parse_ko_rule(ko).value_or(KoRule::Superko);
  s.edges = parse_edge_rule(edges).value_or(EdgeRule::Either);
  return s;
}

}  // namespace

struct Hub::Impl {
  HubOptions options;
  Send send;
  GameStore store;
  Knowledge knowledge;

  mutable std::mutex mu;  // everything below
  std::mutex send_mu;     // taken before mu is released: messages leave in the order they were made
  std::map<ConnectionId, std::set<std::string>> connections;  // the games each has joined
  std::map<std::string, Room> rooms;
  long moves_played = 0;
  std::mt19937_64 rng{std::random_device{}()};

  // The engines: jobs run on at most options.max_engines threads, off mu.
  // A job thinks off the lock and returns what to do with its answer,
  // which the worker runs under the lock (the finish adds the messages to
  // send); a job is counted as running until its finish is done.
  using Finish = std::function<void(Outbox&)>;
  std::deque<std::function<Finish()>> jobs;
  std::condition_variable jobs_cv;
  std::vector<std::thread> workers;
  int running = 0;
  bool stopping = false;
  std::atomic<bool> closing{false};  // stops the searches of analyses and puzzles

  Impl(const HubOptions& o, Send s)
      : options(o), send(std::move(s)), store(o.data_dir), knowledge(o.results_dir) {
    std::lock_guard lock(mu);
    for (const StoredGame& g : store.unfinished()) load_room(g);
    // Engines only once every game is in: a bad game above throws before
    // any worker thread exists.
    for (auto& [id, r] : rooms) schedule_engine(r);
  }

  // ---- sending ----------------------------------------------------------

  // Called with mu held (lock): hands the lock over to send_mu and sends.
  void deliver(std::unique_lock<std::mutex>& lock, Outbox& out) {
    std::lock_guard order(send_mu);
    lock.unlock();
    for (auto& [c, text] : out) send(c, std::move(text));
    out.clear();
  }

  // ---- rooms -------------------------------------------------------------

  Room& load_room(const StoredGame& g) {
    Room r;
    r.id = g.id;
    r.mode = g.mode;
    r.creator = g.creator;
    r.engine_seconds = g.engine_seconds;
    r.created = g.created;
    r.finished = g.finished;
    for (int s = 0; s < 2; ++s) r.seats[s] = {g.seats[s].player, g.seats[s].name, g.seats[s].engine};
    try {
      r.start = g.start;
      r.game = PlayedGame::from_position(spec_of(g.game, g.size, g.ko, g.edges), g.start, {});
      for (const std::string& m : g.moves) r.game->play(parse_move(g.size, m));
    } catch (const std::exception& e) {  // ParseError, RuleError: the file was changed behind our back
      throw std::runtime_error(store.path() + ": game " + g.id + " does not replay (" + e.what() +
                               "): the store is damaged");
    }
    if (g.over()) {
      r.reason = g.reason;
      if (g.reason == "resign") r.resigned = g.winner == "black" ? White : Black;
    }
    return rooms[g.id] = std::move(r);
  }

  // The room of a message's id that connection c has joined.
  Room& joined_room(ConnectionId c, const std::string& id) {
    const auto it = rooms.find(id);
    if (it == rooms.end() || !it->second.viewers.count(c)) {
      if (it == rooms.end() && !store.load(id)) throw Refusal("no game " + id);
      throw Refusal("join game " + id + " first");
    }
    return it->second;
  }

  bool seat_connected(const Room& r, int s) const {
    if (r.seats[s].engine) return true;
    for (const auto& [c, role] : r.viewers)
      if (role == s || (role == kBoth && r.seats[s].player == r.creator)) return true;
    return false;
  }

  Json state_json(const Room& r) const {
    const GameSpec& spec = r.game->spec();
    Json j = {
        {"type", "state"}, {"id", r.id}, {"game", spec.gonnect ? "gonnect" : "konobi"}, {"size", spec.size}};
    j["ko"] = spec.gonnect ? Json(ko_rule_name(spec.ko)) : Json(nullptr);
    j["edges"] = spec.gonnect ? Json(edge_rule_name(spec.edges)) : Json(nullptr);
    j["mode"] = r.mode;
    j["start"] = r.start.empty() ? Json(nullptr) : Json(r.start);
    r.game->write_state(j);
    if (r.resigned >= 0) {
      j["to_move"] = "none";
      j["swap_available"] = false;
      j["must_pass"] = false;
      j["winner"] = r.winner() == Black ? "black" : "white";
      j["legal"] = Json::array();
      j["illegal"] = Json::array();
    }
    j["reason"] = r.over() ? Json(r.reason) : Json(nullptr);
    j["events"] = r.events;
    Json& players = j["players"] = Json::array();
    for (int s = 0; s < 2; ++s) {
      const Seat& seat = r.seats[s];
      const bool free = !seat.engine && seat.player.empty();
      players.push_back({{"seat", seat_name(s)},
                         {"name", free ? Json(nullptr) : Json(seat.name)},
                         {"color", Color(s ^ int(r.game->swapped())) == Black ? "black" : "white"},
                         {"kind", seat.engine ? "engine" : "human"},
                         {"free", free},
                         {"connected", seat_connected(r, s)}});
    }
    j["you"] = nullptr;
    if (r.mode == "engine")
      j["engine"] = {{"thinking", bool(r.thinking)},
                     {"said", r.said.empty() ? Json(nullptr) : Json(r.said)},
                     {"seconds", json_number(r.engine_seconds)}};
    else j["engine"] = nullptr;
    return j;
  }

  // The state to every connection in the room; `to` gets `req` with it.
  void broadcast(const Room& r, Outbox& out, ConnectionId to = 0,
                 std::optional<long long> req = std::nullopt) {
    Json j = state_json(r);
    for (const auto& [c, role] : r.viewers) {
      j["you"] = role_name(role);
      if (c == to && req) j["req"] = *req;
      else j.erase("req");
      out.emplace_back(c, json_text(j, false));
    }
  }

  StoredGame snapshot(const Room& r) const {
    StoredGame g;
    const GameSpec& spec = r.game->spec();
    g.id = r.id;
    g.game = spec.gonnect ? "gonnect" : "konobi";
    g.size = spec.size;
    g.ko = spec.gonnect ? ko_rule_name(spec.ko) : "";
    g.edges = spec.gonnect ? edge_rule_name(spec.edges) : "";
    g.mode = r.mode;
    g.engine_seconds = r.engine_seconds;
    g.creator = r.creator;
    g.created = r.created;
    g.start = r.start;
    for (int s = 0; s < 2; ++s) g.seats[s] = {r.seats[s].player, r.seats[s].name, r.seats[s].engine};
    for (Move m : r.game->moves()) g.moves.push_back(move_name(spec.size, m));
    if (r.over()) {
      g.winner = r.winner() == Black ? "black" : "white";
      g.reason = r.reason;
      g.finished = r.finished;
    }
    return g;
  }

  // Plays m (legal, checked by the caller) and the forced passes after it;
  // writes them to the store before anything is sent; on a store failure
  // takes them back and throws Refusal.
  void apply_move(Room& r, Move m) {
    const int n = r.game->size();
    const size_t before = r.game->moves().size();
    r.events.clear();
    r.game->play(m);
    while (!r.game->over() && r.game->must_pass()) {
      r.events.push_back(std::string(color_name(r.game->to_move())) + " has no legal placement and passes");
      r.game->play(kPass);
    }
    std::vector<std::string> names;
    for (size_t i = before; i < r.game->moves().size(); ++i)
      names.push_back(move_name(n, r.game->moves()[i]));
    StoredGame ended;
    if (r.game->over()) {
      ended.winner = r.game->winner() == Black ? "black" : "white";
      ended.reason = r.game->ended_without_move() ? "no-move" : "connection";
      ended.finished = now_seconds();
      if (r.game->ended_without_move())
        r.events.push_back(std::string(color_name(r.game->to_move())) + " has no legal move and loses");
    }
    try {
      store.append(r.id, before, names, now_seconds(), r.game->over() ? &ended : nullptr);
    } catch (const std::exception& e) {
      r.game->truncate(before);
      r.events.clear();
      throw Refusal(std::string("the move could not be saved, so it was not played: ") + e.what());
    }
    moves_played += long(names.size());
    if (r.game->over()) {
      r.reason = ended.reason;
      r.finished = ended.finished;
    }
  }

  // ---- the engine --------------------------------------------------------

  void start_workers() {
    while (int(workers.size()) < std::max(1, options.max_engines)) workers.emplace_back([this] { work(); });
  }

  void work() {
    std::unique_lock lock(mu);
    for (;;) {
      jobs_cv.wait(lock, [&] { return stopping || !jobs.empty(); });
      if (stopping) return;
      std::function<Finish()> job = std::move(jobs.front());
      jobs.pop_front();
      ++running;
      lock.unlock();
      Finish finish = job();  // the search, off the lock (jobs catch their own errors)
      lock.lock();
      Outbox out;
      if (finish && !stopping) finish(out);
      --running;
      if (!out.empty()) {
        deliver(lock, out);
        lock.lock();
      }
    }
  }

  void enqueue(std::function<Finish()> job) {
    if (stopping) return;  // the hub is closing: its workers are being joined
    start_workers();
    jobs.push_back(std::move(job));
    jobs_cv.notify_one();
  }

  // In an engine game, when the engine's seat is to move, queues its turn.
  void schedule_engine(Room& r) {
    if (r.over() || r.thinking || r.engine_seat() < 0 || r.seat_to_move() != r.engine_seat()) return;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    r.thinking = flag;
    GameRecord rec;
    rec.spec = r.game->spec();
    rec.start = r.start;
    rec.moves = r.game->moves();
    EngineLimits limits;
    limits.seconds = r.engine_seconds;
    const std::string id = r.id;
    const size_t ply = rec.moves.size();
    enqueue([this, rec, limits, flag, id, ply] {
      EngineChoice choice;
      std::string failed;
      try {
        choice = engine_move(rec, limits, flag.get());
      } catch (const std::exception& e) { failed = e.what(); }
      return [this, choice, failed, flag, id, ply](Outbox& out) {
        finish_engine(choice, failed, flag, id, ply, out);
      };
    });
  }

  // The engine's answer, under the lock.
  void finish_engine(const EngineChoice& choice, std::string failed,
                     const std::shared_ptr<std::atomic<bool>>& flag, const std::string& id, size_t ply,
                     Outbox& out) {
    {
      const auto it = rooms.find(id);
      // An undo, a resignation or the hub closing took the question back.
      if (it == rooms.end() || it->second.thinking != flag) return;
      Room& r = it->second;
      r.thinking.reset();
      if (*flag || r.game->moves().size() != ply || r.over()) return;
      if (failed.empty() && !r.game->why_illegal(choice.move).empty())
        failed = "the engine chose " + move_name(r.game->size(), choice.move) + ": " +
                 r.game->why_illegal(choice.move);
      if (failed.empty()) {
        try {
          apply_move(r, choice.move);
          r.said = choice.said;
        } catch (const Refusal& e) { failed = e.what(); }
      }
      if (!failed.empty()) {
        r.events = {"the engine failed: " + failed};
        r.said.clear();
      }
      broadcast(r, out);
    }
  }

  void cancel_engine(Room& r) {
    if (r.thinking) *r.thinking = true;
    r.thinking.reset();
  }

  // ---- the messages ------------------------------------------------------

  std::string new_id() {
    static const char kChars[] = "abcdefghijkmnpqrstuvwxyz23456789";
    for (;;) {
      std::string id;
      for (int i = 0; i < 12; ++i) id += kChars[rng() % (sizeof kChars - 1)];
      if (!rooms.count(id) && !store.load(id)) return id;
    }
  }

  void on_create(ConnectionId c, const ClientMessage& m, Outbox& out) {
    long open = 0, mine = 0;
    for (const auto& [id, r] : rooms)
      if (!r.over()) {
        ++open;
        mine += r.creator == m.player;
      }
    if (open >= options.max_games)
      throw Refusal("the server holds " + std::to_string(open) +
                    " unfinished games, its limit; try again later");
    if (mine >= options.max_games_per_player)
      throw Refusal("you have " + std::to_string(mine) +
                    " unfinished games, the limit per player; finish or resign one");
    Room r;
    r.id = new_id();
    r.mode = m.mode;
    r.creator = m.player;
    r.created = now_seconds();
    r.engine_seconds = std::min(m.engine_seconds > 0 ? m.engine_seconds : options.engine_seconds,
                                options.max_engine_seconds);
    // A start position is the core's to read: a bad one is refused here,
    // naming the part that is wrong, before anything is stored.
    try {
      r.game = PlayedGame::from_position(spec_of(m.game, m.size, m.ko, m.edges), m.position, {});
    } catch (const std::exception& e) { throw Refusal(std::string("position: ") + e.what()); }
    if (r.game->over()) throw Refusal("position: the game there is already over; give one still to play");
    // Kept as the core writes it (docs/NOTATION.md accepts other spellings).
    r.start = m.position.empty() ? "" : format_position(parse_position(m.position));
    if (m.mode == "local") {
      r.seats[0] = r.seats[1] = {m.player, m.name, false};
    } else {
      r.seats[m.seat] = {m.player, m.name, false};
      if (m.mode == "engine") r.seats[1 - m.seat] = {"", "Engine", true};
    }
    store.create(snapshot(r));
    Room& placed = rooms[r.id] = std::move(r);
    placed.viewers[c] = m.mode == "local" ? kBoth : m.seat;
    connections[c].insert(placed.id);
    Json created = {{"type", "created"}};
    if (m.req) created["req"] = *m.req;
    created["id"] = placed.id;
    out.emplace_back(c, json_text(created, false));
    schedule_engine(placed);
    broadcast(placed, out, c, m.req);
  }

  void on_join(ConnectionId c, const ClientMessage& m, Outbox& out) {
    auto it = rooms.find(m.id);
    if (it == rooms.end()) {
      const std::optional<StoredGame> g = store.load(m.id);
      if (!g) throw Refusal("no game " + m.id);
      load_room(*g);  // a finished game, back for its viewers
      it = rooms.find(m.id);
    }
    Room& r = it->second;
    int role = kWatcher;
    if (r.mode == "local") {
      if (r.creator == m.player) role = kBoth;
    } else {
      for (int s = 0; s < 2; ++s)
        if (!r.seats[s].engine && r.seats[s].player == m.player) role = s;
      if (role == kWatcher && r.mode == "online" && !r.over())
        for (int s = 0; s < 2 && role == kWatcher; ++s)
          if (r.seats[s].player.empty()) {
            const Seat taken{m.player, m.name, false};
            store.set_seat(r.id, s, {taken.player, taken.name, false});
            r.seats[s] = taken;
            role = s;
          }
    }
    r.events.clear();
    r.viewers[c] = role;
    connections[c].insert(r.id);
    broadcast(r, out, c, m.req);
  }

  // A finished game nobody views leaves memory; the store keeps it (join
  // and record read it back).
  void forget_if_idle(const std::string& id) {
    const auto it = rooms.find(id);
    if (it != rooms.end() && it->second.over() && it->second.viewers.empty()) rooms.erase(it);
  }

  void on_leave(ConnectionId c, const ClientMessage& m, Outbox& out) {
    Room& r = joined_room(c, m.id);
    r.viewers.erase(c);
    connections[c].erase(r.id);
    r.events.clear();
    broadcast(r, out);
    forget_if_idle(m.id);
    Json ok = {{"type", "left"}};
    if (m.req) ok["req"] = *m.req;
    ok["id"] = m.id;
    out.emplace_back(c, json_text(ok, false));
  }

  void on_move(ConnectionId c, const ClientMessage& m, Outbox& out) {
    Room& r = joined_room(c, m.id);
    const int role = r.viewers[c];
    if (role == kWatcher) throw Refusal("you are watching game " + r.id + "; watchers do not move");
    if (r.over()) throw Refusal("the game is over");
    const long long ply = (long long)r.game->moves().size();
    if (m.ply != ply)
      throw Refusal("the game has moved on: it is at move " + std::to_string(ply) +
                    ", your move was for move " + std::to_string(m.ply));
    const int seat = r.seat_to_move();
    if (r.seats[seat].engine) throw Refusal("it is the engine's turn");
    if (role != kBoth && role != seat)
      throw Refusal(std::string("it is not your turn: ") + color_name(r.game->to_move()) + " (the " +
                    seat_name(seat) + " player) is to move");
    const Move mv = parse_move(r.game->size(), m.move);
    if (const std::string why = r.game->why_illegal(mv); !why.empty()) throw Refusal(why);
    apply_move(r, mv);
    schedule_engine(r);
    broadcast(r, out, c, m.req);
  }

  void on_undo(ConnectionId c, const ClientMessage& m, Outbox& out) {
    Room& r = joined_room(c, m.id);
    if (r.mode == "online") throw Refusal("undo is for local and engine games only");
    const int role = r.viewers[c];
    if (role == kWatcher) throw Refusal("you are watching game " + r.id + "; watchers do not undo");
    if (r.resigned >= 0) throw Refusal("the game was resigned");
    // Which seat was to move before each move, by replaying the record.
    const std::vector<Move> moves = r.game->moves();
    std::unique_ptr<PlayedGame> replay = PlayedGame::from_position(r.game->spec(), r.start, {});
    std::vector<int> seat_at;
    for (Move mv : moves) {
      seat_at.push_back(int(replay->to_move()) ^ int(replay->swapped()));
      replay->play(mv);
    }
    // Back to before the last move a person chose: forced passes go with
    // the move before them, and in an engine game so do the engine's moves.
    const int engine = r.engine_seat();
    size_t k = moves.size();
    bool found = false;
    while (k > 0 && !found) {
      --k;
      found = moves[k] != kPass && (engine < 0 || seat_at[k] != engine);
    }
    if (!found) throw Refusal("there is no move of yours to take back");
    store.truncate(r.id, k);
    cancel_engine(r);
    r.game->truncate(k);
    r.events = {"took back " + std::to_string(moves.size() - k) +
                (moves.size() - k == 1 ? " move" : " moves")};
    r.said.clear();
    broadcast(r, out, c, m.req);
  }

  void on_resign(ConnectionId c, const ClientMessage& m, Outbox& out) {
    Room& r = joined_room(c, m.id);
    const int role = r.viewers[c];
    if (role == kWatcher) throw Refusal("you are watching game " + r.id + "; watchers do not resign");
    if (r.over()) throw Refusal("the game is over");
    int seat = role;
    if (role == kBoth) seat = r.seat_to_move();
    if (r.mode == "engine") seat = 1 - r.engine_seat();
    const Color loser = Color(seat ^ int(r.game->swapped()));
    const double t = now_seconds();
    store.finish(r.id, loser == Black ? "white" : "black", "resign", t);
    cancel_engine(r);
    r.resigned = loser;
    r.reason = "resign";
    r.finished = t;
    r.events = {std::string(color_name(loser)) + " resigns"};
    broadcast(r, out, c, m.req);
  }

  void on_knowledge(ConnectionId c, const ClientMessage& m, Outbox& out) {
    Json j = {{"type", "knowledge"}};
    if (m.req) j["req"] = *m.req;
    try {
      for (const auto& [k, v] : knowledge.openings(m.game == "gonnect", m.size, m.ko, m.edges).items())
        j[k] = v;
    } catch (const std::runtime_error& e) { throw Refusal(e.what()); }
    out.emplace_back(c, json_text(j, false));
  }

  void on_puzzles(ConnectionId c, const ClientMessage& m, Outbox& out) {
    Json j = {{"type", "puzzles"}};
    if (m.req) j["req"] = *m.req;
    j["size"] = m.size;
    Json& list = j["puzzles"] = Json::array();
    try {
      const PuzzleSet& set = knowledge.puzzles(m.size);
      for (size_t i = 0; i < set.puzzles.size(); ++i) {
        const PuzzleEntry& p = set.puzzles[i];
        list.push_back(
            {{"index", i}, {"position", p.position}, {"to_move", p.to_move}, {"remoteness", p.remoteness}});
      }
    } catch (const std::runtime_error& e) { throw Refusal(e.what()); }
    out.emplace_back(c, json_text(j, false));
  }

  // A job's reply to connection c, sent if c is still open.
  Finish reply_to(ConnectionId c, const Json& j) {
    return [this, c, text = json_text(j, false)](Outbox& out) {
      if (connections.count(c)) out.emplace_back(c, text);
    };
  }

  // The value of each legal move, by the solver (engine.h's analyze_moves)
  // on a worker, and at the empty board by the shipped results too.
  void on_analyze(ConnectionId c, const ClientMessage& m, Outbox&) {
    Room& r = joined_room(c, m.id);
    GameRecord rec;
    rec.spec = r.game->spec();
    rec.start = r.start;
    rec.moves = r.game->moves();
    Json openings;
    if (rec.moves.empty() && rec.start.empty() && !rec.spec.gonnect) try {
        openings = knowledge.openings(false, rec.spec.size, "", "")["openings"];
      } catch (const std::runtime_error&) {
        // No shipped results for this size: the solver alone.
      }
    EngineLimits limits;
    limits.seconds = options.analysis_seconds;
    const std::optional<long long> req = m.req;
    const std::string id = r.id;
    enqueue([this, c, rec, limits, openings, req, id] {
      const int n = rec.spec.size;
      Json j = {{"type", "analysis"}};
      if (req) j["req"] = *req;
      j["id"] = id;
      j["ply"] = rec.moves.size();
      Json& list = j["moves"] = Json::array();
      int proven = 0;
      try {
        for (const MoveAnalysis& a : analyze_moves(rec, limits, stopping_flag())) {
          Json x = {{"move", move_name(n, a.move)}};
          x["value"] = a.value > 0 ? Json("win") : a.value < 0 ? Json("loss") : Json(nullptr);
          x["remoteness"] = a.remoteness >= 0 ? Json(a.remoteness) : Json(nullptr);
          x["source"] = a.value != 0 ? Json("solver") : Json(nullptr);
          if (a.value == 0 && openings.is_array() && a.move >= 0 && size_t(a.move) < openings.size() &&
              !openings[size_t(a.move)]["value"].is_null()) {
            x["value"] = openings[size_t(a.move)]["value"];
            x["source"] = "results";
          }
          proven += !x["value"].is_null();
          list.push_back(std::move(x));
        }
        j["said"] = std::to_string(proven) + " of " + std::to_string(list.size()) + " moves known";
      } catch (const std::exception& e) {
        j = {{"type", "error"}};
        if (req) j["req"] = *req;
        j["message"] = std::string("analysis failed: ") + e.what();
      }
      return reply_to(c, j);
    });
  }

  // Checks the last move of a puzzle's line (the solver's side plays the
  // even moves, the hub answered the odd ones): the first against the
  // puzzle's one solution, later ones by whether the engine proves the
  // opponent lost. A wrong move gets the opponent's winning line.
  void on_puzzle_move(ConnectionId c, const ClientMessage& m, Outbox&) {
    const PuzzleSet* set = nullptr;
    try {
      set = &knowledge.puzzles(m.size);
    } catch (const std::runtime_error& e) { throw Refusal(e.what()); }
    if (size_t(m.index) >= set->puzzles.size())
      throw Refusal("there are " + std::to_string(set->puzzles.size()) + " puzzles of size " +
                    std::to_string(m.size) + "; index " + std::to_string(m.index) + " is not one");
    if (m.moves.empty() || m.moves.size() % 2 == 0)
      throw Refusal("moves: the puzzle's line so far, ending with your move (an odd number of moves)");
    const PuzzleEntry& p = set->puzzles[size_t(m.index)];
    GameRecord before;
    before.spec.size = m.size;
    before.start = p.position;
    for (size_t i = 0; i + 1 < m.moves.size(); ++i) before.moves.push_back(parse_move(m.size, m.moves[i]));
    const Move last = parse_move(m.size, m.moves.back());
    // Every move checked by the core before any work: a bad line is an error now.
    if (const std::string why = replay_game(before)->why_illegal(last); !why.empty()) throw Refusal(why);
    const bool first = m.moves.size() == 1;
    const bool matches = first && m.moves[0] == p.solution;
    EngineLimits limits;
    limits.seconds = options.analysis_seconds;
    const std::optional<long long> req = m.req;
    const int size = m.size, index = m.index;
    enqueue([this, c, before, last, first, matches, limits, req, size, index] {
      Json j = {{"type", "puzzle_reply"}};
      if (req) j["req"] = *req;
      j["size"] = size;
      j["index"] = index;
      try {
        j.update(judge_puzzle_move(before, last, first, matches, limits));
      } catch (const std::exception& e) {
        j = {{"type", "error"}};
        if (req) j["req"] = *req;
        j["message"] = e.what();
      }
      return reply_to(c, j);
    });
  }

  Json judge_puzzle_move(const GameRecord& before, Move last, bool first, bool matches,
                         const EngineLimits& limits) {
    const int n = before.spec.size;
    const auto names = [&](const std::vector<Move>& v) {
      Json a = Json::array();
      for (Move x : v) a.push_back(move_name(n, x));
      return a;
    };
    // The core judges legality (ParseError or RuleError from the replay).
    std::unique_ptr<PlayedGame> g = replay_game(before);
    if (const std::string why = g->why_illegal(last); !why.empty()) throw RuleError(why);
    const Color solver = g->to_move();
    g->play(last);
    GameRecord after = before;
    after.moves.push_back(last);
    Json j = {{"correct", true}, {"solved", false}, {"reply", nullptr}, {"refutation", Json::array()}};
    if (g->over()) {
      j["correct"] = g->winner() == solver;
      j["solved"] = g->winner() == solver;
      return j;
    }
    if (first && !matches) {
      j["correct"] = false;
      j["refutation"] = names(winning_line(after, limits, stopping_flag()));
      return j;
    }
    const EngineChoice answer = engine_move(after, limits, stopping_flag());
    if (!first && answer.knowledge == EngineChoice::ProvenWin) {
      j["correct"] = false;
      std::vector<Move> line = winning_line(after, limits, stopping_flag());
      if (line.empty()) line = {answer.move};
      j["refutation"] = names(line);
      return j;
    }
    j["reply"] = move_name(n, answer.move);
    g->play(answer.move);
    j["solved"] = g->over() && g->winner() == solver;
    return j;
  }

  static std::unique_ptr<PlayedGame> replay_game(const GameRecord& rec) {
    return PlayedGame::from_position(rec.spec, rec.start, rec.moves);
  }

  // The flag every job's search watches: set when the hub closes.
  const std::atomic<bool>* stopping_flag() const { return &closing; }

  void dispatch(ConnectionId c, const ClientMessage& m, Outbox& out) {
    if (m.type == "create") return on_create(c, m, out);
    if (m.type == "join") return on_join(c, m, out);
    if (m.type == "leave") return on_leave(c, m, out);
    if (m.type == "move") return on_move(c, m, out);
    if (m.type == "undo") return on_undo(c, m, out);
    if (m.type == "resign") return on_resign(c, m, out);
    if (m.type == "knowledge") return on_knowledge(c, m, out);
    if (m.type == "puzzles") return on_puzzles(c, m, out);
    if (m.type == "analyze") return on_analyze(c, m, out);
    if (m.type == "puzzle_move") return on_puzzle_move(c, m, out);
    throw Refusal("'" + m.type + "' is not served");
  }

  void receive(ConnectionId c, std::string_view text) {
    Outbox out;
    // Read and checked before the lock is taken: a bad message costs the
    // other connections nothing.
    std::optional<ClientMessage> m;
    try {
      m = parse_message(text);
    } catch (const MessageError& e) { out.emplace_back(c, error_text(e.req, e.what())); }
    std::unique_lock lock(mu);
    if (!connections.count(c)) return;  // closed, or never opened
    if (m) try {
        dispatch(c, *m, out);
      } catch (const std::exception& e) {  // Refusal, ParseError, RuleError, the store's runtime_error
        out.assign(1, {c, error_text(m->req, e.what())});
      }
    deliver(lock, out);
  }

  void close(ConnectionId c) {
    Outbox out;
    std::unique_lock lock(mu);
    const auto it = connections.find(c);
    if (it == connections.end()) return;
    for (const std::string& id : it->second)
      if (const auto r = rooms.find(id); r != rooms.end()) {
        r->second.viewers.erase(c);
        r->second.events.clear();
        broadcast(r->second, out);
        forget_if_idle(id);
      }
    connections.erase(it);
    deliver(lock, out);
  }

  std::optional<std::string> record(std::string_view id) const {
    StoredGame g;
    {
      std::lock_guard lock(mu);
      if (const auto it = rooms.find(std::string(id)); it != rooms.end()) {
        if (!it->second.over()) return std::nullopt;
        g = snapshot(it->second);
      }
    }
    if (g.id.empty()) {
      if (id.size() > 32) return std::nullopt;
      std::optional<StoredGame> stored = store.load(std::string(id));
      if (!stored || !stored->over()) return std::nullopt;
      g = std::move(*stored);
    }
    return record_text(g);
  }

  static std::string record_text(const StoredGame& g) {
    // The colours the seats held at the end: the first player holds White
    // after a swap.
    const bool swapped = std::find(g.moves.begin(), g.moves.end(), "swap") != g.moves.end();
    const auto who = [&](int colour) {
      const StoredSeat& s = g.seats[colour ^ int(swapped)];
      return s.name.empty() ? std::string(s.engine ? "Engine" : "anonymous") : s.name;
    };
    std::string t;
    t += "Game: " + g.game + "\n";
    t += "Size: " + std::to_string(g.size) + "\n";
    if (g.game == "gonnect") t += "Ko: " + g.ko + "\nEdges: " + g.edges + "\n";
    t += "Black: " + who(Black) + "\n";
    t += "White: " + who(White) + "\n";
    t += "Result: " + std::string(g.winner == "black" ? "Black" : "White") + " wins by " + g.reason + "\n";
    t += "Date: " + utc_date(g.created) + "\n";
    t += "Finished: " + utc_date(g.finished) + "\n";
    t += "Id: " + g.id + "\n";
    // Moves from a set-up position: `konobi show --position P MOVES` replays them.
    if (!g.start.empty()) t += "Position: " + g.start + "\n";
    t += "\n";
    std::string rec;
    for (const std::string& m : g.moves) rec += (rec.empty() ? "" : " ") + m;
    return t + rec + "\n";
  }
};

Hub::Hub(const HubOptions& options, Send send) : impl_(std::make_unique<Impl>(options, std::move(send))) {}

Hub::~Hub() {
  std::vector<std::thread> workers;
  {
    std::lock_guard lock(impl_->mu);
    impl_->stopping = true;
    impl_->closing = true;
    for (auto& [id, r] : impl_->rooms) impl_->cancel_engine(r);
    impl_->jobs.clear();
    workers.swap(impl_->workers);
  }
  impl_->jobs_cv.notify_all();
  for (std::thread& t : workers) t.join();
}

void Hub::open(ConnectionId c, const std::string& peer) {
  (void)peer;  // limits per address are the transport's
  std::lock_guard lock(impl_->mu);
  impl_->connections[c];
}

void Hub::close(ConnectionId c) { impl_->close(c); }

void Hub::receive(ConnectionId c, std::string_view text) { impl_->receive(c, text); }

std::optional<std::string> Hub::record(std::string_view id) const { return impl_->record(id); }

HubStats Hub::stats() const {
  std::lock_guard lock(impl_->mu);
  HubStats s;
  s.connections = long(impl_->connections.size());
  for (const auto& [id, r] : impl_->rooms) s.games += !r.over();
  s.moves = impl_->moves_played;
  s.engines_thinking = impl_->running;
  return s;
}

}  // namespace konobi
