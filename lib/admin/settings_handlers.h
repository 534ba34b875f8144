#pragma once
#include <map>
#include <string>

#include "lib/admin/admin_router.h"
#include "lib/admin/body.h"

namespace placard::admin {

// GET /settings and PATCH /settings (contract 6 and 6.1): every administrator setting, plus the
// read-only publicOrigin. A PATCH takes any subset, checks each value's range, writes them, its
// audit row (whole settings before and after) and, when anything changed, the catalog version
// bump in one transaction; it answers the settings as they now are.
void add_settings_routes(AdminRouter& admin);

// A PATCH /settings body's values (Body with the PATCH's fields), each checked (400
// invalid_field naming it) and turned into its stored text form; what the handler writes before
// the checks that need the stored settings (retention against the token time to live).
std::map<std::string, std::string> settings_changes(const Body& body);

}  // namespace placard::admin
