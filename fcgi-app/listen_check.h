#pragma once
// The check every listen address passes before a socket is opened on it.
#include <string>

#include "lib/util/logger.h"

namespace placard::fcgi {

// Refuses wildcard and malformed listen addresses (whatever set them: config, environment or
// --listen) with std::runtime_error; an address other machines can reach starts with a warning
// in the log.
void require_sane_listen(const std::string& listen, util::Logger& log);

}  // namespace placard::fcgi
