#pragma once
#include "lib/admin/admin_router.h"

namespace placard::admin {

// GET /categories (paginated, ordered by path, filter `enabled`), GET /categories/{path},
// POST /categories, PATCH /categories/{path} (name, icon, displayOrder, enabled),
// DELETE /categories/{path} (409 while it has subcategories or offers). Contract 6 and 6.1.
// A category: {"path", "name", "icon", "displayOrder", "enabled", "effectivelyEnabled",
// "offerCount"}; offerCount counts the offers filed directly in it, in any state.
// Every write: one transaction with its audit row and the catalog version bump.
void add_category_routes(AdminRouter& admin);

}  // namespace placard::admin
