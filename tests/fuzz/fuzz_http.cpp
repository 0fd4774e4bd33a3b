// fuzz_http.cpp — an HTTP request to `houserules serve` (cli/web/serve.hpp): the bytes of one input are sent as
// they are, over a TCP connection on 127.0.0.1, to a server with the page and the whole JSON API
// (add_routes, the same routes as `houserules serve`), and the response is read to the end. The server and its
// games live for the whole process, so a game made by one input can be played by a later one only if the
// input names its (salted) id; what is fuzzed is the request line, headers, parameters and JSON bodies. The server
// accepts the Host "127.0.0.1" (the seeds in corpus/http/ use it) besides its own address and port, so inputs get
// past the Host check to the routes; the seeds reach every POST route's JSON field checks (corpus/http/post-*).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <httplib.h>

#include <cstdint>
#include <thread>

#include "fuzz_util.hpp"
#include "web/web.hpp"

namespace {

struct Server {
  hr::GameServer games;
  httplib::Server http;
  int port = -1;
  std::thread thread;
  Server() {
    http.set_keep_alive_max_count(1);
    http.set_read_timeout(2, 0);
    port = http.bind_to_any_port("127.0.0.1");
    if (port < 0) std::abort();
    hr::RouteOptions options;
    options.hosts = hr::loopback_hosts(port);
    options.hosts.push_back("127.0.0.1");
    hr::add_routes(http, games, options);
    thread = std::thread([this] { http.listen_after_bind(); });
    // Never joined or destroyed: the process ends with the fuzzer (libFuzzer exits without unwinding).
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Server* server = new Server;  // leaked on purpose: lives until the process ends
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(server->port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval timeout{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
    std::size_t sent = 0;
    while (sent < size) {
      const ssize_t n = ::send(fd, data + sent, size - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
    ::shutdown(fd, SHUT_WR);
    char buffer[65536];
    while (::recv(fd, buffer, sizeof buffer, 0) > 0) {
    }
  }
  ::close(fd);
  return 0;
}
