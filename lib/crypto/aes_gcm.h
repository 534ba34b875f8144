#pragma once

// AES-256-GCM (OpenSSL EVP) for secrets kept in the database: network credentials.
// Every encryption takes a fresh random 12-byte IV; the 16-byte tag authenticates the ciphertext
// and the associated data (the network's name, so a row cannot be moved to another network).

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace placard::crypto {

inline constexpr std::size_t kGcmKeyBytes = 32;
inline constexpr std::size_t kGcmIvBytes = 12;
inline constexpr std::size_t kGcmTagBytes = 16;

struct Sealed {
  std::string key_id;
  std::string iv;          // 12 bytes
  std::string ciphertext;  // as long as the plaintext
  std::string tag;         // 16 bytes
};

// Decryption refused: wrong key, tampered IV, ciphertext, tag or associated data. The message
// says only that; never key material or plaintext.
class DecryptError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// AES-256-GCM with one key. Throws std::invalid_argument unless the key is 32 bytes.
std::string gcm_encrypt(std::string_view key, std::string_view iv, std::string_view plaintext,
                        std::string_view associated_data, std::string& tag_out);
// Throws DecryptError when the tag does not verify (or IV / tag have the wrong size).
std::string gcm_decrypt(std::string_view key, std::string_view iv, std::string_view ciphertext,
                        std::string_view tag, std::string_view associated_data);

// The credentials keys of the config file: "kid:base64url[,kid:base64url...]", each key exactly
// 32 bytes, key ids 1..16 of [A-Za-z0-9_-], no id twice. The first key encrypts; the key named by
// a stored key id decrypts, so keys rotate without losing stored rows. Immutable after parse.
class CredentialKeys {
 public:
  // Throws std::invalid_argument (message without key material) when the spec is malformed.
  static CredentialKeys parse(std::string_view spec);

  const std::string& active_kid() const { return keys_.front().kid; }
  bool has(std::string_view kid) const;

  Sealed seal(std::string_view plaintext, std::string_view associated_data) const;
  // Throws DecryptError for an unknown key id or a row that does not verify.
  std::string open(const Sealed& sealed, std::string_view associated_data) const;

 private:
  struct Key {
    std::string kid;
    std::string bytes;
  };
  std::vector<Key> keys_;
};

}  // namespace placard::crypto
