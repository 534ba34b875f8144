#pragma once
#include "lib/admin/admin_router.h"

namespace placard::admin {

// GET /offers (filters q, category, country, network, enabled, isDemo, served), POST /offers
// (a manual or demonstration offer), GET /offers/{id}, PATCH /offers/{id}. No DELETE: offers are
// disabled, never deleted (statistics keep their history), so DELETE answers 405. Contract 6.1.
void add_offer_routes(AdminRouter& admin);

}  // namespace placard::admin
