// The transport of konobi serve: an HTTP/1.1 server (Boost.Beast on Asio)
// that serves the page's folder, the records of finished games, and one
// WebSocket per browser tab at /ws whose messages go to the hub. It knows
// nothing of the protocol beyond "a message is a text frame"; every limit
// on what a connection may cost is here (docs/SERVER.md, "Transport").
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "hub.h"

namespace konobi {

struct ServerOptions {
  std::string host = "127.0.0.1";
  unsigned short port = 8080;             // 0: any free port (see HttpServer::port)
  std::string web_dir;                    // the page's folder: index.html and what it loads
  int threads = 2;                        // I/O threads
  std::size_t max_message_bytes = 4096;   // a larger WebSocket message closes the connection
  double messages_per_second = 20;        // per connection, on average...
  double message_burst = 40;              // ...with bursts up to this many
  int max_connections = 1000;             // WebSockets open at once, in all
  int max_connections_per_address = 20;   // and from one remote address
  std::size_t max_queue_bytes = 4 << 20;  // unsent messages to one connection; more disconnects it
  std::size_t max_header_bytes = 8192;    // an HTTP request's header
  std::size_t max_body_bytes = 4096;      // an HTTP request's body
  double http_idle_seconds = 30;          // a keep-alive connection with no request is closed
  double ws_idle_seconds = 60;            // a WebSocket that answers no ping is closed
};

class HttpServer {
 public:
  // Binds and listens on host:port (nothing is accepted before start);
  // throws std::runtime_error naming what is wrong (a bad address, a port
  // in use, a missing web folder or index.html).
  explicit HttpServer(const ServerOptions& options);
  ~HttpServer();  // stops if running
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // The callback the hub answers through: thread-safe, and harmless after
  // the connection (or the server) is gone.
  Hub::Send sender() const;
  // Starts accepting, with options.threads I/O threads. The hub must
  // outlive stop().
  void start(Hub& hub);
  // Stops accepting, closes every connection (the hub hears each close) and
  // joins the I/O threads. Idempotent.
  void stop();

  unsigned short port() const;  // the port listened on (the real one for port 0)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace konobi
