#pragma once
// How many request threads, handlers and intake threads the worker's pool gets.
#include "fcgi-app/worker_pool.h"
#include "lib/config/server_config.h"

namespace placard::fcgi {

// Four handlers per turn, and eight intake threads per request thread (at least 32) unless the
// config sets intake_threads; `spawned` (the socket on fd 0): one intake thread per request
// thread.
PoolSettings pool_settings(int threads, const config::ServerConfig& cfg, bool spawned);

}  // namespace placard::fcgi
