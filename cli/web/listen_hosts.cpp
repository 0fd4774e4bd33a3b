// listen_hosts.cpp — the Host values `houserules serve` accepts for the address it listens on (--host) and for the
// public URL of a reverse proxy (--public-url); serve.hpp documents both. The Host check itself is in
// http_routes.cpp (docs/serve.md, "Security").
#include <algorithm>
#include <stdexcept>

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <unistd.h>

#include <fmt/format.h>

#include "serve.hpp"

namespace hr {

namespace {

/// `address`:`port`, with brackets around an IPv6 address.
std::string with_port(const std::string& address, int port) {
  return address.find(':') != std::string::npos ? fmt::format("[{}]:{}", address, port) : fmt::format("{}:{}", address, port);
}

void add(std::vector<std::string>& hosts, const std::string& host) {
  if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
}

}  // namespace

std::vector<std::string> listen_hosts(const std::string& address, int port) {
  std::vector<std::string> hosts;
  const bool every = address == "0.0.0.0" || address == "::" || address == "[::]";
  const bool loopback = address == "localhost" || address == "::1" || address.starts_with("127.");
  if (!every) add(hosts, with_port(address, port));
  if (every || loopback)
    for (const std::string& h : loopback_hosts(port)) add(hosts, h);
  if (!every) return hosts;
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) == 0 && name[0]) add(hosts, with_port(name, port));
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) == 0) {
    for (const ifaddrs* i = list; i; i = i->ifa_next) {
      if (!i->ifa_addr) continue;
      char text[INET6_ADDRSTRLEN] = {};
      if (i->ifa_addr->sa_family == AF_INET)
        inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr, text, sizeof text);
      else if (i->ifa_addr->sa_family == AF_INET6 && address != "0.0.0.0")
        inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(i->ifa_addr)->sin6_addr, text, sizeof text);
      if (text[0] && std::string(text).find('%') == std::string::npos) add(hosts, with_port(text, port));
    }
    freeifaddrs(list);
  }
  return hosts;
}

std::pair<std::string, std::string> public_url_host_origin(const std::string& url) {
  std::string rest;
  std::string scheme;
  for (const char* s : {"https://", "http://"})
    if (url.starts_with(s)) {
      scheme = std::string(s, std::string(s).size() - 3);
      rest = url.substr(std::string(s).size());
    }
  if (scheme.empty())
    throw std::invalid_argument(fmt::format("--public-url '{}' must start with https:// or http://", url));
  if (!rest.empty() && rest.back() == '/') rest.pop_back();
  if (rest.empty() || rest.find_first_of("/?#@ \\") != std::string::npos)
    throw std::invalid_argument(fmt::format("--public-url '{}' must be scheme://host[:port] (no path, user or query): "
                                            "the address people open, e.g. https://games.example.org", url));
  std::string host = rest;
  for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return {host, scheme + "://" + host};
}

}  // namespace hr
