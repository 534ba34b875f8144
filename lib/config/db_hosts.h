#pragma once
// Config key db.host: the database node, or several (a Galera cluster), comma-separated.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace placard::config {

struct DbNode {
  std::string host;  // a DNS name, an IPv4 address, or an IPv6 address (without brackets)
  int port = 3306;
};

// More nodes than this is a mistake, not a cluster a host should walk through.
inline constexpr std::size_t kMaxDbHosts = 8;

// The nodes of db.host in their order: entries separated by ',' (spaces around them ignored),
// each `host`, `host:port`, `[ipv6]`, `[ipv6]:port` or a bare IPv6 address; a missing port is
// default_port. Empty: no node (db.socket is used). Throws std::invalid_argument saying what is
// wrong (an empty entry, a bad host or port, more than kMaxDbHosts entries, an entry written
// twice).
std::vector<DbNode> parse_db_hosts(std::string_view value, int default_port);

// db.host as stored after the check above: the entries without the spaces around them, joined
// by ','. Throws as parse_db_hosts.
std::string normalize_db_hosts(std::string_view value);

// Connector/C++'s address of a node: tcp://host:port (tcp://[v6]:port).
std::string tcp_url(const DbNode& node);

}  // namespace placard::config
