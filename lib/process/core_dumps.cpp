#include "lib/process/core_dumps.h"

#include <sys/prctl.h>
#include <sys/resource.h>

#include <cstdlib>
#include <cstring>

namespace placard::process {

bool forbid_core_dumps() {
  const char* allow = std::getenv("PLACARD_ALLOW_CORE_DUMPS");  // NOLINT(concurrency-mt-unsafe)
  if (allow != nullptr && std::strcmp(allow, "1") == 0) return false;
  const rlimit none{0, 0};
  ::setrlimit(RLIMIT_CORE, &none);
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  return true;
}

}  // namespace placard::process
