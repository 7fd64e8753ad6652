// The write-behind jobs as the product's code sees them: names and types only, so the services
// (src/core/services.ts) type their writer without importing the features that own the jobs.
// src/write-jobs.ts lists the functions for both threads and adds them to this registry.
import type { StoreWriter } from '../db/writer';

/** The write jobs by name; src/write-jobs.ts adds each (`declare module`). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface WriteJobRegistry {}

/** The product's store writer. */
export type ProductWriter = StoreWriter<WriteJobRegistry>;
