// konobi serve: the web board. Listens, prints where, serves until SIGINT or
// SIGTERM, then closes every connection and the hub (so the game store is
// closed cleanly). docs/SERVER.md describes the protocol and the limits.
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp uses std::exchange unincluded

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include "command.h"
#include "solver/server/http_server.h"
#include "solver/server/hub.h"

#ifndef KONOBI_WEB_DIR
#define KONOBI_WEB_DIR "web"
#endif
#ifndef KONOBI_RESULTS_DIR
#define KONOBI_RESULTS_DIR "results"
#endif

namespace konobi {

namespace fs = std::filesystem;

namespace {

// The data folder exists (made if need be) and takes a new file: said now,
// in words, rather than as an SQLite error later.
void check_data_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw UsageError("cannot create the data folder '" + dir + "'" + (ec ? ": " + ec.message() : ""));
  const fs::path probe = fs::path(dir) / ".konobi-write-test";
  bool ok = bool(std::ofstream(probe) << "ok");
  ok = fs::remove(probe, ec) && ok;
  if (!ok) throw UsageError("the data folder '" + dir + "' is not writable");
}

template <class T>
void check_range(const char* name, T value, T low, T high) {
  if (value < low || value > high)
    throw UsageError(std::string("--") + name + " must be from " + std::to_string(low) + " to " +
                     std::to_string(high));
}

}  // namespace

