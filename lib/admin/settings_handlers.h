#pragma once
#include "lib/admin/admin_router.h"

namespace placard::admin {

// GET /settings and PATCH /settings (contract 6 and 6.1): every administrator setting, plus the
// read-only publicOrigin. A PATCH takes any subset, checks each value's range, writes them, its
// audit row (whole settings before and after) and, when anything changed, the catalog version
// bump in one transaction; it answers the settings as they now are.
void add_settings_routes(AdminRouter& admin);

}  // namespace placard::admin
