#pragma once
#include <string>

#include "lib/json/writer.h"
#include "lib/store/account_store.h"

namespace placard::admin {

// An account as the admin API shows it (contract 6.1): never its password hash.
void write_account(json::Writer& w, const db::Account& a);
std::string account_json(const db::Account& a);

}  // namespace placard::admin
