#include "http_server.h"

#include <atomic>
#include <cctype>
#include <chrono>
#include <deque>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp uses std::exchange unincluded
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include "rate_limit.h"
#include "static_files.h"

namespace konobi {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace fs = std::filesystem;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

std::chrono::steady_clock::duration seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}

// A connection the server can close at shutdown and the hub can write to.
class Session : public std::enable_shared_from_this<Session> {
 public:
  virtual ~Session() = default;
  // Closes the connection from any thread: politely (a WebSocket close
  // frame) or at once.
  virtual void shut(bool polite) = 0;
  // Queues one message for the client (WebSockets only), from any thread.
  virtual void deliver(std::string) {}
};

// Every open connection by id, and the WebSockets open in all and per
// remote address (the caps are checked at the upgrade).
class Registry {
 public:
  explicit Registry(const ServerOptions& options) : options_(options) {}

  // Takes a WebSocket slot for peer: "" when granted, else why not.
  std::string reserve(const std::string& peer) {
    std::lock_guard lock(mutex_);
    if (websockets_ >= options_.max_connections)
      return "the server holds its limit of " + std::to_string(options_.max_connections) +
             " connections; try again later";
    int& mine = per_address_[peer];
    if (mine >= options_.max_connections_per_address) {
      if (mine == 0) per_address_.erase(peer);
      return "your address holds its limit of " + std::to_string(options_.max_connections_per_address) +
             " connections; close a tab or try again later";
    }
    ++mine;
    ++websockets_;
    return "";
  }
  void release(const std::string& peer) {
    std::lock_guard lock(mutex_);
    --websockets_;
    if (--per_address_[peer] <= 0) per_address_.erase(peer);
  }

  // false once the server is stopping: the caller closes itself.
  bool add(ConnectionId id, const std::shared_ptr<Session>& s) {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    sessions_[id] = s;
    return true;
  }
  void remove(ConnectionId id) {
    std::lock_guard lock(mutex_);
    sessions_.erase(id);
  }
  void deliver(ConnectionId id, std::string text) {
    std::shared_ptr<Session> s;
    {
      std::lock_guard lock(mutex_);
      auto it = sessions_.find(id);
      if (stopping_ || it == sessions_.end()) return;
      s = it->second.lock();
    }
    if (s) s->deliver(std::move(text));
  }
  // Marks the server stopping (no new connection is added) and returns
  // the connections still open.
  std::vector<std::shared_ptr<Session>> stop() {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    std::vector<std::shared_ptr<Session>> live;
    for (auto& [id, weak] : sessions_)
      if (auto s = weak.lock()) live.push_back(std::move(s));
    return live;
  }

 private:
  const ServerOptions& options_;
  std::mutex mutex_;
  bool stopping_ = false;
  int websockets_ = 0;
  std::unordered_map<std::string, int> per_address_;
  std::unordered_map<ConnectionId, std::weak_ptr<Session>> sessions_;
};

// What every connection shares; the hub's send callback holds it too, so
// that a late message after the server is gone finds nothing, safely.
struct Shared {
  explicit Shared(const ServerOptions& o) : options(o), registry(options) {}
  const ServerOptions options;
  fs::path root;  // the web folder, canonical
  Hub* hub = nullptr;
  std::atomic<ConnectionId> next_id{1};
  Registry registry;
};

std::string error_json(std::string_view message, std::string_view request) {
  nlohmann::json reply = {{"type", "error"}};
  // Echo the request's "req" when there is one, as the hub's errors do.
  nlohmann::json parsed = nlohmann::json::parse(request, nullptr, false);
  if (parsed.is_object()) {
    auto it = parsed.find("req");
    if (it != parsed.end() && it->is_number_integer()) reply["req"] = *it;
  }
  reply["message"] = message;
  return reply.dump();
}

class WsSession : public Session {
 public:
  WsSession(beast::tcp_stream&& stream, std::shared_ptr<Shared> shared, std::string peer)
      : ws_(std::move(stream)),
        shared_(std::move(shared)),
        peer_(std::move(peer)),
        id_(shared_->next_id++),
        bucket_(shared_->options.messages_per_second, shared_->options.message_burst) {}

