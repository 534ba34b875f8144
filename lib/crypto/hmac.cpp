#include "lib/crypto/hmac.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdexcept>

namespace placard::crypto {

std::array<unsigned char, 32> hmac_sha256(std::string_view key, std::string_view data) {
  std::array<unsigned char, 32> out{};
  unsigned int len = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(),
           &len) == nullptr ||
      len != out.size()) {
    throw std::runtime_error("HMAC-SHA-256 failed");
  }
  return out;
}

}  // namespace placard::crypto
