#include "lib/db/connection_params.h"

namespace placard::db {

ConnectionParams runtime_params(const config::ServerConfig& c) {
  return {c.db.socket, c.db.host, c.db.port, c.db.name, c.db.user, c.db.password};
}

ConnectionParams admin_params(const config::ServerConfig& c) {
  const bool own = c.db.admin_user.empty();
  return {c.db.socket,
          c.db.host,
          c.db.port,
          c.db.name,
          own ? c.db.user : c.db.admin_user,
          own ? c.db.password : c.db.admin_password};
}

}  // namespace placard::db
