#pragma once
#include <optional>

#include "lib/config/server_config.h"
#include "lib/db/mysql_session.h"

namespace placard::db {

// How the worker connects: the config's runtime user (db.user).
ConnectionParams runtime_params(const config::ServerConfig& c);
// The replica catalog snapshots may load from (db.read_*); nullopt when none is configured.
std::optional<ConnectionParams> read_params(const config::ServerConfig& c);
// How migrations and operator commands connect: db.admin_user when set, else db.user.
ConnectionParams admin_params(const config::ServerConfig& c);

}  // namespace placard::db
