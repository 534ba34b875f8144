#pragma once

namespace placard::util {

// The release of this build ("0.9.0"), from the VERSION file at the repository's root: the
// Makefile passes it to this one translation unit only (-DPLACARD_VERSION), so a version bump
// recompiles one file.
const char* service_version();

}  // namespace placard::util