int cmd_serve(const Args& args) {
  ServerOptions server;
  HubOptions hub;
  int port = server.port, threads = server.threads;
  long max_message = long(server.max_message_bytes), max_queue = long(server.max_queue_bytes),
       max_header = long(server.max_header_bytes), max_body = long(server.max_body_bytes);
  hub.results_dir = KONOBI_RESULTS_DIR;
  server.web_dir = KONOBI_WEB_DIR;
  po::options_description opts("serve options");
  // clang-format off
  opts.add_options()
    ("host", po::value<std::string>(&server.host)->default_value(server.host),
     "address to listen on (0.0.0.0: every interface)")
    ("port", po::value<int>(&port)->default_value(port), "port to listen on (0: any free port)")
    ("data", po::value<std::string>(&hub.data_dir)->default_value(hub.data_dir),
     "folder of the game store (DATA/games.sqlite), made if missing")
    ("web", po::value<std::string>(&server.web_dir)->default_value(server.web_dir), "the page's folder")
    ("results", po::value<std::string>(&hub.results_dir)->default_value(hub.results_dir),
     "shipped results and puzzles, for the analysis view and the puzzle mode")
    ("threads", po::value<int>(&threads)->default_value(threads), "I/O threads")
    ("max-connections", po::value<int>(&server.max_connections)->default_value(server.max_connections),
     "WebSocket connections open at once, in all")
    ("max-connections-per-address",
     po::value<int>(&server.max_connections_per_address)->default_value(server.max_connections_per_address),
     "WebSocket connections open at once from one remote address")
    ("max-message-bytes", po::value<long>(&max_message)->default_value(max_message),
     "largest message from a client; a larger one closes its connection")
    ("messages-per-second",
     po::value<double>(&server.messages_per_second)->default_value(server.messages_per_second),
     "messages a connection may send a second, on average (more are answered with an error)")
    ("message-burst", po::value<double>(&server.message_burst)->default_value(server.message_burst),
     "messages a connection may send at once after a quiet spell")
    ("max-queue-bytes", po::value<long>(&max_queue)->default_value(max_queue),
     "unsent bytes held for one connection; a client reading slower is disconnected")
    ("max-header-bytes", po::value<long>(&max_header)->default_value(max_header),
     "largest HTTP request header")
    ("max-body-bytes", po::value<long>(&max_body)->default_value(max_body), "largest HTTP request body")
    ("http-idle-seconds",
     po::value<double>(&server.http_idle_seconds)->default_value(server.http_idle_seconds),
     "an HTTP connection with no request for this long is closed")
    ("ws-idle-seconds", po::value<double>(&server.ws_idle_seconds)->default_value(server.ws_idle_seconds),
     "a WebSocket silent this long (pinged at half of it) is closed")
    ("engine-seconds", po::value<double>(&hub.engine_seconds)->default_value(hub.engine_seconds),
     "engine time per move unless a game asks for less")
    ("max-engine-seconds", po::value<double>(&hub.max_engine_seconds)->default_value(hub.max_engine_seconds),
     "the most engine time per move a game may ask for")
    ("max-engines", po::value<int>(&hub.max_engines)->default_value(hub.max_engines),
     "engines thinking at once; others wait their turn")
    ("analysis-seconds", po::value<double>(&hub.analysis_seconds)->default_value(hub.analysis_seconds),
     "solver time for one analysis")
    ("max-games", po::value<int>(&hub.max_games)->default_value(hub.max_games),
     "unfinished games held at once")
    ("max-games-per-player",
     po::value<int>(&hub.max_games_per_player)->default_value(hub.max_games_per_player),
     "unfinished games one player may have created");
  // clang-format on
  po::variables_map vm;
  if (parse_command_line("serve", "[--host ADDR] [--port N] [--data DIR] [--web DIR] [limits]", args, opts,
                         vm))
    return 0;
  check_range("port", port, 0, 65535);
  check_range("threads", threads, 1, 256);
  check_range("max-connections", server.max_connections, 1, 1000000);
  check_range("max-connections-per-address", server.max_connections_per_address, 1, 1000000);
  check_range("max-message-bytes", max_message, 16L, 1L << 24);
  check_range("max-queue-bytes", max_queue, 1024L, 1L << 30);
  check_range("max-header-bytes", max_header, 512L, 1L << 20);
  check_range("max-body-bytes", max_body, 0L, 1L << 24);
  check_range("messages-per-second", server.messages_per_second, 0.1, 1e6);
  check_range("message-burst", server.message_burst, 1.0, 1e6);
  check_range("http-idle-seconds", server.http_idle_seconds, 0.1, 86400.0);
  check_range("ws-idle-seconds", server.ws_idle_seconds, 1.0, 86400.0);
  check_range("engine-seconds", hub.engine_seconds, 0.01, 3600.0);
  check_range("max-engine-seconds", hub.max_engine_seconds, 0.01, 3600.0);
  check_range("max-engines", hub.max_engines, 1, 256);
  check_range("analysis-seconds", hub.analysis_seconds, 0.01, 3600.0);
  check_range("max-games", hub.max_games, 1, 10000000);
  check_range("max-games-per-player", hub.max_games_per_player, 1, 10000000);
  server.port = static_cast<unsigned short>(port);
  server.threads = threads;
  server.max_message_bytes = std::size_t(max_message);
  server.max_queue_bytes = std::size_t(max_queue);
  server.max_header_bytes = std::size_t(max_header);
  server.max_body_bytes = std::size_t(max_body);
  if (!fs::is_regular_file(fs::path(server.web_dir) / "index.html"))
    throw UsageError("the web folder '" + server.web_dir + "' has no index.html (give --web DIR)");
  check_data_dir(hub.data_dir);

  // Asio's signal_set takes SIGINT and SIGTERM whichever thread the kernel
  // hands them to, and wakes this one.
  boost::asio::io_context signals_context;
  boost::asio::signal_set signals(signals_context, SIGINT, SIGTERM);
  int caught = 0;
  signals.async_wait([&](const boost::system::error_code& ec, int signal) {
    if (!ec) caught = signal;
  });

  HttpServer http(server);  // listening from here (a busy port fails now)
  {
    Hub games(hub, http.sender());  // opens the store; closed when this block ends
    http.start(games);
    const bool v6 = server.host.find(':') != std::string::npos;
    std::cout << "Serving http://" << (v6 ? "[" + server.host + "]" : server.host) << ":" << http.port()
              << "/ (data: " << hub.data_dir << ")" << std::endl;
    signals_context.run();
    std::cerr << "konobi serve: " << (caught == SIGINT ? "interrupted" : "terminated") << ", closing\n";
    http.stop();
  }
  return 0;
}

}  // namespace konobi