  ~WsSession() override {
    closed();
    shared_->registry.release(peer_);
  }

  void run(http::request<http::string_body> request) {
    const ServerOptions& o = shared_->options;
    websocket::stream_base::timeout timeout;
    timeout.handshake_timeout = seconds(o.http_idle_seconds);
    timeout.idle_timeout = seconds(o.ws_idle_seconds);  // a ping at half of it, closed at all of it
    timeout.keep_alive_pings = true;
    ws_.set_option(timeout);
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "konobi"); }));
    ws_.read_message_max(o.max_message_bytes);     // more: closed with code 1009 (too big)
    beast::get_lowest_layer(ws_).expires_never();  // the WebSocket's own timeouts rule now
    ws_.async_accept(request, [self = me()](error_code ec) { self->on_accept(ec); });
  }

  void shut(bool polite) override {
    asio::post(ws_.get_executor(), [self = me(), polite] {
      if (polite && self->ws_.is_open() && !self->closing_) {
        self->closing_ = true;
        self->ws_.async_close(websocket::close_code::going_away, [self](error_code) {});
      } else {
        error_code ignored;
        beast::get_lowest_layer(self->ws_).socket().close(ignored);
      }
    });
  }

  void deliver(std::string text) override {
    asio::post(ws_.get_executor(),
               [self = me(), text = std::move(text)]() mutable { self->enqueue(std::move(text)); });
  }

 private:
  std::shared_ptr<WsSession> me() { return std::static_pointer_cast<WsSession>(shared_from_this()); }

  void on_accept(error_code ec) {
    if (ec) return;
    if (!shared_->registry.add(id_, shared_from_this())) return shut(false);
    open_ = true;
    shared_->hub->open(id_, peer_);
    read();
  }

  void read() {
    ws_.async_read(in_, [self = me()](error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(error_code ec) {
    if (ec) return closed();
    std::string text = beast::buffers_to_string(in_.data());
    in_.consume(in_.size());
    if (!ws_.got_text()) {
      enqueue(error_json("messages are JSON text frames, not binary ones", ""));
    } else if (!bucket_.take()) {
      const ServerOptions& o = shared_->options;
      std::ostringstream why;
      why << "too many messages: at most " << o.messages_per_second << " a second (bursts of "
          << o.message_burst << "); this one was dropped";
      enqueue(error_json(why.str(), text));
    } else {
      shared_->hub->receive(id_, text);
    }
    read();
  }

  // On the strand. A client that reads too slowly for what it is sent is
  // closed rather than let its queue grow without bound.
  void enqueue(std::string text) {
    if (!open_) return;
    if (queued_bytes_ + text.size() > shared_->options.max_queue_bytes) return shut(false);
    queued_bytes_ += text.size();
    queue_.push_back(std::move(text));
    if (!writing_) write();
  }

  void write() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(asio::buffer(queue_.front()), [self = me()](error_code ec, std::size_t) {
      self->queued_bytes_ -= self->queue_.front().size();
      self->queue_.pop_front();
      self->writing_ = false;
      if (ec) return self->shut(false);
      if (!self->queue_.empty()) self->write();
    });
  }

  // Once: the hub hears the close and forgets this connection.
  void closed() {
    if (open_) {
      open_ = false;
      shared_->hub->close(id_);
    }
    shared_->registry.remove(id_);
  }

  websocket::stream<beast::tcp_stream> ws_;
  std::shared_ptr<Shared> shared_;
  const std::string peer_;
  const ConnectionId id_;
  TokenBucket bucket_;
  beast::flat_buffer in_;
  std::deque<std::string> queue_;
  std::size_t queued_bytes_ = 0;
  bool open_ = false, writing_ = false, closing_ = false;
};

// The Host header as a CSP source ("ws://localhost:8080"), when it is a
// plain host[:port]; otherwise nothing ('self' alone then).
std::string ws_source(std::string_view host) {
  if (host.empty() || host.size() > 255) return "";
  for (char c : host)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != ':' && c != '[' &&
        c != ']')
      return "";
  return " ws://" + std::string(host);
}

