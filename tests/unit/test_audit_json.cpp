#include "lib/admin/audit_json.h"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(AuditJson, EmbedsStoredJsonAndTheAccount) {
  placard::db::AuditEntry e;
  e.id = 7;
  e.at = 60;
  e.account_id = 3;
  e.account_email = "a@b.example";
  e.action = "offer.update";
  e.resource = "offer:9";
  e.before_json = R"({"priority": 1, "t": "x\"y"})";
  e.after_json = std::nullopt;
  EXPECT_EQ(placard::admin::audit_entry_json(e),
            R"({"id":"7","at":"1970-01-01T00:01:00Z","account":{"id":"3","email":"a@b.example"},)"
            R"("action":"offer.update","resource":"offer:9","before":{"priority":1,"t":"x\"y"},)"
            R"("after":null})");
  e.account_id.reset();
  e.account_email.reset();
  e.before_json = "not json";
  EXPECT_EQ(placard::admin::audit_entry_json(e),
            R"({"id":"7","at":"1970-01-01T00:01:00Z","account":null,"action":"offer.update",)"
            R"("resource":"offer:9","before":"not json","after":null})");
}

}  // namespace
