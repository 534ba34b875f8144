#pragma once
// The worker's shutdown on a signal: SIGTERM, SIGINT and SIGHUP are blocked in every thread (the
// mask is set before the first thread starts) and one thread waits for them.
#include <csignal>
#include <thread>

#include "lib/catalog/refresher.h"
#include "lib/util/logger.h"

namespace placard::fcgi {

// Blocks the watched signals in the calling thread and every thread it makes from now on.
void block_watched_signals();

// Waits for SIGTERM/SIGINT/SIGHUP and starts the shutdown: stops the catalog refresher (when
// given) and makes the pool's accepts on listen_fd return. Its destructor wakes and joins the
// waiting thread when no signal came.
class SignalWatcher {
 public:
  SignalWatcher(int listen_fd, catalog::Refresher* refresher, util::Logger& log);
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

 private:
  std::thread thread_;
};

}  // namespace placard::fcgi
