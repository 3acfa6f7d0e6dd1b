// A hub with fake connections: every message the hub sends is parsed and
// kept per connection, so that the tests read the protocol as a page would,
// without a network.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "solver/io/json.h"
#include "solver/server/hub.h"
#include "support.h"

namespace konobi_test {

using konobi::Json;

// Player tokens: 16 to 64 characters.
inline const std::string kAnn = "ann-token-0123456789";
inline const std::string kBob = "bob-token-0123456789";
inline const std::string kCat = "cat-token-0123456789";

struct HubHarness {
  konobi::HubOptions options;
  std::mutex mu;
  std::condition_variable cv;
  std::map<konobi::ConnectionId, std::vector<Json>> inbox;
  std::unique_ptr<konobi::Hub> hub;

  explicit HubHarness(const std::string& data_dir, konobi::HubOptions o = {}) : options(std::move(o)) {
    options.data_dir = data_dir;
    if (options.results_dir.empty()) options.results_dir = std::string(KONOBI_SOURCE_DIR) + "/results";
    start();
  }
  void start() {
    hub = std::make_unique<konobi::Hub>(options, [this](konobi::ConnectionId c, std::string text) {
      std::lock_guard lock(mu);
      inbox[c].push_back(Json::parse(text));
      cv.notify_all();
    });
  }
  void restart() {
    hub.reset();
    start();
  }

  void open(konobi::ConnectionId c) { hub->open(c, "127.0.0.1"); }
  // Sends one message and returns the replies it brought to c.
  std::vector<Json> say(konobi::ConnectionId c, const std::string& text) {
    size_t before;
    {
      std::lock_guard lock(mu);
      before = inbox[c].size();
    }
    hub->receive(c, text);
    std::lock_guard lock(mu);
    return {inbox[c].begin() + long(before), inbox[c].end()};
  }
  std::vector<Json> say(konobi::ConnectionId c, const char* text) { return say(c, std::string(text)); }
  std::vector<Json> say(konobi::ConnectionId c, const Json& j) { return say(c, j.dump()); }
  // The last message of that type c received.
  Json last(konobi::ConnectionId c, const std::string& type) {
    std::lock_guard lock(mu);
    for (auto it = inbox[c].rbegin(); it != inbox[c].rend(); ++it)
      if ((*it)["type"] == type) return *it;
    return nullptr;
  }
  size_t count(konobi::ConnectionId c) {
    std::lock_guard lock(mu);
    return inbox[c].size();
  }
  // Whether c has received a message for which pred holds (no waiting).
  bool seen(konobi::ConnectionId c, const std::function<bool(const Json&)>& pred) {
    std::lock_guard lock(mu);
    for (const Json& j : inbox[c])
      if (pred(j)) return true;
    return false;
  }
  // Waits (up to a minute: a failure, never a timing) until pred holds for
  // c's messages.
  bool wait_for(konobi::ConnectionId c, const std::function<bool(const Json&)>& pred) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, std::chrono::seconds(60), [&] {
      for (const Json& j : inbox[c])
        if (pred(j)) return true;
      return false;
    });
  }

  // Creates a game for c and returns its id.
  std::string create(konobi::ConnectionId c, Json fields) {
    fields["type"] = "create";
    if (!fields.contains("player")) fields["player"] = kAnn;
    if (!fields.contains("game")) fields["game"] = "konobi";
    const std::vector<Json> r = say(c, fields);
    REQUIRE(!r.empty());
    INFO(r.front().dump());
    REQUIRE(r.front()["type"] == "created");
    return r.front()["id"];
  }
  Json move(konobi::ConnectionId c, const std::string& id, const std::string& m, long long ply) {
    const std::vector<Json> r = say(c, Json{{"type", "move"}, {"id", id}, {"move", m}, {"ply", ply}});
    REQUIRE(!r.empty());
    return r.back();
  }
};

}  // namespace konobi_test
