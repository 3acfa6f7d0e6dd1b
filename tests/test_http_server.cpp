// The transport of konobi serve (solver/server/http_server.*) on a real
// socket, with the real hub behind it: the page's files and nothing else,
// the records, WebSocket play, and each limit (message size, rate,
// connection caps, request header size). Then `konobi serve` itself: it
// prints where it listens, serves, stops on SIGTERM, and refuses bad
// options with exit status 2.
#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp uses std::exchange unincluded
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"
#include "solver/server/http_server.h"
#include "solver/server/hub.h"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace fs = std::filesystem;
using tcp = asio::ip::tcp;
using konobi_test::TempDir;
using nlohmann::json;

const char* const kSecret = "SECRET-OUTSIDE-THE-WEB-FOLDER";

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

// A web folder with a page, a script, a style sheet, a file of an unknown
// type, a hidden file and links out of the folder; beside it, a secret.
struct WebFolder {
  TempDir tmp;
  fs::path web = tmp.path / "web";
  WebFolder() {
    fs::create_directories(web / "sub");
    write_text(web / "index.html", "<!doctype html><title>board</title>");
    write_text(web / "app.js", "export const x = 1;");
    write_text(web / "style.css", "body{}");
    write_text(web / "sub" / "icon.svg", "<svg/>");
    write_text(web / "notes.md", "# notes");
    write_text(web / ".hidden.txt", kSecret);
    write_text(tmp.path / "secret.txt", kSecret);
    fs::create_symlink(tmp.path / "secret.txt", web / "link.txt");
    fs::create_directory_symlink(tmp.path, web / "up");
    fs::create_symlink(web / "app.js", web / "alias.js");  // a link that stays inside is fine
  }
};

// The real hub and the server on 127.0.0.1, a free port.
struct Server {
  WebFolder folder;
  TempDir data;
  std::optional<konobi::HttpServer> http;
  std::optional<konobi::Hub> hub;
  explicit Server(konobi::ServerOptions options = {}) {
    options.host = "127.0.0.1";
    options.port = 0;
    options.web_dir = folder.web.string();
    http.emplace(options);
    konobi::HubOptions hub_options;
    hub_options.data_dir = data.path.string();
    hub_options.results_dir = KONOBI_SOURCE_DIR "/results";
    hub.emplace(hub_options, http->sender());
    http->start(*hub);
  }
  ~Server() {
    http->stop();
    hub.reset();
  }
  unsigned short port() const { return http->port(); }
};

struct Reply {
  int status = 0;
  std::string body;
  http::response<http::string_body> res;
};

// One request on a fresh connection, with the target sent exactly as given.
Reply request(unsigned short port, const std::string& target, http::verb verb = http::verb::get,
              const std::vector<std::pair<std::string, std::string>>& extra = {}) {
  asio::io_context ioc;
  tcp::socket socket(ioc);
  socket.connect({asio::ip::make_address("127.0.0.1"), port});
  http::request<http::empty_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  for (const auto& [name, value] : extra) req.set(name, value);
  http::write(socket, req);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.skip(verb == http::verb::head);
  parser.body_limit(1 << 24);
  http::read(socket, buffer, parser);
  Reply r;
  r.res = parser.release();
  r.status = r.res.result_int();
  r.body = r.res.body();
  return r;
}

