#include "lib/util/service_version.h"

// The Makefile always defines it; tools that compile the file alone (clang-tidy) get this.
#ifndef PLACARD_VERSION
#define PLACARD_VERSION "unknown"
#endif

namespace placard::util {

const char* service_version() {
  return PLACARD_VERSION;
}

}  // namespace placard::util
