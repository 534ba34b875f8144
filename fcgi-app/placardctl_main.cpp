// placardctl — the operator's command line: config, migrations, demo data, accounts, checks.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lib/catalog/settings.h"
#include "lib/config/server_config.h"
#include "lib/crypto/base64.h"
#include "lib/crypto/password_hash.h"
#include "lib/crypto/random.h"
#include "lib/db/catalog_version.h"
#include "lib/db/connection_params.h"
#include "lib/db/migrations.h"
#include "lib/db/mysql_accounts.h"
#include "lib/db/mysql_session.h"
#include "lib/db/retention.h"
#include "lib/tokens/key_ring.h"

namespace {

using namespace placard;

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parsed "--name value" / "--flag" options of one subcommand.
struct Args {
  std::map<std::string, std::string> values;
  std::vector<std::string> flags;
  bool help = false;

  bool flag(const std::string& f) const {
    return std::find(flags.begin(), flags.end(), f) != flags.end();
  }
  std::string get(const std::string& k, const std::string& fallback = {}) const {
    const auto it = values.find(k);
    return it == values.end() ? fallback : it->second;
  }
  std::string need(const std::string& k) const {
    const auto it = values.find(k);
    if (it == values.end() || it->second.empty()) throw UsageError("--" + k + " is required");
    return it->second;
  }
};

Args parse(const std::vector<std::string>& argv, const std::vector<std::string>& valued,
           const std::vector<std::string>& flags) {
  Args a;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& s = argv[i];
    if (s == "--help" || s == "-h") {
      a.help = true;
      continue;
    }
    if (s.rfind("--", 0) != 0) throw UsageError("unexpected argument " + s);
    const std::string name = s.substr(2);
    if (std::find(valued.begin(), valued.end(), name) != valued.end()) {
      if (i + 1 >= argv.size()) throw UsageError(s + " needs a value");
      a.values[name] = argv[++i];
    } else if (std::find(flags.begin(), flags.end(), name) != flags.end()) {
      a.flags.push_back(name);
    } else {
      throw UsageError("unknown option " + s);
    }
  }
  return a;
}

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

struct Context {
  std::string config_path;
  config::ServerConfig load() const { return config::load_server_config(config_path); }
};


std::string sql_dir_of(const config::ServerConfig& c) {
  if (!c.sql_dir.empty()) return c.sql_dir;
  return (std::filesystem::canonical("/proc/self/exe").parent_path().parent_path() / "sql")
      .string();
}

