/// <reference types="vite/client" />

/** The build's identity, compared with /version.json by the version check. */
declare const __APP_VERSION__: string;
