export type { CartActor, In } from './inputs';
export { createStoreFacade, SECRET_ACTOR, type StoreFacade } from './store-facade';
