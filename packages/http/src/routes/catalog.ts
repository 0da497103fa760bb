import type { AnyRoute } from '../route';

/** Placeholder: filled in by its area's implementation. */
export const catalogRoutes: AnyRoute[] = [];