int cmd_init(const Context& ctx, const std::vector<std::string>& argv) {
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
  kv["db.password"] =
      a.values.count("db-password-file") ? read_text_file(a.get("db-password-file")) : "";
  kv["db.admin_user"] = a.get("db-admin-user");
  kv["db.admin_password"] = a.values.count("db-admin-password-file")
                                ? read_text_file(a.get("db-admin-password-file"))
                                : "";
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

int cmd_migrate(const Context& ctx, const std::vector<std::string>& argv) {
  const auto a = parse(argv, {"sql-dir"}, {});
  if (a.help) {
    std::cout << "placardctl migrate [--sql-dir DIR]\n"
                 "Applies sql/NNNN_*.sql migrations not yet recorded in schema_migrations, in\n"
                 "order, as the config's db.admin_user. Safe to run again.\n";
    return 0;
  }
  const auto cfg = ctx.load();
  db::init_driver();
  db::MysqlSession session(db::admin_params(cfg));
  const auto applied = db::apply_migrations(
      session, a.get("sql-dir", sql_dir_of(cfg)),
      [](const std::string& name) { std::cout << "applying " << name << "\n"; });
  std::cout << (applied.empty() ? "schema is up to date\n"
                                : std::to_string(applied.size()) + " migration(s) applied\n");
  return 0;
}

int cmd_demo_data(const Context& ctx, const std::vector<std::string>& argv) {
  const auto a = parse(argv, {"file"}, {});
  if (a.help) {
    std::cout << "placardctl demo-data [--file sql/demo/demo.sql]\n"
                 "Loads the demonstration catalog (idempotent) and bumps the catalog version.\n";
    return 0;
  }
  const auto cfg = ctx.load();
  db::init_driver();
  db::MysqlSession session(db::admin_params(cfg));
  const std::string file = a.get("file", sql_dir_of(cfg) + "/demo/demo.sql");
  db::run_script_file(session, file);
  db::bump_catalog_version(session);
  std::cout << "demo data loaded from " << file << "\n";
  return 0;
}

std::string read_password_from_stdin() {
  std::string pw;
  std::getline(std::cin, pw);
  while (!pw.empty() && (pw.back() == '\r' || pw.back() == '\n')) pw.pop_back();
  if (pw.size() < 12)
    throw UsageError("the password (standard input) must have at least 12 characters");
  if (pw.size() > 1024) throw UsageError("the password is too long");
  return pw;
}

bool plausible_email(const std::string& e) {
  const auto at = e.find('@');
  return e.size() <= 254 && at != std::string::npos && at > 0 && at + 1 < e.size() &&
         e.find_first_of(" \t\r\n<>\"") == std::string::npos &&
         e.find('@', at + 1) == std::string::npos;
}

int cmd_account(const Context& ctx, const std::vector<std::string>& argv) {
  const std::string usage =
      "placardctl account create --email E [--approve]   (password from standard input)\n"
      "placardctl account approve --email E\n";
  if (argv.empty() || argv[0] == "--help" || argv[0] == "-h") {
    std::cout << usage;
    return argv.empty() ? 2 : 0;
  }
  const std::string& sub = argv[0];
  const std::vector<std::string> rest(argv.begin() + 1, argv.end());
  if (sub != "create" && sub != "approve")
    throw UsageError("unknown account command " + sub + "\n" + usage);
  const auto a =
      parse(rest, {"email"},
            sub == "create" ? std::vector<std::string>{"approve"} : std::vector<std::string>{});
  if (a.help) {
    std::cout << usage;
    return 0;
  }
  const std::string email = a.need("email");
  if (!plausible_email(email)) throw UsageError("--email is not an email address");
  const auto cfg = ctx.load();
  db::init_driver();
  db::MysqlSession session(db::admin_params(cfg));
  if (sub == "create") {
    const std::string hash = crypto::hash_password(read_password_from_stdin());
    const auto id = db::create_account(session, email, hash, a.flag("approve"));
    std::cout << "account " << id << " created for " << email
              << (a.flag("approve") ? " (approved)\n" : " (pending approval)\n");
    return 0;
  }
  if (!db::approve_account(session, email)) throw std::runtime_error("no account with that email");
  std::cout << "account " << email << " approved\n";
  return 0;
}

int cmd_check(const Context& ctx, const std::vector<std::string>& argv) {
  const auto a = parse(argv, {}, {});
  if (a.help) {
    std::cout << "placardctl check\nReads the config, checks the token keys, connects to the\n"
                 "database as the runtime user and reports the schema version.\n";
    return 0;
  }
  const auto cfg = ctx.load();
  std::cout << "config: " << ctx.config_path << " ok\n";
  (void)tokens::KeyRing::parse(cfg.token_keys, cfg.token_active_key);
  std::cout << "token keys: ok (active " << cfg.token_active_key << ")\n";
  db::init_driver();
  db::MysqlSession session(db::runtime_params(cfg));
  const auto rs = db::query(
      session.prepared("SELECT (SELECT COALESCE(MAX(version), 0) FROM schema_migrations), "
                       "(SELECT version FROM catalog_version WHERE id = 1)"));
  rs->next();
  std::cout << "database: reachable, schema version " << rs->getInt(1) << ", catalog version "
            << rs->getUInt64(2) << "\n";
  return 0;
}

int cmd_catalog(const Context& ctx, const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0] != "bump") {
    std::cout
        << "placardctl catalog bump\nMakes every worker rebuild its catalog snapshot (after a "
           "change made directly in the database).\n";
    return argv.empty() || (argv[0] != "--help" && argv[0] != "-h") ? 2 : 0;
  }
  const auto cfg = ctx.load();
  db::init_driver();
  db::MysqlSession session(db::admin_params(cfg));
  db::bump_catalog_version(session);
  std::cout << "catalog version bumped\n";
  return 0;
}

