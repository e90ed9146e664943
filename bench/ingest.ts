/** Benchmarks of the ingest subsystem (see bench/support.ts for the conventions). */
export const benchIngest = async (): Promise<void> => {}
