#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp and fcgi-app include this header: handlers see repository
// interfaces.
#include <memory>
#include <string>
#include <unordered_map>

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include "lib/db/errors.h"
#include "lib/db/node_skips.h"

namespace placard::db {

struct ConnectionParams {
  std::string socket;  // unix socket; when empty, host and port
  // One node, or several comma-separated (host or host:port, config/db_hosts.h), tried in order
  // when a connection is made; port is the port of those without one.
  std::string host = "127.0.0.1";
  int port = 3306;
  std::string name;
  std::string user;
  std::string password;
  // TLS over TCP (config db.ssl_*): required when ca is set or verify is on.
  std::string ssl_ca;
  std::string ssl_cert;
  std::string ssl_key;
  bool ssl_verify = false;
  // How long one read or write on the connection may wait (a server that stopped answering).
  int io_timeout_seconds = 30;
  // The nodes that failed lately, shared by every session made from copies of these params
  // (null: each session keeps its own).
  std::shared_ptr<NodeSkips> skips;
};

// The TLS options of p (db.ssl_*) in Connector/C++'s connect options.
void add_tls_options(const ConnectionParams& p, sql::ConnectOptionsMap& options);

// Once in main, before any thread: the driver is not thread-safe to create.
void init_driver();

// RAII: the driver's per-thread setup, for every thread that uses a session.
class DriverThreadScope {
 public:
  DriverThreadScope();
  ~DriverThreadScope();
  DriverThreadScope(const DriverThreadScope&) = delete;
  DriverThreadScope& operator=(const DriverThreadScope&) = delete;
};

// One connection (made lazily) and its prepared statements, owned by one thread. No
// auto-reconnect (it silently loses transactions and statements): a lost connection is dropped
// with its statements; run() retries idempotent work once on a fresh connection.
class MysqlSession {
 public:
  explicit MysqlSession(ConnectionParams params);
  ~MysqlSession();
  MysqlSession(const MysqlSession&) = delete;
  MysqlSession& operator=(const MysqlSession&) = delete;

  sql::Connection& connection();
  sql::PreparedStatement& prepared(const std::string& sql);
  // One statement over the text protocol, nothing kept: what is run once, or cannot be
  // prepared (transaction control, SET TRANSACTION, DDL, account statements).
  void execute(const std::string& sql);
  void reset();

  // Runs work(*this). Connection loss: reset, and for idempotent work one retry on a new
  // connection (another node of db.host when this one is gone); then DatabaseUnavailable. A
  // deadlock, lock wait timeout or Galera certification failure (1213 at commit): idempotent
  // work is retried twice, then (or at once) DatabaseUnavailable; the two counts are separate,
  // so a conflict followed by the node leaving the cluster still gets its new connection.
  // Other SQL errors: DatabaseError (the message has the detail, for the log).
  template <typename Work>
  auto run(bool idempotent, Work&& work) -> decltype(work(*this)) {
    int reconnects = 0;
    int conflicts = 0;
    for (;;) {
      try {
        return work(*this);
      } catch (const sql::SQLException& e) {
        const int code = e.getErrorCode();
        if (is_connection_error(code)) {
          connection_lost(code);
          if (!idempotent || ++reconnects > 1) {
            throw DatabaseUnavailable(std::string("database unreachable: ") + e.what());
          }
        } else if (is_transient_error(code) && (!idempotent || ++conflicts > 2)) {
          // A deadlock, lock wait timeout or Galera certification failure: the statement (or its
          // transaction) was rolled back; not retried (again): busy, 503 and Retry-After.
          throw DatabaseUnavailable(std::string("write conflict, rolled back (error ") +
                                    std::to_string(code) + "): " + e.what());
        } else if (!is_transient_error(code)) {
          throw DatabaseError(std::string("SQL error ") + std::to_string(code) + ": " + e.what());
        }
      }
    }
  }

  static bool is_connection_error(int code);
  // The open connection failed with `code` (a connection error): reset; the node is skipped for
  // new connections (NodeSkips) when its server is gone (killed, shut down, out of the cluster).
  void connection_lost(int code);
  // Deadlock (1213) or lock wait timeout (1205): the statement was rolled back, try again.
  static bool is_transient_error(int code) { return code == 1213 || code == 1205; }

 private:
  // A connection to one of the nodes (db.host), the ones not skipped first; the last error when
  // none answers. Errors other than a connection error are thrown at once.
  std::unique_ptr<sql::Connection> connect_tcp(sql::ConnectOptionsMap& options);

  ConnectionParams params_;
  std::string node_;  // the address connection_ went to (empty: none, or the socket)
  std::unique_ptr<sql::Connection> connection_;
  std::unordered_map<std::string, std::unique_ptr<sql::PreparedStatement>> statements_;
};

// Runs a query and gives back the whole result set, owned.
std::unique_ptr<sql::ResultSet> query(sql::PreparedStatement& statement);

}  // namespace placard::db
