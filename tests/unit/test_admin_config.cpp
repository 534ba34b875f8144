#include "lib/config/admin_config.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/config/config_file.h"
#include "lib/config/server_config.h"
#include "tests/unit/text_file.h"

namespace {

using placard::config::ConfigError;
using placard::config::server_config_from;
using placard::config::ServerConfig;
using placard::test::TextFile;

TEST(AdminConfig, LivesBesideTheWorkersConfig) {
  EXPECT_EQ(placard::config::default_admin_config_path("/etc/placard/placard.conf"),
            "/etc/placard/placard-admin.conf");
  EXPECT_EQ(placard::config::default_admin_config_path("placard.conf"), "placard-admin.conf");
}

TEST(AdminConfig, HoldsTheMigrationCredentialsOnly) {
  const TextFile admin("db.admin_user = root\nthreads = 4\n");
  ServerConfig c;
  EXPECT_THROW(placard::config::load_admin_config(admin.path(), c), ConfigError);
  EXPECT_EQ(c.threads, 8);
}

TEST(AdminConfig, AWorkerConfigWithMigrationCredentialsIsFlagged) {
  EXPECT_FALSE(placard::config::has_migration_credentials(server_config_from({})));
  EXPECT_TRUE(
      placard::config::has_migration_credentials(server_config_from({{"db.admin_user", "root"}})));
  EXPECT_TRUE(
      placard::config::has_migration_credentials(server_config_from({{"db.admin_password", "x"}})));
}

}  // namespace
