#pragma once

// The stored hash a sign-in with an unknown email is verified against, so that it costs the same
// scrypt work (and time) as a wrong password for a known one.
//
// A constant, not a hash made at start: computing one costs 128 MiB and a good part of a second
// in every worker process, and under mod_fcgid (shared hosting) a process is started for the
// first visitor after every quiet spell, often inside a per-account memory limit. It was made
// once, like hash_password does, from 16 random bytes that were then thrown away; it has today's
// parameters (a unit test checks that password_hash_outdated is false for it), and whatever it
// matched, an unknown email is refused anyway.

#include <string_view>

namespace placard::crypto {

std::string_view dummy_password_hash();

}  // namespace placard::crypto
