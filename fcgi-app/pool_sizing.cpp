#include "fcgi-app/pool_sizing.h"

#include <algorithm>

namespace placard::fcgi {

// Eight intake threads per request thread (at least 32), so that dozens of bodies arriving
// slowly through a web server that streams them (Apache's mod_proxy_fcgi) leave room for every
// other request. Spawned on fd 0 (mod_fcgid, lighttpd bin-path), the web server has read the
// whole body before it connects: one intake thread per request thread is enough.
PoolSettings pool_settings(int threads, const config::ServerConfig& cfg, bool spawned) {
  PoolSettings s;
  s.threads = threads;
  // Four handlers per turn: a request waiting for the event writer's commit holds a handler, not
  // a turn, so up to 4x `threads` events reach one batch (issue 24: with `threads` of them, a
  // batch held at most 8 events and the commit's flush bounded impressions and clicks).
  s.handlers = 4 * threads;
  s.intake_threads = cfg.intake_threads > 0 ? cfg.intake_threads
                     : spawned              ? threads
                                            : std::max(32, 8 * threads);
  s.body_timeout = std::chrono::milliseconds(cfg.body_timeout_ms);
  return s;
}

}  // namespace placard::fcgi
