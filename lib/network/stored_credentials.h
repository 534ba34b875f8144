#pragma once
#include <cstdint>
#include <string>

namespace placard::network {

// A network's credentials as stored: AES-256-GCM ciphertext, never plaintext (credentials.h
// seals and opens them; lib/store/network_store.h keeps them).
struct StoredCredentials {
  std::string key_id;
  std::string iv;
  std::string ciphertext;
  std::string tag;
  std::int64_t updated_at = 0;  // Unix seconds
};

}  // namespace placard::network