// placardctl retention run: one retention pass now (what each worker does every
// retention.interval_seconds), with the settings stored in the database.
int cmd_retention(const Context& ctx, const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0] != "run") {
    std::cout << "placardctl retention run\nDeletes raw impressions and clicks older than the "
                 "retention (rawEventRetentionDays,\nnever less than the token time to live) now, "
                 "in small batches. Statistics are kept.\n";
    return argv.empty() || (argv[0] != "--help" && argv[0] != "-h") ? 2 : 0;
  }
  const auto cfg = ctx.load();
  db::init_driver();
  db::MysqlSession session(db::admin_params(cfg));
  std::map<std::string, std::string> values;
  const auto rs = db::query(session.prepared("SELECT name, value FROM settings"));
  while (rs->next()) values[rs->getString(1).asStdString()] = rs->getString(2).asStdString();
  std::vector<std::string> problems;
  const auto settings = catalog::parse_settings(values, problems);
  const int days =
      db::effective_retention_days(settings.raw_event_retention_days, settings.token_ttl_seconds);
  const auto pass = db::delete_old_events(session, days, db::RetentionOptions{});
  if (!pass.ran) {
    std::cout << "another retention pass is running; nothing done\n";
    return 0;
  }
  std::cout << "retention " << days << " days: deleted " << pass.impressions << " impressions and "
            << pass.clicks << " clicks\n";
  return 0;
}

void usage(std::ostream& out) {
  out << "usage: placardctl [--config PATH] COMMAND [options]   (each COMMAND has --help)\n"
         "  init          write a new config file with fresh secrets\n"
         "  migrate       apply database migrations\n"
         "  demo-data     load the demonstration catalog\n"
         "  account       create or approve an admin account\n"
         "  check         check the config and the database connection\n"
         "  catalog bump  make workers reload the catalog\n"
         "  retention run delete raw events past their retention now\n"
         "The config path defaults to $PLACARD_CONFIG, then /etc/placard/placard.conf.\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  Context ctx;
  const char* env = std::getenv("PLACARD_CONFIG");  // NOLINT(concurrency-mt-unsafe)
  ctx.config_path = env != nullptr && *env != '\0' ? env : "/etc/placard/placard.conf";
  // --config PATH is accepted before or after the command.
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--config") {
      ctx.config_path = args[i + 1];
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
                 args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
      break;
    }
  }
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    usage(args.empty() ? std::cerr : std::cout);
    return args.empty() ? 2 : 0;
  }
  const std::map<std::string, std::function<int(const Context&, const std::vector<std::string>&)>>
      commands{{"init", cmd_init},          {"migrate", cmd_migrate}, {"demo-data", cmd_demo_data},
               {"account", cmd_account},    {"check", cmd_check},     {"catalog", cmd_catalog},
               {"retention", cmd_retention}};
  const auto it = commands.find(args[0]);
  if (it == commands.end()) {
    std::cerr << "placardctl: unknown command " << args[0] << "\n";
    usage(std::cerr);
    return 2;
  }
  try {
    return it->second(ctx, std::vector<std::string>(args.begin() + 1, args.end()));
  } catch (const UsageError& e) {
    std::cerr << "placardctl " << args[0] << ": " << e.what() << "\n";
    return 2;
  } catch (const sql::SQLException& e) {
    std::cerr << "placardctl " << args[0] << ": database error " << e.getErrorCode() << ": "
              << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "placardctl " << args[0] << ": " << e.what() << "\n";
    return 1;
  }
}
