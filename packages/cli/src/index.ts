export { ConfigError, readConfig, type ServerConfig } from './config';
export { nodeCrypto } from './node-crypto';
export { SERVER_NODE_FLAGS } from './node-flags';
export { describeDatabase, openStorage } from './open-storage';
export { createConfiguredEngine, type RunningServer, type StartServerOptions, startServer } from './server';
