#pragma once

namespace placard::process {

// The worker and placardctl hold secrets in memory (token keys, the credentials key, decrypted
// network credentials, database passwords): a core dump would write them to disk, and a
// dumpable process can be read by other processes of the same user (ptrace, /proc/PID/mem).
// At start both call this: PR_SET_DUMPABLE 0 (inherited by forked children) and RLIMIT_CORE 0
// (soft and hard). Setting the environment variable PLACARD_ALLOW_CORE_DUMPS=1 leaves both as
// they are, for debugging a crash. Returns true when core dumps were forbidden.
bool forbid_core_dumps();

}  // namespace placard::process
