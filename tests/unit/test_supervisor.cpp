#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <set>
#include <thread>

#include "lib/process/supervisor.h"

namespace {

using placard::process::describe_wait_status;
using placard::process::supervise;
using placard::process::SupervisorOptions;

// Reads one pid a worker process wrote to the pipe; 0 at the end of the pipe (every writer is
// gone) or after 5 s without one.
pid_t next_pid(int fd) {
  pid_t pid = 0;
  for (int i = 0; i < 500; ++i) {
    const ssize_t n = ::read(fd, &pid, sizeof pid);
    if (n == static_cast<ssize_t>(sizeof pid)) return pid;
    if (n == 0) return 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 0;
}

bool gone(pid_t pid) {
  return ::kill(pid, 0) != 0;
}

// Waits up to `seconds` for the supervisor to exit; its wait status, or -1.
int wait_exit(pid_t pid, int seconds) {
  for (int i = 0; i < seconds * 100; ++i) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

TEST(Supervisor, ReplacesAKilledWorkerAndStopsAllOnSigterm) {
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_NONBLOCK), 0);
  const pid_t supervisor = ::fork();
  ASSERT_GE(supervisor, 0);
  if (supervisor == 0) {
    ::close(fds[0]);
    SupervisorOptions options;
    options.processes = 2;
    const int status = supervise(options,
                                 [&] {
                                   const pid_t self = ::getpid();
                                   if (::write(fds[1], &self, sizeof self) != sizeof self) return 3;
                                   for (;;) ::pause();
                                 },
                                 {});
    std::_Exit(status);
  }
  ::close(fds[1]);
  const pid_t a = next_pid(fds[0]);
  const pid_t b = next_pid(fds[0]);
  ASSERT_NE(a, 0);
  ASSERT_NE(b, 0);
  EXPECT_NE(a, b);

  ASSERT_EQ(::kill(a, SIGKILL), 0);
  const pid_t c = next_pid(fds[0]);  // the replacement (after restart_pause: a lived < 1 s)
  ASSERT_NE(c, 0);
  EXPECT_NE(c, a);
  EXPECT_NE(c, b);
  EXPECT_TRUE(gone(a));
  EXPECT_FALSE(gone(b));

  ASSERT_EQ(::kill(supervisor, SIGTERM), 0);
  const int status = wait_exit(supervisor, 5);
  ASSERT_NE(status, -1) << "the supervisor did not exit within 5 s of SIGTERM";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << describe_wait_status(status);
  EXPECT_TRUE(gone(b));
  EXPECT_TRUE(gone(c));
  EXPECT_EQ(next_pid(fds[0]), 0) << "a worker was started after SIGTERM";
  ::close(fds[0]);
}

TEST(Supervisor, DescribesWaitStatuses) {
  EXPECT_EQ(describe_wait_status(3 << 8), "exited with status 3");
  EXPECT_EQ(describe_wait_status(SIGKILL), "killed by signal 9 (SIGKILL)");
}

}  // namespace
