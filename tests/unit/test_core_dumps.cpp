// Issue 22, item 8: the worker and placardctl make themselves not dumpable and without cores.
#include "lib/process/core_dumps.h"

#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

namespace {

// Runs forbid_core_dumps in a child (the test process itself stays as it was) and reports what
// the child saw: bit 0 dumpable, bit 1 a core limit above 0, bit 2 the call's answer.
int in_child(bool allow) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (allow) {
      ::setenv("PLACARD_ALLOW_CORE_DUMPS", "1", 1);  // NOLINT(concurrency-mt-unsafe)
    } else {
      ::unsetenv("PLACARD_ALLOW_CORE_DUMPS");  // NOLINT(concurrency-mt-unsafe)
    }
    const rlimit some{4096, RLIM_INFINITY};
    ::setrlimit(RLIMIT_CORE, &some);
    ::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    const bool forbidden = placard::process::forbid_core_dumps();
    rlimit now{};
    ::getrlimit(RLIMIT_CORE, &now);
    const int dumpable = ::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 1 ? 1 : 0;
    const int cores = now.rlim_cur > 0 || now.rlim_max > 0 ? 2 : 0;
    ::_exit(dumpable | cores | (forbidden ? 4 : 0));
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(CoreDumps, ForbiddenByDefault) {
  EXPECT_EQ(in_child(false), 4);  // not dumpable, core limit 0 (soft and hard), forbidden
}

TEST(CoreDumps, AllowedForDebuggingByTheEnvironment) {
  EXPECT_EQ(in_child(true), 1 | 2);  // left dumpable, with its core limit
}

}  // namespace
