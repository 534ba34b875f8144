#pragma once
// One worker process serving the API: the catalog refresher, the shared services, the event
// writer, the background jobs and the pool of ApiThreads, until a signal stops it.
#include <string>

#include "lib/config/server_config.h"
#include "lib/tokens/key_ring.h"
#include "lib/util/logger.h"

namespace placard::fcgi {

struct ServeTarget {
  std::string listen;        // the address (empty: the socket on fd 0, or plain CGI)
  std::string socket_group;  // of a unix socket this process opens
  int threads = 8;
  int listen_fd = -1;  // >= 0: a socket opened by the supervisor (this is one of its workers)
};

// Serves on target.listen_fd when given, else on the `listen` address, the socket on fd 0
// (spawned by the web server) or as plain CGI. Returns the process's exit status.
int serve_api(const config::ServerConfig& cfg, util::Logger& log, const tokens::KeyRing& keys,
              const ServeTarget& target);

}  // namespace placard::fcgi
