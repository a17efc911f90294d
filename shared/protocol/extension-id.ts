// Our extension's id, fixed by the public key in extension/manifest.json (a test re-derives it from that key).
// The id is public: it pins Origin checks and native-host allowed_origins, it is not a secret.
export const EXTENSION_ID = 'emhiickdbgmamkpeciieeejhhkpjoflc';

export const EXTENSION_ORIGIN = `chrome-extension://${EXTENSION_ID}`;

/** The native-messaging host that hands the extension its pairing secret and the core's port. */
export const NATIVE_HOST_NAME = 'com.chrome_mcp.bridge';
