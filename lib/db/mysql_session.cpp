#include "lib/db/mysql_session.h"

#include <mysql_driver.h>

#include <exception>
#include <stdexcept>

#include "lib/config/db_hosts.h"

namespace placard::db {

void init_driver() {
  sql::mysql::get_mysql_driver_instance();
}

DriverThreadScope::DriverThreadScope() {
  sql::mysql::get_mysql_driver_instance()->threadInit();
}
DriverThreadScope::~DriverThreadScope() {
  sql::mysql::get_mysql_driver_instance()->threadEnd();
}

void add_tls_options(const ConnectionParams& p, sql::ConnectOptionsMap& options) {
  // Connector/C++ 1.1's names (MariaDB Connector/C underneath): sslCA -> MYSQL_OPT_SSL_CA,
  // sslVerify -> MYSQL_OPT_SSL_VERIFY_SERVER_CERT (chain and host name; with it, no TLS is no
  // connection), sslEnforce -> MYSQL_OPT_SSL_ENFORCE (set too, but not what refuses a server
  // without TLS here: tests/e2e/test_db_tls.py).
  if (!p.ssl_ca.empty()) options["sslCA"] = sql::SQLString(p.ssl_ca);
  if (!p.ssl_cert.empty()) options["sslCert"] = sql::SQLString(p.ssl_cert);
  if (!p.ssl_key.empty()) options["sslKey"] = sql::SQLString(p.ssl_key);
  if (p.ssl_verify || !p.ssl_ca.empty()) {
    options["sslEnforce"] = true;
    options["sslVerify"] = p.ssl_verify;
  }
}

MysqlSession::MysqlSession(ConnectionParams params) : params_(std::move(params)) {
  if (!params_.skips) params_.skips = std::make_shared<NodeSkips>();
}

MysqlSession::~MysqlSession() {
  reset();
}

bool MysqlSession::is_connection_error(int code) {
  switch (code) {
    case 1047:  // Galera: this node is not in the primary component (WSREP not ready)
    // Galera: a commit (or a streaming fragment) failed as the node left the primary component
    // ("Not connected to Primary Component"): rolled back. Elsewhere too a failed COMMIT: the
    // transaction did not happen, so it is retried or answered 503, never 500.
    case 1180:
    case 1053:  // server shutdown in progress
    case 1927:  // connection killed
    case 2002:  // cannot connect through socket
    case 2003:  // cannot connect over TCP
    case 2006:  // server has gone away
    case 2013:  // lost connection during query
    case 2055:  // lost connection (system error)
    case 4031:  // disconnected for inactivity
      return true;
    default:
      return false;
  }
}

namespace {

std::vector<std::string> node_urls(const ConnectionParams& p) {
  std::vector<std::string> urls;
  try {
    for (const auto& node : config::parse_db_hosts(p.host, p.port)) {
      urls.push_back(config::tcp_url(node));
    }
  } catch (const std::invalid_argument&) {
    urls.clear();  // not from a checked config (db.host is checked when read): as given
  }
  if (urls.empty()) urls.push_back("tcp://" + p.host + ":" + std::to_string(p.port));
  return urls;
}

std::unique_ptr<sql::Connection> open(sql::ConnectOptionsMap& options) {
  std::unique_ptr<sql::Connection> c(sql::mysql::get_mysql_driver_instance()->connect(options));
  const std::unique_ptr<sql::Statement> init(c->createStatement());
  init->execute("SET time_zone = '+00:00', sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION'");
  return c;
}

// The server went away (killed, shut down, cut off from its cluster): its node is skipped.
bool server_gone(int code) {
  return code == 1047 || code == 1053 || code == 1180 || code == 2006 || code == 2013 ||
         code == 2055;
}

}  // namespace

std::unique_ptr<sql::Connection> MysqlSession::connect_tcp(sql::ConnectOptionsMap& options) {
  const auto urls = node_urls(params_);
  std::exception_ptr last;
  for (const auto i : params_.skips->order(urls, NodeSkips::Clock::now())) {
    options["hostName"] = sql::SQLString(urls[i]);
    try {
      auto c = open(options);
      node_ = urls[i];
      return c;
    } catch (const sql::SQLException& e) {
      if (!is_connection_error(e.getErrorCode())) throw;
      params_.skips->failed(urls[i], NodeSkips::Clock::now());
      last = std::current_exception();
    }
  }
  std::rethrow_exception(last);
}

sql::Connection& MysqlSession::connection() {
  if (connection_) return *connection_;
  sql::ConnectOptionsMap options;
  options["userName"] = sql::SQLString(params_.user);
  options["password"] = sql::SQLString(params_.password);
  options["schema"] = sql::SQLString(params_.name);
  options["OPT_CHARSET_NAME"] = sql::SQLString("utf8mb4");
  // A node that does not answer at all (packets dropped) costs this once per skip (NodeSkips).
  options["OPT_CONNECT_TIMEOUT"] = 2;
  options["OPT_READ_TIMEOUT"] = params_.io_timeout_seconds;
  options["OPT_WRITE_TIMEOUT"] = params_.io_timeout_seconds;
  options["OPT_RECONNECT"] = false;
  if (params_.socket.empty()) {
    add_tls_options(params_, options);
    connection_ = connect_tcp(options);
  } else {
    options["hostName"] = sql::SQLString("unix://" + params_.socket);
    connection_ = open(options);
  }
  return *connection_;
}

void MysqlSession::connection_lost(int code) {
  if (connection_ && !node_.empty() && server_gone(code)) {
    params_.skips->failed(node_, NodeSkips::Clock::now());
  }
  reset();
}

sql::PreparedStatement& MysqlSession::prepared(const std::string& sql) {
  auto& conn = connection();
  auto it = statements_.find(sql);
  if (it == statements_.end()) {
    it = statements_
             .emplace(sql, std::unique_ptr<sql::PreparedStatement>(conn.prepareStatement(sql)))
             .first;
  }
  return *it->second;
}

void MysqlSession::execute(const std::string& sql) {
  const std::unique_ptr<sql::Statement> st(connection().createStatement());
  st->execute(sql);
}

void MysqlSession::reset() {
  statements_.clear();
  if (connection_) {
    try {
      connection_->close();
    } catch (const sql::SQLException&) {
      // Already gone: nothing to close.
    }
    connection_.reset();
  }
  node_.clear();
}

std::unique_ptr<sql::ResultSet> query(sql::PreparedStatement& statement) {
  return std::unique_ptr<sql::ResultSet>(statement.executeQuery());
}

}  // namespace placard::db
