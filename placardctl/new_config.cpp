#include "placardctl/new_config.h"

#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "lib/config/admin_config.h"
#include "lib/crypto/base64.h"
#include "lib/crypto/random.h"
#include "lib/tokens/key_ring.h"
#include "lib/util/private_file.h"

namespace placard::ctl {

namespace {

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

const std::vector<std::string>& config_options() {
  static const std::vector<std::string> options{
      "listen",   "socket-mode", "socket-group",  "threads",  "db-socket",
      "db-host",  "db-port",     "db-name",       "db-user",  "db-admin-user",
      "log-file", "sql-dir",     "public-origin", "base-path"};
  return options;
}

std::string read_secret_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

std::string new_password() {
  return crypto::base64url_encode(crypto::random_bytes(24));
}

config::ServerConfig new_config(const Args& a, const std::map<std::string, std::string>& defaults,
                                const std::string& db_password, const std::string& admin_password) {
  const auto opt = [&](const std::string& name, const std::string& fallback) {
    const auto d = defaults.find(name);
    return a.get(name, d == defaults.end() ? fallback : d->second);
  };
  std::map<std::string, std::string> kv;
  const std::string kid = today_kid();
  kv["listen"] = opt("listen", "");
  kv["socket_mode"] = opt("socket-mode", "0660");
  kv["socket_group"] = opt("socket-group", "");
  kv["threads"] = opt("threads", "8");
  kv["log_file"] = opt("log-file", "");
  kv["db.socket"] = a.has("db-host") ? a.get("db-socket") : opt("db-socket", "");
  kv["db.host"] = opt("db-host", "127.0.0.1");
  kv["db.port"] = opt("db-port", "3306");
  kv["db.name"] = opt("db-name", "placard");
  kv["db.user"] = opt("db-user", "placard");
  kv["db.password"] = db_password;
  kv["token.keys"] = new_secret_key(kid);
  kv["token.active_key"] = kid;
  kv["credentials.key"] = new_secret_key(kid);
  kv["sql_dir"] = opt("sql-dir", "");
  kv["public_origin"] = opt("public-origin", "");
  kv["base_path"] = opt("base-path", "");
  auto cfg = config::server_config_from(kv);  // validates what was given
  (void)tokens::KeyRing::parse(cfg.token_keys, cfg.token_active_key);
  cfg.db.admin_user = opt("db-admin-user", "");
  cfg.db.admin_password = admin_password;
  return cfg;
}

void write_configs(const Context& ctx, const config::ServerConfig& cfg, bool force) {
  for (const auto& path : {ctx.config_path, ctx.admin_config_path}) {
    std::error_code ec;
    if (!force &&
        std::filesystem::symlink_status(path, ec).type() != std::filesystem::file_type::not_found) {
      throw std::runtime_error(path + " exists (use --force to replace it)");
    }
  }
  util::write_private_file(ctx.admin_config_path, config::render_admin_config(cfg.db), force);
  util::write_private_file(ctx.config_path, config::render_server_config(cfg), force);
}

}  // namespace placard::ctl
