#include "placardctl/new_config.h"

#include <ctime>
#include <filesystem>
#include <stdexcept>

#include "lib/config/admin_config.h"
#include "lib/config/settings_table.h"
#include "lib/crypto/base64.h"
#include "lib/crypto/random.h"
#include "lib/tokens/key_ring.h"
#include "lib/util/private_file.h"
#include "lib/util/read_file.h"

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
  static const std::vector<std::string> options = [] {
    std::vector<std::string> out;
    for (const auto& s : config::settings()) {
      if (s.init_option) out.push_back(config::option_name(s));
    }
    return out;
  }();
  return options;
}

std::string read_secret_file(const std::string& path) {
  auto text = util::read_whole_file(path);
  if (!text) throw std::runtime_error("cannot read " + path);
  std::string s = std::move(*text);
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
  for (const auto& s : config::settings()) {
    if (s.init_option && s.home == config::SettingHome::worker_file) {
      kv[std::string(s.name)] = opt(config::option_name(s), config::default_value(s));
    }
  }
  // --db-host given: TCP, unless --db-socket is given too (a default socket does not count).
  if (a.has("db-host")) kv["db.socket"] = a.get("db-socket");
  kv["db.password"] = db_password;
  kv["token.keys"] = new_secret_key(kid);
  kv["token.active_key"] = kid;
  kv["credentials.key"] = new_secret_key(kid);
  auto cfg = config::server_config_from(kv);  // validates what was given
  (void)tokens::KeyRing::parse(cfg.token_keys, cfg.token_active_key);
  for (const auto& s : config::settings()) {
    if (s.init_option && s.home == config::SettingHome::admin_file) {
      config::apply_setting(cfg, s, opt(config::option_name(s), config::default_value(s)));
    }
  }
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
