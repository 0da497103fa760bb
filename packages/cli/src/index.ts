export { ConfigError, readConfig, type ServerConfig } from './config';
export { nodeCrypto } from './node-crypto';
export { describeDatabase, openStorage } from './open-storage';
export { createConfiguredEngine, type RunningServer, type StartServerOptions, startServer } from './server';
