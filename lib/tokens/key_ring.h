#pragma once

// HMAC-SHA-256 keys for signing tokens, by key id, so keys can rotate: new tokens are signed with
// the active key, tokens signed with any other key still in the ring keep verifying.
//
// For speed each key's HMAC inner and outer SHA-256 states are computed once at construction;
// mac() copies them (plain structs: OpenSSL's low-level SHA-256, whose EVP equivalent allocated
// and wiped a context per copy, 10 % of the offers query's instructions, issue 24) into a
// MacWorkspace the caller keeps per thread. After construction a KeyRing is immutable and safe
// to use from many threads at once. Raw key bytes are not kept.

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace placard::tokens {

namespace detail {
struct HashState;  // a SHA-256 state (lib/tokens/key_ring.cpp)
struct HashStateDeleter {
  void operator()(HashState* state) const noexcept;  // wipes it
};
using HashStatePtr = std::unique_ptr<HashState, HashStateDeleter>;
}  // namespace detail

// Scratch state for KeyRing::mac, reused from one MAC to the next. Not thread-safe: one per
// thread (api::ThreadServices holds the request thread's). Holds no key material between calls
// beyond the last hash state, which the next call overwrites.
class MacWorkspace {
 public:
  MacWorkspace();
  detail::HashState& get() const noexcept { return *state_; }

 private:
  detail::HashStatePtr state_;
};

class KeyRing {
 public:
  static constexpr std::size_t kMaxKidLength = 16;
  static constexpr std::size_t kMinKeyBytes = 32;

  // `spec` is "kid:base64urlkey[,kid:base64urlkey...]" (spaces or tabs around entries allowed).
  // Key id: 1..16 characters of [A-Za-z0-9_-]; key: unpadded base64url of at least 32 bytes.
  // Throws std::invalid_argument when the spec is malformed, a key id repeats, or `active_kid`
  // is not one of the key ids. Messages never contain key material.
  static KeyRing parse(std::string_view spec, std::string_view active_kid);

  // True when `kid` is 1..16 characters of [A-Za-z0-9_-].
  static bool valid_kid(std::string_view kid) noexcept;

  KeyRing(KeyRing&&) noexcept = default;
  KeyRing& operator=(KeyRing&&) noexcept = default;
  KeyRing(const KeyRing&) = delete;
  KeyRing& operator=(const KeyRing&) = delete;
  ~KeyRing() = default;

  const std::string& active_kid() const noexcept { return active_kid_; }
  bool has(std::string_view kid) const noexcept;

  // HMAC-SHA-256(key[kid], data). Throws std::out_of_range for an unknown kid and
  // std::runtime_error if OpenSSL fails.
  std::array<unsigned char, 32> mac(std::string_view kid, std::string_view data,
                                    MacWorkspace& workspace) const;
  std::array<unsigned char, 32> mac(std::string_view kid, std::string_view data) const;

 private:
  using HashStatePtr = detail::HashStatePtr;

  struct Key {
    std::string kid;
    HashStatePtr inner;  // SHA-256 state after absorbing (K0 xor ipad)
    HashStatePtr outer;  // SHA-256 state after absorbing (K0 xor opad)
  };

  KeyRing() = default;
  const Key* find(std::string_view kid) const noexcept;

  std::vector<Key> keys_;
  std::string active_kid_;
};

}  // namespace placard::tokens
