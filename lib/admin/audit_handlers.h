#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "lib/admin/admin_router.h"

namespace placard::admin {

// GET /audit (newest first; filters account, resource, action, from, to) and GET /audit/{id}.
// Contract 6.1.
void add_audit_routes(AdminRouter& admin);

// A bound of the audit list's time range, RFC 3339 or YYYY-MM-DD, both inclusive, as Unix
// seconds: `from` is the first second it covers; `to` the first second after it (a day: the next
// midnight; a time: the next second). nullopt when malformed.
std::optional<std::int64_t> audit_from(std::string_view text);
std::optional<std::int64_t> audit_until(std::string_view text);

}  // namespace placard::admin
