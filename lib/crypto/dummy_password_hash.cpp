#include "lib/crypto/dummy_password_hash.h"

namespace placard::crypto {

std::string_view dummy_password_hash() {
  return "scrypt$17$8$1$SuUoaEMobg7GueDiSJg-Fw$qveT1UsPQCFaOL8rK404KWi_Gpt-s_BzoZyIkubUaYc";
}

}  // namespace placard::crypto
