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
  return p;
}

}  // namespace

ConnectionParams runtime_params(const config::ServerConfig& c) {
  return params_as(c.db, c.db.user, c.db.password);
}

ConnectionParams admin_params(const config::ServerConfig& c) {
  const bool own = c.db.admin_user.empty();
  return params_as(c.db, own ? c.db.user : c.db.admin_user,
                   own ? c.db.password : c.db.admin_password);
}

}  // namespace placard::db
