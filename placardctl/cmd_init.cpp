// placardctl init: a new config file for the worker and a separate one for the migration
// credentials, both mode 0600, with fresh secrets.
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "lib/config/admin_config.h"
#include "lib/crypto/base64.h"
#include "lib/crypto/random.h"
#include "lib/tokens/key_ring.h"
#include "lib/util/private_file.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"

namespace placard::ctl {

namespace {

std::string read_text_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

std::string new_secret_key(const std::string& kid) {
  return kid + ":" + crypto::base64url_encode(crypto::random_bytes(32));
}

std::string today_kid() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "k%Y%m%d", &tm);
  return buf;
}

}  // namespace

int cmd_init(const Context& ctx, const Argv& argv) {
  const auto a =
      parse(argv,
            {"listen", "socket-mode", "socket-group", "threads", "db-socket", "db-host", "db-port",
             "db-name", "db-user", "db-password-file", "db-admin-user", "db-admin-password-file",
             "log-file", "sql-dir", "public-origin", "base-path"},
            {"force"});
  if (a.help) {
    std::cout
        << "placardctl init [--force] [--listen unix:PATH|127.0.0.1:PORT] [--socket-mode 0660]\n"
           "  [--socket-group GROUP] [--threads N] [--db-socket PATH | --db-host H --db-port P]\n"
           "  [--db-name N] [--db-user U] [--db-password-file F] [--db-admin-user U]\n"
           "  [--db-admin-password-file F] [--log-file PATH] [--sql-dir DIR]\n"
           "  [--public-origin scheme://host[:port]] [--base-path /PATH]\n"
           "Writes the worker's config file (--config) with freshly generated token and\n"
           "credentials keys, and the migration credentials (--db-admin-*) to their own file\n"
           "(--admin-config), which the worker never reads. Both mode 0600, written to a\n"
           "temporary file and renamed (a symlink in the way is replaced, never followed).\n"
           "Refuses to replace existing files unless --force.\n";
    return 0;
  }
  std::map<std::string, std::string> kv;
  const std::string kid = today_kid();
  kv["listen"] = a.get("listen");
  kv["socket_mode"] = a.get("socket-mode", "0660");
  kv["socket_group"] = a.get("socket-group");
  kv["threads"] = a.get("threads", "8");
  kv["log_file"] = a.get("log-file");
  kv["db.socket"] = a.get("db-socket");
  kv["db.host"] = a.get("db-host", "127.0.0.1");
  kv["db.port"] = a.get("db-port", "3306");
  kv["db.name"] = a.get("db-name", "placard");
  kv["db.user"] = a.get("db-user", "placard");
  kv["db.password"] = a.has("db-password-file") ? read_text_file(a.get("db-password-file")) : "";
  kv["token.keys"] = new_secret_key(kid);
  kv["token.active_key"] = kid;
  kv["credentials.key"] = new_secret_key(kid);
  kv["sql_dir"] = a.get("sql-dir");
  kv["public_origin"] = a.get("public-origin");
  kv["base_path"] = a.get("base-path");
  auto cfg = config::server_config_from(kv);  // validates what was given
  (void)tokens::KeyRing::parse(cfg.token_keys, cfg.token_active_key);
  cfg.db.admin_user = a.get("db-admin-user");
  cfg.db.admin_password =
      a.has("db-admin-password-file") ? read_text_file(a.get("db-admin-password-file")) : "";
  const bool force = a.flag("force");
  for (const auto& path : {ctx.config_path, ctx.admin_config_path}) {
    std::error_code ec;
    if (!force &&
        std::filesystem::symlink_status(path, ec).type() != std::filesystem::file_type::not_found) {
      throw std::runtime_error(path + " exists (use --force to replace it)");
    }
  }
  util::write_private_file(ctx.admin_config_path, config::render_admin_config(cfg.db), force);
  util::write_private_file(ctx.config_path, config::render_server_config(cfg), force);
  std::cout << "wrote " << ctx.config_path << " (the worker's, mode 0600, new secrets) and "
            << ctx.admin_config_path << " (migration credentials, mode 0600)\n";
  return 0;
}

}  // namespace placard::ctl
