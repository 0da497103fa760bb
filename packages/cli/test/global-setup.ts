// One throwaway PostgreSQL per vitest run for this project (shared implementation).
export { default } from '../../storage-kysely/test/global-setup';