class HttpSession : public Session {
 public:
  HttpSession(tcp::socket&& socket, std::shared_ptr<Shared> shared)
      : stream_(std::move(socket)), shared_(std::move(shared)), id_(shared_->next_id++) {
    error_code ec;
    peer_ = stream_.socket().remote_endpoint(ec).address().to_string();
  }
  ~HttpSession() override { shared_->registry.remove(id_); }

  void run() {
    asio::dispatch(stream_.get_executor(), [self = me()] {
      if (!self->shared_->registry.add(self->id_, self)) return;
      self->read();
    });
  }

  void shut(bool) override {
    asio::post(stream_.get_executor(), [self = me()] {
      error_code ignored;
      self->stream_.socket().close(ignored);
    });
  }

 private:
  using Request = http::request<http::string_body>;

  std::shared_ptr<HttpSession> me() { return std::static_pointer_cast<HttpSession>(shared_from_this()); }

  void read() {
    parser_.emplace();
    parser_->header_limit(
        std::uint32_t(std::min<std::size_t>(shared_->options.max_header_bytes, UINT32_MAX)));
    parser_->body_limit(shared_->options.max_body_bytes);
    stream_.expires_after(seconds(shared_->options.http_idle_seconds));
    http::async_read(stream_, buffer_, *parser_,
                     [self = me()](error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(error_code ec) {
    if (ec == http::error::end_of_stream) {
      stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
      return;
    }
    if (ec == http::error::header_limit)
      return send(text_response(http::status::request_header_fields_too_large, "request header too large\n",
                                11, false));
    if (ec == http::error::body_limit)
      return send(text_response(http::status::payload_too_large, "request body too large\n", 11, false));
    if (ec && ec.category() == http::make_error_code(http::error::bad_target).category())
      return send(text_response(http::status::bad_request, "malformed request\n", 11, false));
    if (ec) return;  // a timeout, a reset: nothing to answer

    Request& req = parser_->get();
    host_ = std::string(req[http::field::host]);
    if (websocket::is_upgrade(req)) return upgrade(req);
    answer(req);
  }

  void upgrade(Request& req) {
    const std::string_view target(req.target().data(), req.target().size());
    if (target.substr(0, target.find('?')) != "/ws")
      return send(text_response(http::status::not_found, "no WebSocket here: use /ws\n", 11, false));
    // A page of another site may not open a connection in its visitor's
    // name (browsers always send Origin; other clients may leave it out).
    const std::string_view origin(req[http::field::origin].data(), req[http::field::origin].size());
    if (!origin.empty() && origin != "http://" + host_ && origin != "https://" + host_)
      return send(
          text_response(http::status::forbidden, "WebSocket from another origin refused\n", 11, false));
    const std::string refused = shared_->registry.reserve(peer_);
    if (!refused.empty())
      return send(text_response(http::status::service_unavailable, refused + "\n", 11, false));
    auto ws = std::make_shared<WsSession>(std::move(stream_), shared_, peer_);
    ws->run(parser_->release());
  }

  void answer(const Request& req) {
    const unsigned version = req.version();
    const bool keep_alive = req.keep_alive(), head = req.method() == http::verb::head;
    if (req.method() != http::verb::get && !head) {
      auto res = text_response(http::status::method_not_allowed, "only GET and HEAD\n", version, keep_alive);
      res.set(http::field::allow, "GET, HEAD");
      return send(std::move(res), head);
    }
    const std::string_view target(req.target().data(), req.target().size());
    const std::string_view path = target.substr(0, target.find('?'));
    constexpr std::string_view kRecords = "/records/", kTxt = ".txt";
    if (path == "/ws")
      return send(text_response(http::status::upgrade_required, "WebSocket only\n", version, keep_alive),
                  head);
    if (path.substr(0, kRecords.size()) == kRecords) {
      std::string_view id = path.substr(kRecords.size());
      bool valid = id.size() > kTxt.size() && id.substr(id.size() - kTxt.size()) == kTxt;
      if (valid) id.remove_suffix(kTxt.size());
      for (char c : id)
        valid = valid && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-');
      std::optional<std::string> record;
      if (valid && id.size() <= 64) record = shared_->hub->record(id);
      if (!record)
        return send(
            text_response(http::status::not_found, "no finished game with that id\n", version, keep_alive),
            head);
      auto res = text_response(http::status::ok, std::move(*record), version, keep_alive);
      res.set(http::field::content_disposition,
              "attachment; filename=\"konobi-" + std::string(id) + ".txt\"");
      res.set(http::field::cache_control, "no-store");
      return send(std::move(res), head);
    }

    const StaticFile file = find_static_file(shared_->root, target);
    if (file.status != 200) {
      const bool bad = file.status == 400;
      return send(text_response(bad ? http::status::bad_request : http::status::not_found,
                                bad ? "malformed path\n" : "not found\n", version, keep_alive),
                  head);
    }
    error_code ec;
    http::file_body::value_type body;
    body.open(file.path.c_str(), beast::file_mode::scan, ec);
    if (ec) return send(text_response(http::status::not_found, "not found\n", version, keep_alive), head);
    const bool html = file.content_type.rfind("text/html", 0) == 0;
    if (head) {
      http::response<http::empty_body> res{http::status::ok, version};
      headers(res, file.content_type, html);
      res.content_length(body.size());
      res.keep_alive(keep_alive);
      return send(std::move(res));
    }
    http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                        std::make_tuple(http::status::ok, version)};
    headers(res, file.content_type, html);
    res.prepare_payload();
    res.keep_alive(keep_alive);
    send(std::move(res));
  }

  // The headers of every response: no type sniffing, scripts and styles of
  // this server only, connections back to it only, never in a frame.
  template <class Fields>
  void headers(Fields& res, const std::string& type, bool no_store) {
    res.set(http::field::server, "konobi");
    res.set(http::field::content_type, type);
    res.set("X-Content-Type-Options", "nosniff");
    res.set("X-Frame-Options", "DENY");
    res.set("Referrer-Policy", "no-referrer");
    res.set("Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "connect-src 'self'" +
                ws_source(host_) + "; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    res.set(http::field::cache_control, no_store ? "no-store" : "no-cache");
  }

  http::response<http::string_body> text_response(http::status status, std::string text, unsigned version,
                                                  bool keep_alive) {
    http::response<http::string_body> res{status, version};
    headers(res, "text/plain; charset=utf-8", true);
    res.body() = std::move(text);
    res.prepare_payload();
    res.keep_alive(keep_alive);
    return res;
  }

  // Writes res (only its header when head), then reads the next request
  // unless the connection is to close.
  template <class Body>
  void send(http::response<Body>&& res, bool head = false) {
    auto message = std::make_shared<http::response<Body>>(std::move(res));
    if constexpr (std::is_same_v<Body, http::string_body>) {
      if (head) message->body().clear();  // Content-Length stays the full body's
    }
    stream_.expires_after(seconds(shared_->options.http_idle_seconds));
    http::async_write(stream_, *message, [self = me(), message](error_code ec, std::size_t) {
      if (ec) return;
      if (message->need_eof()) {
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        return;
      }
      self->read();
    });
  }

  beast::tcp_stream stream_;
  std::shared_ptr<Shared> shared_;
  const ConnectionId id_;
  std::string peer_, host_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

struct HttpServer::Impl {
  explicit Impl(const ServerOptions& options) : shared(std::make_shared<Shared>(options)) {}

  void accept() {
    acceptor->async_accept(asio::make_strand(*ioc), [this](error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor->is_open()) return;
      if (ec) {  // out of file descriptors, say: try again shortly rather than spin
        retry->expires_after(std::chrono::milliseconds(100));
        retry->async_wait([this](error_code wait) {
          if (!wait && acceptor->is_open()) accept();
        });
        return;
      }
      socket.set_option(tcp::no_delay(true), ec);  // small messages go out at once
      std::make_shared<HttpSession>(std::move(socket), shared)->run();
      accept();
    });
  }

  // Waits up to `limit` for the I/O threads to run out of work.
  bool drained(std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!ioc->stopped()) {
      if (std::chrono::steady_clock::now() > end) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
  }

  std::shared_ptr<Shared> shared;
  std::optional<asio::io_context> ioc;
  std::optional<tcp::acceptor> acceptor;
  std::optional<asio::steady_timer> retry;
  std::vector<std::thread> threads;
  unsigned short port = 0;
  bool started = false, stopped = false;
};

HttpServer::HttpServer(const ServerOptions& options) : impl_(std::make_unique<Impl>(options)) {
  if (options.threads < 1) throw std::runtime_error("the server needs at least one I/O thread");
  std::error_code fec;
  fs::path root = fs::canonical(options.web_dir, fec);
  if (fec || !fs::is_directory(root))
    throw std::runtime_error("web folder '" + options.web_dir + "' does not exist");
  if (!fs::is_regular_file(root / "index.html"))
    throw std::runtime_error("web folder '" + options.web_dir + "' has no index.html");
  impl_->shared->root = root;

  impl_->ioc.emplace(options.threads);
  error_code ec;
  tcp::resolver resolver(*impl_->ioc);
  auto endpoints = resolver.resolve(options.host, std::to_string(options.port),
                                    tcp::resolver::numeric_service | tcp::resolver::passive, ec);
  if (ec || endpoints.empty())
    throw std::runtime_error("cannot listen on '" + options.host +
                             "': " + (ec ? ec.message() : "no address"));
  const tcp::endpoint endpoint = *endpoints.begin();
  auto& acceptor = impl_->acceptor.emplace(asio::make_strand(*impl_->ioc));
  const std::string where = options.host + ":" + std::to_string(options.port);
  if (acceptor.open(endpoint.protocol(), ec), ec)
    throw std::runtime_error("cannot listen on " + where + ": " + ec.message());
  acceptor.set_option(asio::socket_base::reuse_address(true), ec);  // a restart need not wait for TIME_WAIT
  if (acceptor.bind(endpoint, ec), ec)
    throw std::runtime_error("cannot listen on " + where + ": " + ec.message());
  if (acceptor.listen(asio::socket_base::max_listen_connections, ec), ec)
    throw std::runtime_error("cannot listen on " + where + ": " + ec.message());
  impl_->port = acceptor.local_endpoint(ec).port();
  impl_->retry.emplace(acceptor.get_executor());
}

HttpServer::~HttpServer() { stop(); }

Hub::Send HttpServer::sender() const {
  return [shared = impl_->shared](ConnectionId c, std::string text) {
    shared->registry.deliver(c, std::move(text));
  };
}

void HttpServer::start(Hub& hub) {
  if (impl_->started) throw std::logic_error("HttpServer::start called twice");
  impl_->started = true;
  impl_->shared->hub = &hub;
  asio::post(impl_->acceptor->get_executor(), [this] { impl_->accept(); });
  for (int i = 0; i < impl_->shared->options.threads; ++i)
    impl_->threads.emplace_back([this] {
      while (true) {
        try {
          impl_->ioc->run();
          return;
        } catch (const std::exception& e) {  // a bug in one connection's handler: the others go on
          std::cerr << "konobi serve: " << e.what() << "\n";
        }
      }
    });
}

void HttpServer::stop() {
  if (!impl_->started || impl_->stopped) return;
  impl_->stopped = true;
  asio::post(impl_->acceptor->get_executor(), [this] {
    error_code ignored;
    impl_->acceptor->close(ignored);
    impl_->retry->cancel();
  });
  // Close frames first; whoever does not answer in a second is cut off;
  // whatever is left then is dropped with the io_context below.
  for (const auto& s : impl_->shared->registry.stop()) s->shut(true);
  if (!impl_->drained(std::chrono::milliseconds(1000))) {
    for (const auto& s : impl_->shared->registry.stop()) s->shut(false);
    if (!impl_->drained(std::chrono::milliseconds(1000))) impl_->ioc->stop();
  }
  for (std::thread& t : impl_->threads) t.join();
  impl_->threads.clear();
  // Connections still held by unrun handlers close here, while the hub
  // is alive to hear it.
  impl_->retry.reset();
  impl_->acceptor.reset();
  impl_->ioc.reset();
}

unsigned short HttpServer::port() const { return impl_->port; }

}  // namespace konobi
