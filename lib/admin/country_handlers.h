#pragma once
#include "lib/admin/admin_router.h"

namespace placard::admin {

// GET /countries (every known ISO 3166-1 alpha-2 country, {"code", "name", "selected"}, sorted
// by code, not paginated: {"items", "total"}), GET /countries/{code}, and PUT /countries
// {"countries": [...]} replacing the selected set (audited, catalog version bumped when the
// selection changed); its answer is the list as GET answers it.
void add_country_routes(AdminRouter& admin);

}  // namespace placard::admin
