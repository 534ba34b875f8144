// The runtime user's per-table grants: what is granted, what is revoked, in which order.
#include "lib/db/runtime_grants.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using placard::db::account_name;
using placard::db::CurrentGrants;
using placard::db::plan_runtime_grants;
using placard::db::runtime_privileges;
using Statements = std::vector<std::string>;

std::set<std::string> rw() {
  return {"SELECT", "INSERT", "UPDATE", "DELETE"};
}

const char* const kTo = " TO 'placard'@'localhost'";

TEST(RuntimeGrants, PrivilegesPerTable) {
  EXPECT_EQ(runtime_privileges("offers"), rw());
  EXPECT_EQ(runtime_privileges("sessions"), rw());
  EXPECT_EQ(runtime_privileges("audit_log"), (std::set<std::string>{"SELECT", "INSERT"}));
  EXPECT_EQ(runtime_privileges("schema_migrations"), (std::set<std::string>{"SELECT"}));
  // Issue 22, item 13: narrower where the worker's statements allow it.
  const std::set<std::string> update_only{"SELECT", "UPDATE"};
  EXPECT_EQ(runtime_privileges("catalog_version"), update_only);
  EXPECT_EQ(runtime_privileges("rollup_progress"), update_only);
  EXPECT_EQ(runtime_privileges("countries"), update_only);
  const std::set<std::string> no_delete{"SELECT", "INSERT", "UPDATE"};
  EXPECT_EQ(runtime_privileges("settings"), no_delete);
  EXPECT_EQ(runtime_privileges("sync_runs"), no_delete);
  EXPECT_EQ(runtime_privileges("network_categories"), no_delete);
  EXPECT_EQ(runtime_privileges("ignored_events"),
            (std::set<std::string>{"SELECT", "INSERT", "DELETE"}));
  EXPECT_EQ(runtime_privileges("rollup_spans"),
            (std::set<std::string>{"SELECT", "INSERT", "DELETE"}));
  EXPECT_EQ(runtime_privileges("a_new_table"), rw());
}

TEST(RuntimeGrants, FromTheOldDatabaseWideGrant) {
  CurrentGrants g;
  g.tables = {"audit_log", "offers", "schema_migrations"};
  g.database_wide = rw();
  EXPECT_EQ(plan_runtime_grants("placard", "placard", "localhost", g),
            (Statements{
                "GRANT SELECT, INSERT ON `placard`.`audit_log` TO 'placard'@'localhost'",
                std::string("GRANT SELECT, INSERT, UPDATE, DELETE ON `placard`.`offers`") + kTo,
                "GRANT SELECT ON `placard`.`schema_migrations` TO 'placard'@'localhost'",
                // Only after the table grants: the running worker never loses what it needs.
                "REVOKE ALL PRIVILEGES ON `placard`.* FROM 'placard'@'localhost'",
            }));
}

TEST(RuntimeGrants, NothingToDoWhenAlreadyRight) {
  CurrentGrants g;
  g.tables = {"audit_log", "offers", "schema_migrations"};
  g.by_table = {
      {"audit_log", {"INSERT", "SELECT"}}, {"offers", rw()}, {"schema_migrations", {"SELECT"}}};
  EXPECT_TRUE(plan_runtime_grants("placard", "placard", "localhost", g).empty());
}

TEST(RuntimeGrants, NewTablesAreGrantedAndExtrasRevoked) {
  CurrentGrants g;
  g.tables = {"audit_log", "offers", "new_table"};
  g.by_table = {{"audit_log", rw()}, {"offers", {"SELECT", "DROP"}}, {"gone", {"SELECT"}}};
  EXPECT_EQ(plan_runtime_grants("placard", "placard", "localhost", g),
            (Statements{
                // In the order information_schema listed the tables.
                "GRANT INSERT, UPDATE, DELETE ON `placard`.`offers` TO 'placard'@'localhost'",
                std::string("GRANT SELECT, INSERT, UPDATE, DELETE ON `placard`.`new_table`") + kTo,
                "REVOKE UPDATE, DELETE ON `placard`.`audit_log` FROM 'placard'@'localhost'",
                "REVOKE DROP ON `placard`.`offers` FROM 'placard'@'localhost'",
                "REVOKE SELECT ON `placard`.`gone` FROM 'placard'@'localhost'",
            }));
}

TEST(RuntimeGrants, NamesAreQuoted) {
  EXPECT_EQ(account_name("o'neil", "local\\host"), "'o''neil'@'local\\\\host'");
  CurrentGrants g;
  g.tables = {"we`ird"};
  EXPECT_EQ(plan_runtime_grants("my_db", "u", "%", g),
            (Statements{"GRANT SELECT, INSERT, UPDATE, DELETE ON `my_db`.`we``ird` TO 'u'@'%'"}));
}

}  // namespace
