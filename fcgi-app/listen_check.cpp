#include "fcgi-app/listen_check.h"

#include <stdexcept>

#include "lib/config/listen_address.h"

namespace placard::fcgi {

void require_sane_listen(const std::string& listen, util::Logger& log) {
  const auto check = config::check_listen(listen);
  if (!check.error.empty()) throw std::runtime_error(check.error);
  if (!check.warning.empty()) log.info("warning: " + check.warning);
}

}  // namespace placard::fcgi
