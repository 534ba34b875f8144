// placardctl journal status|replay: the host's click journal (docs/operations.md, "Click
// journal"): what waits in it, and a replay now (what every FastCGI worker does each second; for
// hosts where no worker lives between requests, e.g. plain CGI, from cron).
#include <iostream>
#include <string>

#include "lib/db/connection_params.h"
#include "lib/journal/click_journal.h"
#include "lib/journal/journal_status.h"
#include "lib/journal/mysql_click_sink.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"

namespace placard::ctl {

namespace {

int status(const config::ServerConfig& cfg) {
  if (cfg.journal_dir.empty()) {
    std::cout << "click journal: off (journal.dir is empty)\n";
    return 0;
  }
  std::uint64_t bytes = 0;
  std::uint64_t records = 0;
  const auto files = journal::journal_status(cfg.journal_dir);
  for (const auto& f : files) {
    std::cout << f.path << ": " << f.records << " clicks, " << f.bytes << " bytes"
              << (f.torn_bytes > 0 ? ", " + std::to_string(f.torn_bytes) + " torn bytes at the end"
                                   : std::string())
              << (f.held ? " (held by a running worker)" : " (no process holds it: replayed next)")
              << "\n";
    bytes += f.bytes;
    records += f.records;
  }
  std::cout << "click journal " << cfg.journal_dir << ": " << files.size() << " file(s), "
            << records << " clicks waiting, " << bytes << " of " << cfg.journal_max_bytes
            << " bytes\n";
  return 0;
}

int replay(const config::ServerConfig& cfg) {
  journal::ClickJournal j({cfg.journal_dir, static_cast<std::uint64_t>(cfg.journal_max_bytes)},
                          [](const std::string& m) { std::cerr << m << "\n"; });
  if (!j.enabled()) throw std::runtime_error("journal.dir is empty: no click journal");
  db::init_driver();
  db::MysqlSession session(db::runtime_params(cfg));
  journal::MysqlClickSink sink(session);
  const auto r = j.replay(sink);
  for (const auto& t : r.torn) std::cout << t << "\n";
  std::cout << "replayed " << r.records << " clicks from " << r.files << " file(s)\n";
  if (!r.error.empty()) throw std::runtime_error("replay stopped: " + r.error);
  return 0;
}

}  // namespace

int cmd_journal(const Context& ctx, const Argv& argv) {
  const std::string action = argv.empty() ? std::string() : argv[0];
  const auto a = parse(argv.empty() ? argv : Argv(argv.begin() + 1, argv.end()), {}, {});
  if (a.help || action == "--help" || action == "-h" ||
      (action != "status" && action != "replay")) {
    std::cout << "placardctl journal status|replay\n"
                 "status: the click journal's files (journal.dir), the clicks waiting in each\n"
                 "and whether a running worker holds it. replay: writes the files no process\n"
                 "holds to the database now (each click once) and removes them; safe while\n"
                 "workers run. Exit status: 0 done, 1 the database did not answer.\n";
    if (a.help || action == "--help" || action == "-h") return 0;
    throw UsageError("expected status or replay");
  }
  const auto cfg = ctx.load();
  return action == "status" ? status(cfg) : replay(cfg);
}

}  // namespace placard::ctl
