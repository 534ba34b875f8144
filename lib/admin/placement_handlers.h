#pragma once
#include "lib/admin/admin_router.h"

namespace placard::admin {

// GET /placements (paginated, ordered by name, filter `enabled`), GET /placements/{name},
// POST /placements, PATCH /placements/{name} (maxOffers, enabled), DELETE /placements/{name}.
// A placement: {"name", "maxOffers", "enabled"}. Contract 6 and 6.1. Every write: one
// transaction with its audit row and the catalog version bump.
void add_placement_routes(AdminRouter& admin);

}  // namespace placard::admin
