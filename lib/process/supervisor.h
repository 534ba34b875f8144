#pragma once
#include <chrono>
#include <functional>
#include <string>

namespace placard::process {

struct SupervisorOptions {
  int processes = 2;
  // A child that dies sooner than this after its start is restarted only after restart_pause
  // (a crash loop does not become a fork loop).
  std::chrono::milliseconds quick_exit{1000};
  std::chrono::milliseconds restart_pause{500};
  // After SIGTERM, children still there after this long get SIGKILL.
  std::chrono::milliseconds stop_grace{8000};
};

// Runs `processes` copies of child_main, each in a forked process, and starts a new one whenever
// one dies (SIGKILL, crash, out of memory): whatever the children serve (a listening socket
// opened before) stays open here, so new connections wait in its backlog instead of being
// refused while a child is replaced. SIGTERM, SIGINT or SIGHUP to this process is passed on to
// the children; supervise returns 0 once they have all exited. Children also get SIGTERM when
// this process dies (PR_SET_PDEATHSIG). Call it before any thread exists: only the calling
// thread is copied into a child. report hears starts, deaths and the shutdown.
int supervise(const SupervisorOptions& options, const std::function<int()>& child_main,
              const std::function<void(const std::string&)>& report);

// "exited with status N" or "killed by signal N (NAME)", for a wait status.
std::string describe_wait_status(int status);

}  // namespace placard::process
