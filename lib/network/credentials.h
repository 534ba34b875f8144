#pragma once
#include <string>

#include "lib/crypto/aes_gcm.h"
#include "lib/network/admitad.h"
#include "lib/network/awin.h"
#include "lib/network/stored_credentials.h"

namespace placard::network {

// A network's stored credentials, decrypted (the network's name is the associated data) and
// read from the JSON the admin API sealed. Throws NetworkError with a sentence without secrets:
// "The stored Admitad credentials cannot be decrypted (was credentials.key changed?)" or "...
// are incomplete".
AdmitadCredentials open_admitad_credentials(const crypto::CredentialKeys& keys,
                                            const StoredCredentials& stored);
AwinCredentials open_awin_credentials(const crypto::CredentialKeys& keys,
                                      const StoredCredentials& stored);

}  // namespace placard::network
