#include "lib/db/connection_params.h"

namespace placard::db {

namespace {

ConnectionParams params_as(const config::DatabaseConfig& db, const std::string& user,
                           const std::string& password) {
  ConnectionParams p;
  p.socket = db.socket;
  p.host = db.host;
  p.port = db.port;
  p.name = db.name;
  p.user = user;
  p.password = password;
  p.ssl_ca = db.ssl_ca;
  p.ssl_cert = db.ssl_cert;
  p.ssl_key = db.ssl_key;
  p.ssl_verify = db.ssl_verify;
  // One skip list for every session made from these params (the threads of one process).
  p.skips = std::make_shared<NodeSkips>();
  return p;
}

}  // namespace

ConnectionParams runtime_params(const config::ServerConfig& c) {
  return params_as(c.db, c.db.user, c.db.password);
}

std::optional<ConnectionParams> read_params(const config::ServerConfig& c) {
  if (c.db.read_host.empty() && c.db.read_socket.empty()) return std::nullopt;
  const bool own = c.db.read_user.empty();
  auto p =
      params_as(c.db, own ? c.db.user : c.db.read_user, own ? c.db.password : c.db.read_password);
  p.socket = c.db.read_socket;
  p.host = c.db.read_host;
  p.port = c.db.read_port;
  // A replica that stops answering (host gone, link down) costs a load 5 s, not 30: then the
  // primary serves (lib/db/catalog_source.cpp).
  p.io_timeout_seconds = 5;
  return p;
}

ConnectionParams admin_params(const config::ServerConfig& c) {
  const bool own = c.db.admin_user.empty();
  return params_as(c.db, own ? c.db.user : c.db.admin_user,
                   own ? c.db.password : c.db.admin_password);
}

}  // namespace placard::db
