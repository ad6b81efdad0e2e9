/** Cache stores: the interface, the in-memory store (the default), the file store and the Redis store. */
export { checkKey, expiryOf, fetchThrough, keyMatcher, type CacheFetchOptions, type CacheStore, type CacheValue, type CacheWriteOptions, type MaybePromise } from './store.ts';
export { isRelayedExpiry, type ExpiryRelay, type RelayedExpiry } from './relay.ts';
export { MemoryStore, memoryStore, MEMORY_STORE_DEFAULTS, type MemoryStoreOptions } from './memory-store.ts';
export { FileStore, fileStore, type FileStoreOptions } from './file-store.ts';
export { RedisCacheStore, redisCacheStore, type RedisCacheStoreOptions } from './redis-store.ts';
