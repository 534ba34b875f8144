// placardctl init: a new config file (mode 0600) with fresh secrets.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "lib/crypto/base64.h"
#include "lib/crypto/random.h"
#include "lib/tokens/key_ring.h"
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

// Writes the file with mode 0600 from the start (never readable by others, even briefly).
void write_private_file(const std::string& path, const std::string& text, bool overwrite) {
  const int flags = O_WRONLY | O_CREAT | O_TRUNC | (overwrite ? 0 : O_EXCL);
  const int fd = ::open(path.c_str(), flags, 0600);
  if (fd < 0) {
    throw std::runtime_error(errno == EEXIST ? path + " exists (use --force to replace it)"
                                             : "cannot write " + path);
  }
  const auto n = ::write(fd, text.data(), text.size());
  ::fchmod(fd, 0600);
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size())) throw std::runtime_error("short write to " + path);
}

}  // namespace

int cmd_init(const Context& ctx, const Argv& argv) {
  const auto a = parse(
      argv,
      {"listen", "socket-mode", "threads", "db-socket", "db-host", "db-port", "db-name", "db-user",
       "db-password-file", "db-admin-user", "db-admin-password-file", "log-file", "sql-dir"},
      {"force"});
  if (a.help) {
    std::cout
        << "placardctl init [--force] [--listen unix:PATH|127.0.0.1:PORT] [--socket-mode 0660]\n"
           "  [--threads N] [--db-socket PATH | --db-host H --db-port P] [--db-name N]\n"
           "  [--db-user U] [--db-password-file F] [--db-admin-user U]\n"
           "  [--db-admin-password-file F] [--log-file PATH] [--sql-dir DIR]\n"
           "Writes a new config file (mode 0600) with freshly generated token and\n"
           "credentials keys. Refuses to replace an existing file unless --force.\n";
    return 0;
  }
  std::map<std::string, std::string> kv;
  const std::string kid = today_kid();
  kv["listen"] = a.get("listen");
  kv["socket_mode"] = a.get("socket-mode", "0660");
  kv["threads"] = a.get("threads", "8");
  kv["log_file"] = a.get("log-file");
  kv["db.socket"] = a.get("db-socket");
  kv["db.host"] = a.get("db-host", "127.0.0.1");
  kv["db.port"] = a.get("db-port", "3306");
  kv["db.name"] = a.get("db-name", "placard");
  kv["db.user"] = a.get("db-user", "placard");
  kv["db.password"] = a.has("db-password-file") ? read_text_file(a.get("db-password-file")) : "";
  kv["db.admin_user"] = a.get("db-admin-user");
  kv["db.admin_password"] =
      a.has("db-admin-password-file") ? read_text_file(a.get("db-admin-password-file")) : "";
  kv["token.keys"] = new_secret_key(kid);
  kv["token.active_key"] = kid;
  kv["credentials.key"] = new_secret_key(kid);
  kv["sql_dir"] = a.get("sql-dir");
  const auto cfg = config::server_config_from(kv);  // validates what was given
  (void)tokens::KeyRing::parse(cfg.token_keys, cfg.token_active_key);
  write_private_file(ctx.config_path, config::render_server_config(cfg), a.flag("force"));
  std::cout << "wrote " << ctx.config_path << " (mode 0600, new secrets)\n";
  return 0;
}

}  // namespace placard::ctl