// A WebSocket upgrade request by hand: Beast's client keeps a refusal's
// response to itself.
Reply upgrade(unsigned short port, const std::string& origin = "") {
  std::vector<std::pair<std::string, std::string>> headers = {
      {"Connection", "Upgrade"},
      {"Upgrade", "websocket"},
      {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="},
      {"Sec-WebSocket-Version", "13"}};
  if (!origin.empty()) headers.emplace_back("Origin", origin);
  return request(port, "/ws", http::verb::get, headers);
}

// Bytes written as they are (for requests no client library would form),
// and everything the server sends back until it closes or goes quiet.
std::string raw_exchange(unsigned short port, const std::string& bytes) {
  asio::io_context ioc;
  tcp::socket socket(ioc);
  socket.connect({asio::ip::make_address("127.0.0.1"), port});
  timeval tv{5, 0};
  setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  asio::write(socket, asio::buffer(bytes));
  std::string out;
  char buf[4096];
  boost::system::error_code ec;
  while (true) {
    const size_t got = socket.read_some(asio::buffer(buf), ec);
    if (ec) break;
    out.append(buf, got);
    if (out.find("\r\n\r\n") != std::string::npos && out.find("Connection: close") == std::string::npos)
      break;
  }
  return out;
}

// A WebSocket client; reads give up after five seconds rather than hang.
struct Client {
  asio::io_context ioc;
  websocket::stream<tcp::socket> ws{ioc};
  boost::system::error_code handshake_error;

  explicit Client(unsigned short port, const std::string& origin = "") {
    ws.next_layer().connect({asio::ip::make_address("127.0.0.1"), port});
    timeval tv{5, 0};
    setsockopt(ws.next_layer().native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (!origin.empty())
      ws.set_option(websocket::stream_base::decorator(
          [origin](websocket::request_type& req) { req.set(http::field::origin, origin); }));
    ws.handshake("127.0.0.1:" + std::to_string(port), "/ws", handshake_error);
  }
  void send(const std::string& text) { ws.write(asio::buffer(text)); }
  void send(const json& j) { send(j.dump()); }
  // The next message, or an error code when the connection ended.
  std::optional<json> read(boost::system::error_code& ec) {
    beast::flat_buffer buffer;
    ws.read(buffer, ec);
    if (ec) return std::nullopt;
    return json::parse(beast::buffers_to_string(buffer.data()));
  }
  json read() {
    boost::system::error_code ec;
    auto j = read(ec);
    INFO(ec.message());
    REQUIRE(j);
    return *j;
  }
  // Reads until a message of this type, skipping others.
  json read_type(const std::string& type) {
    for (int i = 0; i < 100; ++i) {
      json j = read();
      if (j.value("type", "") == type) return j;
      INFO(j.dump());
      REQUIRE(j.value("type", "") != "error");
    }
    FAIL("no " << type << " message");
    return {};
  }
};

const std::string kAnn = "player-ann-0123456789", kBob = "player-bob-0123456789";

}  // namespace

TEST_CASE("serve: the page and its files, with the security headers", "[server]") {
  Server s;
  for (const std::string target : {"/", "/index.html", "/?game=abc123", "/index.html?game=x&y=%2e%2e"}) {
    INFO(target);
    Reply r = request(s.port(), target);
    CHECK(r.status == 200);
    CHECK(r.body == "<!doctype html><title>board</title>");
    CHECK(r.res[http::field::content_type] == "text/html; charset=utf-8");
    CHECK(r.res["X-Content-Type-Options"] == "nosniff");
    CHECK(r.res[http::field::cache_control] == "no-store");
    const std::string csp(r.res["Content-Security-Policy"]);
    CHECK(csp.find("script-src 'self'") != std::string::npos);
    CHECK(csp.find("style-src 'self'") != std::string::npos);
    CHECK(csp.find("connect-src 'self' ws://127.0.0.1:" + std::to_string(s.port())) != std::string::npos);
  }
  Reply js = request(s.port(), "/app.js");
  CHECK(js.status == 200);
  CHECK(js.body == "export const x = 1;");
  CHECK(js.res[http::field::content_type] == "text/javascript; charset=utf-8");
  CHECK(request(s.port(), "/alias.js").body == "export const x = 1;");
  CHECK(request(s.port(), "/style.css").res[http::field::content_type] == "text/css; charset=utf-8");
  CHECK(request(s.port(), "/sub/icon.svg").res[http::field::content_type] == "image/svg+xml");

  Reply head = request(s.port(), "/", http::verb::head);
  CHECK(head.status == 200);
  CHECK(head.res[http::field::content_length] == "35");
  CHECK(head.body.empty());

  Reply post = request(s.port(), "/", http::verb::post);
  CHECK(post.status == 405);
  CHECK(post.res[http::field::allow] == "GET, HEAD");
  CHECK(request(s.port(), "/ws").status == 426);  // not an upgrade
}

TEST_CASE("serve: nothing outside the web folder, no hidden file, no unknown type", "[server]") {
  Server s;
  const std::vector<std::string> targets = {
      "/../secret.txt",
      "/%2e%2e/secret.txt",
      "/..%2fsecret.txt",
      "/%2e%2e%2fsecret.txt",
      "/..%5csecret.txt",
      "/..\\secret.txt",
      "/sub/../../secret.txt",
      "/./index.html",
      "//secret.txt",
      "/link.txt",
      "/up/secret.txt",
      "/.hidden.txt",
      "/%2ehidden.txt",
      "/index.html%00.txt",
      "/secret.txt%00",
      "/%",
      "/%zz.txt",
      "/notes.md",
      "/missing.js",
      "/sub",
      "/sub/",
      "/records/../secret.txt",
      "/" + (s.folder.tmp.path / "secret.txt").string(),  // an absolute path in the target
      "http://127.0.0.1/../secret.txt",                   // absolute-form
  };
  for (const std::string& target : targets) {
    INFO(target);
    Reply r = request(s.port(), target);
    CHECK((r.status == 404 || r.status == 400));
    CHECK(r.body.find(kSecret) == std::string::npos);
    CHECK(r.body.find("<title>") == std::string::npos);
  }
  // And with the source tree's own files one level up, as in a checkout.
  fs::copy_file(KONOBI_SOURCE_DIR "/CMakeLists.txt", s.folder.tmp.path / "CMakeLists.txt");
  for (const std::string target : {"/../CMakeLists.txt", "/%2e%2e/CMakeLists.txt", "/..%2fCMakeLists.txt"})
    CHECK(request(s.port(), target).body.find("cmake_minimum_required") == std::string::npos);
}

TEST_CASE("serve: malformed and oversized requests are refused", "[server]") {
  konobi::ServerOptions options;
  options.max_header_bytes = 1024;
  Server s(options);
  const std::string big =
      raw_exchange(s.port(), "GET / HTTP/1.1\r\nHost: x\r\nX-Filler: " + std::string(4000, 'a') + "\r\n\r\n");
  CHECK(big.rfind("HTTP/1.1 431", 0) == 0);
  CHECK(raw_exchange(s.port(), "NOT HTTP AT ALL\r\n\r\n").rfind("HTTP/1.1 400", 0) == 0);
  // The server still answers after them.
  CHECK(request(s.port(), "/").status == 200);
}

TEST_CASE("serve: a game over WebSockets through the hub, and its record", "[server]") {
  Server s;
  Client ann(s.port()), bob(s.port());
  REQUIRE(!ann.handshake_error);
  REQUIRE(!bob.handshake_error);
  ann.send(json{{"type", "create"},
                {"req", 1},
                {"game", "konobi"},
                {"size", 5},
                {"mode", "online"},
                {"player", kAnn},
                {"name", "Ann"}});
  const json created = ann.read_type("created");
  CHECK(created["req"] == 1);
  const std::string id = created["id"];
  json state = ann.read_type("state");
  CHECK(state["ply"] == 0);
  CHECK(state["you"] == "first");

  bob.send(json{{"type", "join"}, {"id", id}, {"player", kBob}, {"name", "Bob"}});
  CHECK(bob.read_type("state")["you"] == "second");

  ann.send(json{{"type", "move"}, {"id", id}, {"move", "c3"}, {"ply", 0}});
  state = bob.read_type("state");
  CHECK(state["ply"] == 1);
  CHECK(state["moves"] == json::array({"c3"}));
  // Bob's move reaches Ann.
  const std::string reply = state["legal"][0];
  bob.send(json{{"type", "move"}, {"id", id}, {"move", reply}, {"ply", 1}});
  for (json j = ann.read_type("state");; j = ann.read_type("state")) {
    if (j["ply"] == 2) {
      CHECK(j["moves"] == json::array({"c3", reply}));
      break;
    }
  }
  // Not finished: no record yet. Then Ann resigns and the record is there.
  CHECK(request(s.port(), "/records/" + id + ".txt").status == 404);
  ann.send(json{{"type", "resign"}, {"id", id}});
  for (json j = bob.read_type("state");; j = bob.read_type("state"))
    if (!j["winner"].is_null()) {
      CHECK(j["winner"] == "white");
      break;
    }
  Reply record = request(s.port(), "/records/" + id + ".txt");
  CHECK(record.status == 200);
  CHECK(record.res[http::field::content_type] == "text/plain; charset=utf-8");
  CHECK(std::string(record.res[http::field::content_disposition]).find("attachment") != std::string::npos);
  CHECK(record.body.find("c3") != std::string::npos);
  CHECK(request(s.port(), "/records/" + id + ".txt", http::verb::head).body.empty());
  CHECK(request(s.port(), "/records/nosuchgame.txt").status == 404);
  CHECK(request(s.port(), "/records/" + id + ".html").status == 404);
}

TEST_CASE("serve: a message over the size limit closes the connection", "[server]") {
  konobi::ServerOptions options;
  options.max_message_bytes = 4096;
  Server s(options);
  Client c(s.port());
  REQUIRE(!c.handshake_error);
  c.send(json{{"type", "nonsense"}, {"req", 1}});
  CHECK(c.read()["type"] == "error");  // an ordinary bad message: an error, the connection stays
  c.send(std::string(5000, ' '));
  boost::system::error_code ec;
  CHECK(!c.read(ec));
  CHECK(ec == websocket::error::closed);
  CHECK(c.ws.reason().code == websocket::close_code::too_big);
}

TEST_CASE("serve: messages over the rate limit are answered with errors and dropped", "[server]") {
  konobi::ServerOptions options;
  options.messages_per_second = 1;
  options.message_burst = 5;
  Server s(options);
  Client c(s.port());
  REQUIRE(!c.handshake_error);
  constexpr int kSent = 50;
  for (int i = 0; i < kSent; ++i) c.send(json{{"type", "nonsense"}, {"req", i}});
  int limited = 0, answered = 0;
  for (int i = 0; i < kSent; ++i) {
    json j = c.read();
    REQUIRE(j["type"] == "error");
    CHECK(j["req"] == i);  // every message gets exactly one reply, in order
    const std::string message = j["message"];
    if (message.rfind("too many messages", 0) == 0) ++limited;
    else ++answered;
  }
  CHECK(answered >= 5);  // the burst went through to the hub
  CHECK(answered <= 10);
  CHECK(limited == kSent - answered);
}

TEST_CASE("serve: connection caps refuse the upgrade with 503", "[server]") {
  SECTION("per address") {
    konobi::ServerOptions options;
    options.max_connections_per_address = 2;
    Server s(options);
    Client a(s.port()), b(s.port()), c(s.port());
    CHECK(!a.handshake_error);
    CHECK(!b.handshake_error);
    CHECK(c.handshake_error);
    Reply refused = upgrade(s.port());
    CHECK(refused.status == 503);
    CHECK(refused.body.find("your address holds its limit of 2") != std::string::npos);
    // A closed connection frees its slot.
    a.ws.close(websocket::close_code::normal);
    bool reopened = false;
    for (int i = 0; i < 200 && !reopened; ++i) {
      Client d(s.port());
      reopened = !d.handshake_error;
      if (!reopened) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(reopened);
  }
  SECTION("in all") {
    konobi::ServerOptions options;
    options.max_connections = 1;
    Server s(options);
    Client a(s.port());
    CHECK(!a.handshake_error);
    Reply refused = upgrade(s.port());
    CHECK(refused.status == 503);
    CHECK(refused.body.find("the server holds its limit of 1") != std::string::npos);
  }
}

TEST_CASE("serve: a WebSocket from another site's page is refused", "[server]") {
  Server s;
  Client same(s.port(), "http://127.0.0.1:" + std::to_string(s.port()));
  CHECK(!same.handshake_error);
  CHECK(upgrade(s.port(), "http://127.0.0.1:" + std::to_string(s.port())).status == 101);
  Reply other = upgrade(s.port(), "http://evil.example");
  CHECK(other.status == 403);
  CHECK(other.body == "WebSocket from another origin refused\n");
}

TEST_CASE("serve: stopping closes the open WebSockets", "[server]") {
  std::optional<Server> s(std::in_place);
  Client c(s->port());
  REQUIRE(!c.handshake_error);
  c.send(json{{"type", "nonsense"}});
  CHECK(c.read()["type"] == "error");
  boost::system::error_code ec;
  std::thread reader([&] { CHECK(!c.read(ec)); });  // the client answers the close frame meanwhile
  s.reset();
  reader.join();
  CHECK(ec == websocket::error::closed);
  CHECK(c.ws.reason().code == websocket::close_code::going_away);
}

namespace {

// `konobi serve ARGS` in the background, its standard output read up to the
// "Serving" line.
struct ServeProcess {
  pid_t pid = -1;
  int out = -1;
  std::string line;
  explicit ServeProcess(const std::vector<std::string>& args) {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      dup2(fds[1], 1);
      close(fds[0]);
      close(fds[1]);
      std::vector<char*> argv{const_cast<char*>(KONOBI_BINARY), const_cast<char*>("serve")};
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(KONOBI_BINARY, argv.data());
      _exit(127);
    }
    close(fds[1]);
    out = fds[0];
    char c;
    while (read(out, &c, 1) == 1 && c != '\n') line += c;
  }
  int stop(int signal) {
    kill(pid, signal);
    int status = 0;
    waitpid(pid, &status, 0);
    close(out);
    pid = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  ~ServeProcess() {
    if (pid > 0) stop(SIGKILL);
  }
};

}  // namespace

TEST_CASE("konobi serve: says where it listens, serves, stops on SIGTERM and SIGINT", "[server][cli]") {
  WebFolder folder;
  TempDir data;
  for (int signal : {SIGTERM, SIGINT}) {
    ServeProcess p({"--port", "0", "--data", data.path.string(), "--web", folder.web.string()});
    const std::string prefix = "Serving http://127.0.0.1:";
    REQUIRE(p.line.rfind(prefix, 0) == 0);
    CHECK(p.line.find("/ (data: " + data.path.string() + ")") != std::string::npos);
    const int port = std::stoi(p.line.substr(prefix.size()));
    CHECK(request(static_cast<unsigned short>(port), "/").status == 200);
    CHECK(p.stop(signal) == 0);
  }
  CHECK(fs::exists(data.path / "games.sqlite"));
}

TEST_CASE("konobi serve: bad options, a busy port, missing folders exit 2 with a message", "[server][cli]") {
  WebFolder folder;
  TempDir data;
  const std::string web = folder.web.string(), dir = data.path.string();
  auto check = [](const std::vector<std::string>& args, const std::string& message) {
    std::vector<std::string> all{"serve"};
    all.insert(all.end(), args.begin(), args.end());
    konobi_test::RunResult r = konobi_test::run_konobi(all);
    INFO(r.err);
    CHECK(r.exited);
    CHECK(r.status == 2);
    CHECK(r.err.find(message) != std::string::npos);
  };
  check({"--port", "70000", "--data", dir, "--web", web}, "--port must be from 0 to 65535");
  check({"--port", "eighty", "--data", dir, "--web", web}, "port");
  check({"--threads", "0", "--data", dir, "--web", web}, "--threads must be from 1");
  check({"--port", "0", "--data", dir, "--web", dir + "/nowhere"}, "has no index.html");
  write_text(data.path / "file", "x");
  check({"--port", "0", "--data", dir + "/file/sub", "--web", web}, "cannot create the data folder");
  check({"--port", "0", "--host", "not an address", "--data", dir, "--web", web}, "cannot listen on");

  asio::io_context ioc;
  tcp::acceptor busy(ioc, {asio::ip::make_address("127.0.0.1"), 0});
  const std::string port = std::to_string(busy.local_endpoint().port());
  check({"--port", port, "--data", dir, "--web", web}, "cannot listen on 127.0.0.1:" + port);
}
