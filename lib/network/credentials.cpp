#include "lib/network/credentials.h"

#include "lib/json/safe_parse.h"
#include "lib/network/normalize.h"

namespace placard::network {

namespace {

rapidjson::Document open_json(const crypto::CredentialKeys& keys,
                              const db::StoredCredentials& stored, const char* network,
                              const char* label) {
  std::string plain;
  try {
    plain = keys.open({stored.key_id, stored.iv, stored.ciphertext, stored.tag}, network);
  } catch (const crypto::DecryptError&) {
    throw NetworkError(std::string("The stored ") + label +
                       " credentials cannot be decrypted (was credentials.key changed?)");
  }
  rapidjson::Document doc;
  if (!json::parse_untrusted(plain, doc) || !doc.IsObject()) {
    throw NetworkError(std::string("The stored ") + label + " credentials are unreadable");
  }
  return doc;
}

void require(bool ok, const char* label) {
  if (!ok) throw NetworkError(std::string("The stored ") + label + " credentials are incomplete");
}

}  // namespace

AdmitadCredentials open_admitad_credentials(const crypto::CredentialKeys& keys,
                                            const db::StoredCredentials& stored) {
  const auto doc = open_json(keys, stored, "admitad", "Admitad");
  AdmitadCredentials c{str(doc, "clientId"), str(doc, "clientSecret"), str(doc, "websiteId")};
  require(!c.client_id.empty() && !c.client_secret.empty() && !c.website_id.empty(), "Admitad");
  return c;
}

AwinCredentials open_awin_credentials(const crypto::CredentialKeys& keys,
                                      const db::StoredCredentials& stored) {
  const auto doc = open_json(keys, stored, "awin", "Awin");
  AwinCredentials c{str(doc, "publisherId"), str(doc, "apiToken")};
  require(!c.publisher_id.empty() && !c.api_token.empty(), "Awin");
  return c;
}

}  // namespace placard::network
