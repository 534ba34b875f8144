#pragma once
// The administrator settings as stored in the database (what a worker's snapshot would hold),
// for the commands cron runs where no worker lives: rollup, retention run, sync --due.
#include "lib/catalog/settings.h"
#include "lib/db/mysql_session.h"

namespace placard::ctl {

// Reads the settings table; problems with stored values are printed to stderr and the value's
// default is used, as a worker does.
catalog::Settings stored_settings(db::MysqlSession& session);

}  // namespace placard::ctl
