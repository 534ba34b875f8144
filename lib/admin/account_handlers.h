#pragma once
#include <optional>
#include <string_view>

#include "lib/admin/admin_router.h"

namespace placard::admin {

// POST /accounts (registration, pending), GET /accounts, GET /accounts/{id},
// POST /accounts/{id}/approve, POST /accounts/{id}/revoke. Contract section 6.
void add_account_routes(AdminRouter& admin);

// A plausible email address: 3..254 characters, one '@' with text on both sides, no spaces,
// control characters, quotes or angle brackets.
bool plausible_email(std::string_view email);

// A decimal id of 1..20 digits without a leading zero; nullopt otherwise (the caller answers 404).
std::optional<std::uint64_t> parse_id(std::string_view text);

inline constexpr std::size_t kMinPasswordChars = 12;
inline constexpr std::size_t kMaxPasswordBytes = 1024;
// Registrations are counted within the last hour (AuthLimits).
inline constexpr int kRegistrationWindowSeconds = 3600;

}  // namespace placard::admin
