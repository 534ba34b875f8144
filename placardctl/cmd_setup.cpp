// placardctl setup: everything between an installed package and a running service, idempotent:
// the database and its users, the config files with fresh secrets, migrations, grants and the
// first administrator. Each failure has its own exit status (docs/operations.md lists them).
#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "lib/config/config_file.h"
#include "lib/crypto/password_hash.h"
#include "lib/db/connection_params.h"
#include "lib/db/migrations.h"
#include "lib/db/provision.h"
#include "lib/db/runtime_grants.h"
#include "lib/store/account_commands.h"
#include "lib/util/private_file.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"
#include "placardctl/config_layout.h"
#include "placardctl/new_config.h"

namespace placard::ctl {

namespace {

// Exit statuses (2 is a usage error, 1 anything unforeseen).
enum Exit : int { kNoDatabase = 3, kPrivileges = 4, kMigration = 5, kConfig = 6, kAdmin = 7 };

struct SetupError : std::runtime_error {
  SetupError(int status, const std::string& what) : std::runtime_error(what), code(status) {}
  int code;
};

const char* const kHelp =
    "placardctl setup [--single-user] [--db-admin-user root] [--db-admin-password-file F]\n"
    "  [--db-socket /run/mysqld/mysqld.sock | --db-host H --db-port P] [--db-name placard]\n"
    "  [--db-user placard] [--db-user-host localhost] [--db-password-file F]\n"
    "  [--listen unix:/run/placard/placard.sock] [--socket-group www-data] [--socket-mode 0660]\n"
    "  [--threads N] [--log-file /var/log/placard/placard.log] [--sql-dir DIR]\n"
    "  [--config-group placard] [--public-origin https://host[:port]] [--base-path /path]\n"
    "  [--admin-email E [--admin-password-stdin | --admin-password-file F]]\n"
    "Makes a configured, migrated service; safe to run again (nothing done twice, no secret\n"
    "replaced; the db.admin_* lines of a config from before placard-admin.conf move there).\n"
    "With the administrative account (--db-admin-user; unix socket authentication\n"
    "when no password file): creates the database and the runtime user (db.user, a fresh\n"
    "password), writes the config files when missing (the worker's: mode 0640, owner root,\n"
    "group --config-group; placard-admin.conf with the administrative account: 0600 root),\n"
    "migrates, grants the runtime user its per-table privileges. --single-user: the one account\n"
    "a host gives (--db-user, --db-password-file) does everything; no user is created and\n"
    "nothing granted, so the worker holds the migration privileges too; its config stays 0600\n"
    "(the worker runs as the same user) unless --config-group is given. --admin-email: the\n"
    "first administrator, approved, when no account has that email; its password from standard\n"
    "input (--admin-password-stdin) or generated and printed once (or written to F, 0600).\n"
    "Exit status: 0 done, 2 usage, 3 database unreachable, 4 database or user not created or\n"
    "not granted, 5 migration failed, 6 config file, 7 first administrator.\n";

template <typename Step>
void step(int code, const std::string& what, Step&& work) {
  try {
    work();
  } catch (const SetupError&) {
    throw;
  } catch (const std::exception& e) {
    throw SetupError(code, what + ": " + e.what());
  }
}

// The worker's file: root (or whoever runs setup) may write it, the service's group read it.
void share_with_group(const std::string& path, const std::string& group) {
  if (group.empty()) return;
  const struct group* g = ::getgrnam(group.c_str());  // NOLINT(concurrency-mt-unsafe)
  if (g == nullptr) {
    throw SetupError(kConfig, "no group '" + group +
                                  "' (create the service user first, or give --config-group)");
  }
  if (::chown(path.c_str(), static_cast<uid_t>(-1), g->gr_gid) != 0 ||
      ::chmod(path.c_str(), 0640) != 0) {
    throw SetupError(kConfig, "cannot give " + path + " to group " + group);
  }
}

bool exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::symlink_status(path, ec).type() != std::filesystem::file_type::not_found;
}

config::ServerConfig config_for(const Context& ctx, const Args& a, bool single) {
  step(kConfig, "cannot move the migration credentials to their own file", [&] {
    if (const auto moved = move_migration_credentials(ctx); !moved.empty()) {
      std::cout << moved << "\n";
    }
  });
  const bool have = exists(ctx.config_path);
  if (have != exists(ctx.admin_config_path)) {
    throw SetupError(kConfig, "only one of " + ctx.config_path + " and " + ctx.admin_config_path +
                                  " exists: put the other back, or remove both to start anew");
  }
  if (have) {
    std::cout << "config: " << ctx.config_path << " exists, kept (secrets unchanged)\n";
    try {
      return ctx.load();
    } catch (const std::exception& e) {
      throw SetupError(kConfig, e.what());
    }
  }
  if (single && (!a.has("db-user") || !a.has("db-password-file"))) {
    throw UsageError("--single-user needs --db-user and --db-password-file (the host's account)");
  }
  std::map<std::string, std::string> defaults{{"listen", "unix:/run/placard/placard.sock"},
                                              {"socket-group", "www-data"},
                                              {"db-socket", "/run/mysqld/mysqld.sock"},
                                              {"log-file", "/var/log/placard/placard.log"},
                                              {"db-admin-user", single ? "" : "root"}};
  const std::string db_password =
      a.has("db-password-file") ? read_secret_file(a.get("db-password-file")) : new_password();
  const std::string admin_password =
      a.has("db-admin-password-file") ? read_secret_file(a.get("db-admin-password-file")) : "";
  config::ServerConfig cfg;
  try {
    cfg = new_config(a, defaults, db_password, single ? "" : admin_password);
  } catch (const config::ConfigError& e) {
    throw UsageError(e.what());
  }
  step(kConfig, "cannot write the config", [&] { write_configs(ctx, cfg, false); });
  // The host's one account (--single-user, e.g. a shared host whose worker runs as this same
  // user under suEXEC): nobody else needs to read it, so it stays 0600 unless a group is named.
  const bool share = !single || a.has("config-group");
  if (share) share_with_group(ctx.config_path, a.get("config-group", "placard"));
  std::cout << "config: wrote " << ctx.config_path << (share ? " (0640" : " (0600")
            << ", new secrets) and " << ctx.admin_config_path << " (0600)\n";
  return cfg;
}

void first_admin(const config::ServerConfig& cfg, const Args& a) {
  const std::string email = a.get("admin-email");
  db::MysqlSession session(db::admin_params(cfg));
  if (db::account_exists(session, email)) {
    std::cout << "admin: " << email << " exists, password unchanged\n";
    return;
  }
  std::string password;
  const std::string file = a.get("admin-password-file");
  if (a.flag("admin-password-stdin") && !file.empty()) {
    throw UsageError("--admin-password-stdin and --admin-password-file exclude each other");
  }
  if (a.flag("admin-password-stdin")) {
    std::getline(std::cin, password);
    while (!password.empty() && (password.back() == '\r' || password.back() == '\n')) {
      password.pop_back();
    }
    if (password.size() < 12) throw UsageError("the password must have at least 12 characters");
  } else {
    password = new_password();
  }
  if (!file.empty()) util::write_private_file(file, password + "\n", true);
  const auto id = db::create_account(session, email, crypto::hash_password(password), true);
  std::cout << "admin: account " << id << " created for " << email << " (approved)\n";
  if (!file.empty()) {
    std::cout << "admin password: written to " << file << " (mode 0600)\n";
  } else if (!a.flag("admin-password-stdin")) {
    std::cout << "admin password (shown once, not stored anywhere): " << password << "\n";
  }
}

int run_setup(const Context& ctx, const Args& a) {
  const bool single = a.flag("single-user");
  if (single && a.has("db-admin-user")) {
    throw UsageError("--single-user and --db-admin-user exclude each other");
  }
  const auto cfg = config_for(ctx, a, single);
  db::init_driver();
  auto server = db::admin_params(cfg);
  server.name.clear();  // the database may not exist yet
  db::MysqlSession admin(server);
  step(kNoDatabase, "cannot connect to the database as " + server.user,
       [&] { (void)admin.connection(); });
  const std::string user_host = a.get("db-user-host", "localhost");
  if (!single) {
    step(kPrivileges, "cannot create the database and its user", [&] {
      db::create_database(admin, cfg.db.name);
      db::ensure_user(admin, cfg.db.user, user_host, cfg.db.password);
    });
    std::cout << "database: " << cfg.db.name << " and " << db::account_name(cfg.db.user, user_host)
              << " ready\n";
  } else {
    try {
      db::create_database(admin, cfg.db.name);
    } catch (const std::exception&) {
      // The host made the database; the single account may not create one.
    }
  }
  db::MysqlSession migrator(db::admin_params(cfg));
  step(kMigration, "migration failed", [&] {
    const auto applied = db::apply_migrations(
        migrator, sql_dir_of(cfg),
        [](const std::string& name) { std::cout << "applying " << name << "\n"; });
    std::cout << "schema: " << (applied.empty() ? "up to date" : "migrated") << "\n";
  });
  if (!single) {
    step(kPrivileges, "cannot grant the runtime user its privileges", [&] {
      const auto statements =
          db::plan_runtime_grants(cfg.db.name, cfg.db.user, user_host,
                                  db::read_grants(migrator, cfg.db.name, cfg.db.user, user_host));
      const std::unique_ptr<sql::Statement> st(migrator.connection().createStatement());
      for (const auto& s : statements) st->execute(s);
      std::cout << "grants: " << (statements.empty() ? "already right" : "updated") << "\n";
    });
  }
  if (a.has("admin-email")) {
    step(kAdmin, "cannot create the first administrator", [&] { first_admin(cfg, a); });
  }
  std::cout << "setup: done; start the worker (systemctl restart placard) and enable the web "
               "server's snippet (docs/operations.md)\n";
  return 0;
}

}  // namespace

int cmd_setup(const Context& ctx, const Argv& argv) {
  auto valued = config_options();
  valued.insert(valued.end(), {"db-admin-password-file", "db-password-file", "db-user-host",
                               "config-group", "admin-email", "admin-password-file"});
  const auto a = parse(argv, valued, {"single-user", "admin-password-stdin"});
  if (a.help) {
    std::cout << kHelp;
    return 0;
  }
  try {
    return run_setup(ctx, a);
  } catch (const SetupError& e) {
    std::cerr << "placardctl setup: " << e.what() << "\n";
    return e.code;
  }
}

}  // namespace placard::ctl
