#include "fcgi-app/signal_watcher.h"

#include <pthread.h>

#include <cstring>
#include <string>

#include "fcgi-app/worker_pool.h"

namespace placard::fcgi {

namespace {

// SIGUSR2 wakes the watcher when the worker stops without a signal.
sigset_t watched_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGTERM, SIGINT, SIGHUP, SIGUSR2}) sigaddset(&set, s);
  return set;
}

}  // namespace

void block_watched_signals() {
  const sigset_t blocked = watched_set();
  pthread_sigmask(SIG_BLOCK, &blocked, nullptr);
}

SignalWatcher::SignalWatcher(int listen_fd, catalog::Refresher* refresher, util::Logger& log)
    : thread_([=, &log] {
        sigset_t set = watched_set();
        int sig = 0;
        sigwait(&set, &sig);
        if (sig != SIGUSR2) log.info(std::string("signal ") + strsignal(sig) + ": shutting down");
        if (refresher != nullptr) refresher->stop();
        request_shutdown(listen_fd);
      }) {}

SignalWatcher::~SignalWatcher() {
  pthread_kill(thread_.native_handle(), SIGUSR2);
  thread_.join();
}

}  // namespace placard::fcgi
