#include "lib/process/supervisor.h"

#include <pthread.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <vector>

namespace placard::process {

namespace {

using Clock = std::chrono::steady_clock;

sigset_t supervisor_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (const int s : {SIGCHLD, SIGTERM, SIGINT, SIGHUP}) sigaddset(&set, s);
  return set;
}

// In the child: dies with the supervisor, gets back the signal mask the caller had, runs.
[[noreturn]] void run_child(const std::function<int()>& child_main, pid_t supervisor,
                            const sigset_t& caller_mask) {
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != supervisor) std::_Exit(1);  // the supervisor died before prctl
  pthread_sigmask(SIG_SETMASK, &caller_mask, nullptr);
  int status = 1;
  try {
    status = child_main();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "placard worker process: %s\n", e.what());
  }
  std::fflush(nullptr);
  std::_Exit(status);
}

class Children {
 public:
  Children(const std::function<int()>& child_main,
           const std::function<void(const std::string&)>& report, const sigset_t& caller_mask)
      : child_main_(child_main), report_(report), caller_mask_(caller_mask) {}

  bool start() {
    const pid_t pid = ::fork();
    if (pid == 0) run_child(child_main_, self_, caller_mask_);
    if (pid < 0) {
      say(std::string("cannot start a worker process: ") + std::strerror(errno));
      return false;
    }
    started_[pid] = Clock::now();
    say("worker process " + std::to_string(pid) + " started");
    return true;
  }

  // Reaps every child that has exited; returns how long each of them had lived.
  std::vector<Clock::duration> reap() {
    std::vector<Clock::duration> lives;
    for (;;) {
      int status = 0;
      const pid_t pid = ::waitpid(-1, &status, WNOHANG);
      if (pid <= 0) break;
      const auto it = started_.find(pid);
      if (it == started_.end()) continue;
      lives.push_back(Clock::now() - it->second);
      started_.erase(it);
      say("worker process " + std::to_string(pid) + " " + describe_wait_status(status));
    }
    return lives;
  }

  void signal_all(int sig) const {
    for (const auto& [pid, since] : started_) ::kill(pid, sig);
  }
  bool empty() const { return started_.empty(); }
  void say(const std::string& message) const {
    if (report_) report_(message);
  }

 private:
  const std::function<int()>& child_main_;
  const std::function<void(const std::string&)>& report_;
  const sigset_t& caller_mask_;
  pid_t self_ = ::getpid();
  std::map<pid_t, Clock::time_point> started_;
};

std::string signal_name(int sig) {
  const char* name = sigabbrev_np(sig);
  return name != nullptr ? std::string("SIG") + name : "signal " + std::to_string(sig);
}

timespec until(Clock::time_point now, Clock::time_point deadline) {
  const auto left = std::max(Clock::duration::zero(), deadline - now);
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
  return timespec{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
}

}  // namespace

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "killed by signal " + std::to_string(sig) + " (" + signal_name(sig) + ")";
  }
  return "stopped (wait status " + std::to_string(status) + ")";
}

int supervise(const SupervisorOptions& options, const std::function<int()>& child_main,
              const std::function<void(const std::string&)>& report) {
  const sigset_t watched = supervisor_signals();
  sigset_t caller_mask;
  pthread_sigmask(SIG_BLOCK, &watched, &caller_mask);
  Children children(child_main, report, caller_mask);
  // When to start a process: all of them now, later each replacement.
  std::vector<Clock::time_point> restarts(static_cast<std::size_t>(options.processes),
                                          Clock::now());
  bool stopping = false;
  Clock::time_point kill_at{};
  for (;;) {
    const auto now = Clock::now();
    if (!stopping) {
      std::vector<Clock::time_point> later;
      for (const auto at : restarts) {
        if (at > now) {
          later.push_back(at);
        } else if (!children.start()) {
          later.push_back(now + options.restart_pause);
        }
      }
      restarts = later;
    } else if (now >= kill_at) {
      children.signal_all(SIGKILL);
    }
    if (children.empty() && (stopping || restarts.empty())) break;
    auto wake = now + std::chrono::milliseconds(200);
    for (const auto at : restarts) wake = std::min(wake, at);
    if (stopping) wake = std::min(wake, std::max(now, kill_at));
    const timespec timeout = until(now, wake);
    siginfo_t info{};
    const int sig = sigtimedwait(&watched, &info, &timeout);
    if ((sig == SIGTERM || sig == SIGINT || sig == SIGHUP) && !stopping) {
      stopping = true;
      kill_at = Clock::now() + options.stop_grace;
      children.say(signal_name(sig) + ": stopping the worker processes");
      children.signal_all(SIGTERM);
    }
    for (const auto lived : children.reap()) {
      if (stopping) continue;
      restarts.push_back(lived < options.quick_exit ? Clock::now() + options.restart_pause
                                                    : Clock::now());
    }
  }
  pthread_sigmask(SIG_SETMASK, &caller_mask, nullptr);
  return 0;
}

}  // namespace placard::process
