#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "lib/admin/admin_router.h"

namespace placard::admin {

// Contract section 8, the parts built so far: GET /network, PUT and DELETE
// /network/credentials/{network}, GET /network/category-map, PUT
// /network/category-map/{network}/{externalCategoryId}.
void add_network_routes(AdminRouter& admin);

// "admitad" | "awin"; false for anything else (the caller answers 404 or 400).
bool known_network(std::string_view name);

// A credential field's value: 1..512 characters, no control characters (C0, DEL, C1). The text
// is valid UTF-8 (the body parser checked it).
bool valid_credential_text(std::string_view text);

}  // namespace placard::admin
