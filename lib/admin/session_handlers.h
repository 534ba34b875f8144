#pragma once
#include "lib/admin/admin_router.h"

namespace placard::admin {

// POST /session (sign in), GET /session, DELETE /session (sign out). Contract section 6.
void add_session_routes(AdminRouter& admin);

// Throttling of failed sign-ins (contract section 6): per account, and per client address.
inline constexpr int kThrottleWindowSeconds = 15 * 60;
inline constexpr int kMaxFailuresPerAccount = 5;
inline constexpr int kMaxFailuresPerClient = 20;

}  // namespace placard::admin
