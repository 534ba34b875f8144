#pragma once

// Password hashing with scrypt (OpenSSL EVP_PBE_scrypt).
//
// Stored form: "scrypt$<log2 N>$<r>$<p>$<base64url salt>$<base64url hash>", e.g.
// "scrypt$17$8$1$<22 chars>$<43 chars>" for the defaults (N=2^17, r=8, p=1, 16-byte salt,
// 32-byte hash). The parameters travel with the hash, so they can be raised later and old
// hashes still verify.

#include <string>
#include <string_view>

namespace placard::crypto {

// Hashes `password` with a fresh 16-byte random salt. Throws std::runtime_error when the random
// generator or scrypt fails.
std::string hash_password(std::string_view password);

// True when `password` matches `stored`. False for a wrong password and for anything malformed:
// another scheme, non-canonical numbers, log2 N outside 10..20, r outside 1..16, p outside 1..4,
// salt outside 8..64 bytes, hash outside 16..64 bytes, bad base64url, parameters needing more
// than 192 MiB. The comparison is constant-time. Does not throw for bad input.
bool verify_password(std::string_view password, std::string_view stored);

// True when `stored` was made with weaker parameters than hash_password uses today (or is not
// ours at all): after a successful sign-in the password is hashed again.
bool password_hash_outdated(std::string_view stored);

}  // namespace placard::crypto
