#pragma once
// The admin API's configuration as the worker builds it from its config file.
#include "lib/admin/context.h"
#include "lib/config/server_config.h"

namespace placard::fcgi {

// The admin API's shared secrets: the key that turns client addresses into keyed hashes and the
// per-client daily key's secret (both derived from the token keys, so they need no setting of
// their own) and the dummy password hash, verified for an unknown email so that it costs what a
// wrong password costs (a constant: none is computed at start); plus the limits, trusted
// proxies, public origin, base path and credential keys the config holds.
admin::AdminConfig make_admin_config(const config::ServerConfig& cfg);

}  // namespace placard::fcgi
