#pragma once
// The config files' layout over time: rewriting the worker's file in place (owner and mode
// kept), and bringing a config from before placard-admin.conf existed to today's layout.
#include <string>

#include "placardctl/commands.h"

namespace placard::ctl {

// Replaces the file at `path` with `text` in one step (temporary file, rename), giving the new
// file the old one's owner, group and mode. Throws std::runtime_error.
void replace_keeping_owner(const std::string& path, const std::string& text);

// A worker's config that still holds db.admin_user / db.admin_password (written before the
// migration credentials had their own file; the worker refuses it): those lines move to the
// admin file (--admin-config, created 0600) when it does not exist yet, and leave the worker's
// file either way (an existing admin file is kept as it is). Every other line stays as it was.
// Returns a sentence saying what it did, or "" when there was nothing to do (no config, or none
// of those keys in it).
std::string move_migration_credentials(const Context& ctx);

}  // namespace placard::ctl
