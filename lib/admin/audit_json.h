#pragma once
#include <string>

#include "lib/json/writer.h"
#include "lib/store/audit_store.h"

namespace placard::admin {

// An audit entry (contract 6.1): {"id", "at", "account": {"id", "email"} or null, "action",
// "resource", "before", "after"}; before and after are the stored JSON values embedded as JSON
// (null when none; a stored text that is not JSON, which no writer makes, is shown as a string).
void write_audit_entry(json::Writer& w, const db::AuditEntry& e);
std::string audit_entry_json(const db::AuditEntry& e);

}  // namespace placard::admin
