// The schema version the worker needs: equal to the highest migration under sql/, and the refusal
// of an older database that names the way out.
#include "lib/db/schema_version.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/db/migrations.h"

namespace {

TEST(SchemaVersion, EqualsTheHighestMigrationUnderSql) {
  // Run from the repository's root (make unit, run-tests.sh).
  const auto files = placard::db::list_migrations("sql");
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(placard::db::kRequiredSchemaVersion, files.back().version)
      << "a migration was added: raise kRequiredSchemaVersion in lib/db/schema_version.h";
}

TEST(SchemaVersion, RefusalNamesPlacardctlMigrate) {
  EXPECT_EQ(placard::db::schema_too_old_message(9, 9), "");
  EXPECT_EQ(placard::db::schema_too_old_message(10, 9), "");
  const auto m = placard::db::schema_too_old_message(8, 9);
  EXPECT_NE(m.find("placardctl migrate"), std::string::npos) << m;
  EXPECT_NE(m.find('8'), std::string::npos) << m;
}

}  // namespace
