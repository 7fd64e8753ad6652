// The store writer's thread: started by src/db/writer.ts (bundled beside main.js as writer.js), it
// runs the product's write-behind jobs on a connection of its own.
import { serveWrites } from './db/writer-host';
import { WRITE_JOBS } from './write-jobs';

await serveWrites(WRITE_JOBS);
